/// SVG: reads the attributes of the root `<svg>` start tag. The `viewBox` gives the size (its
/// proportions are what matter for layout); without one, `width` and `height` in px or unitless.
enum SVG {
    /// How far into the file the root element may start; past this the file is not worth scanning.
    static let scanLimit = 1 << 20

    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Text that begins (after an optional UTF-8 byte-order mark and white space) with `<`.
    static func looksLikeMarkup(_ bytes: ByteView) -> Bool {
        var scanner = Scanner(bytes, limit: scanLimit)
        scanner.skipBOMAndSpace()
        return scanner.peek() == UInt8(ascii: "<")
    }

    /// `namedSVG`: the file's name ends in `.svg`; markup of another root under another name is
    /// said to be what it looks like, not a broken SVG.
    static func size(_ bytes: ByteView, namedSVG: Bool = true) throws(ProbeFailure) -> ImageSize {
        let attributes = try rootAttributes(bytes, namedSVG: namedSVG)
        if let viewBox = attributes["viewBox"] {
            let numbers = viewBox.split(whereSeparator: {
                $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r"
            })
            let values = numbers.compactMap { number(String($0)) }
            guard numbers.count == 4, values.count == 4 else {
                throw ProbeFailure("SVG viewBox \"\(viewBox)\" is not four numbers")
            }
            return ImageSize(
                width: try pixels(values[2], "viewBox width"), height: try pixels(values[3], "viewBox height"))
        }
        guard let width = attributes["width"], let height = attributes["height"] else {
            throw ProbeFailure("SVG has neither a viewBox nor width and height")
        }
        return ImageSize(width: try length(width, "width"), height: try length(height, "height"))
    }

    /// A `width` or `height` attribute: a number, optionally followed by `px`.
    private static func length(_ text: String, _ name: String) throws(ProbeFailure) -> Int {
        var trimmed = Substring(text).drop(while: \.isWhitespace)
        while trimmed.last?.isWhitespace == true { trimmed = trimmed.dropLast() }
        if trimmed.hasSuffix("px") { trimmed = trimmed.dropLast(2) }
        guard let value = number(String(trimmed)) else {
            throw ProbeFailure("SVG \(name) \"\(text)\" is not a length in px or unitless; give the svg a viewBox")
        }
        return try pixels(value, name)
    }

    /// Rounds to whole pixels, refusing what would not fit an `Int` or be a plausible image side.
    private static func pixels(_ value: Double, _ name: String) throws(ProbeFailure) -> Int {
        guard value >= 0 else { throw ProbeFailure("SVG \(name) is negative") }
        guard value <= Double(ImageProbe.maximumSide) + 1 else {
            throw ProbeFailure("SVG \(name) \(value) is implausible (at most \(ImageProbe.maximumSide) px a side)")
        }
        return Int(value.rounded())
    }

    /// A plain XML/CSS number: `[+-]digits[.digits][e[+-]digits]`. Stricter than `Double(_:)`, which
    /// would also take "inf", "nan" and hexadecimal.
    static func number(_ text: String) -> Double? {
        var chars = Substring(text)
        var mantissaDigits = 0
        if chars.first == "+" || chars.first == "-" { chars = chars.dropFirst() }
        let integer = chars.prefix(while: \.isASCIIDigit)
        mantissaDigits += integer.count
        chars = chars.dropFirst(integer.count)
        if chars.first == "." {
            chars = chars.dropFirst()
            let fraction = chars.prefix(while: \.isASCIIDigit)
            mantissaDigits += fraction.count
            chars = chars.dropFirst(fraction.count)
        }
        guard mantissaDigits > 0 else { return nil }
        if chars.first == "e" || chars.first == "E" {
            chars = chars.dropFirst()
            if chars.first == "+" || chars.first == "-" { chars = chars.dropFirst() }
            let exponent = chars.prefix(while: \.isASCIIDigit)
            guard !exponent.isEmpty else { return nil }
            chars = chars.dropFirst(exponent.count)
        }
        guard chars.isEmpty, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// The root element's name, after skipping the prolog (XML declaration, processing
    /// instructions, comments, doctype and white space); the scanner is left just past it.
    static func root(_ bytes: ByteView) throws(ProbeFailure) -> (name: String, scanner: Scanner) {
        var scanner = Scanner(bytes, limit: scanLimit)
        scanner.skipBOMAndSpace()
        while true {
            guard scanner.skip("<") else {
                if scanner.atEnd { throw scanner.ended("SVG has no root element") }
                throw ProbeFailure("not an SVG file: text before the root element")
            }
            if scanner.skip("?") {
                guard scanner.skip(past: "?>") else { throw scanner.ended("SVG ends inside a processing instruction") }
            } else if scanner.skip("!--") {
                guard scanner.skip(past: "-->") else { throw scanner.ended("SVG ends inside a comment") }
            } else if scanner.skip("!") {
                guard scanner.skipDeclaration() else { throw scanner.ended("SVG ends inside its doctype") }
            } else {
                break
            }
            scanner.skipSpace()
        }
        return (scanner.name(), scanner)
    }

    /// What markup whose root element is `name`, not `<svg>`, looks like ("it starts like HTML").
    static func likeness(_ name: String) -> String {
        name.lowercased() == "html" ? "it starts like HTML" : "it starts like markup with the root <\(name)>"
    }

    private static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }

    /// The attributes of the root element, which must be `<svg>`.
    static func rootAttributes(_ bytes: ByteView, namedSVG: Bool = true) throws(ProbeFailure) -> [String: String] {
        let (name, rest) = try root(bytes)
        var scanner = rest
        guard localName(name) == "svg" else {
            if !namedSVG && !name.isEmpty {
                throw ProbeFailure("not a PNG, JPEG, GIF, WebP or SVG image: \(likeness(name))")
            }
            throw ProbeFailure("not an SVG file: the root element is <\(name)>")
        }
        var attributes: [String: String] = [:]
        while true {
            let hadSpace = scanner.skipSpace()
            if scanner.atEnd { throw scanner.ended("SVG ends inside its root <svg> tag") }
            if scanner.skip(">") || scanner.skip("/>") { return attributes }
            let attribute = scanner.name()
            guard hadSpace, !attribute.isEmpty else { throw ProbeFailure("SVG root <svg> tag is malformed") }
            scanner.skipSpace()
            guard scanner.skip("=") else {
                throw scanner.atEnd
                    ? scanner.ended("SVG ends inside its root <svg> tag")
                    : ProbeFailure("SVG attribute \(attribute) has no value")
            }
            scanner.skipSpace()
            guard let value = scanner.quoted() else {
                if scanner.atEnd { throw scanner.ended("SVG ends inside its root <svg> tag") }
                throw ProbeFailure("SVG attribute \(attribute) has an unquoted value")
            }
            // XML forbids duplicates; keeping the first is as good a guess as any.
            if attributes[attribute] == nil { attributes[attribute] = value }
        }
    }

    /// A cursor over the first `limit` bytes.
    struct Scanner {
        let bytes: ByteView
        let end: Int
        var offset = 0

        init(_ bytes: ByteView, limit: Int) {
            self.bytes = bytes
            self.end = min(bytes.count, limit)
        }

        var atEnd: Bool { offset >= end }

        func peek(_ ahead: Int = 0) -> UInt8? {
            offset + ahead < end ? bytes.u8(offset + ahead) : nil
        }

        mutating func skipBOMAndSpace() {
            if bytes.starts(with: SVG.bom) { offset = SVG.bom.count }
            skipSpace()
        }

        @discardableResult
        mutating func skipSpace() -> Bool {
            let start = offset
            while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1 }
            return offset > start
        }

        /// Consumes `literal` if the text continues with it.
        mutating func skip(_ literal: String) -> Bool {
            let utf8 = Array(literal.utf8)
            guard offset + utf8.count <= end, bytes.starts(with: utf8, at: offset) else { return false }
            offset += utf8.count
            return true
        }

        /// Moves just past the next `terminator`; false if the text ends first.
        mutating func skip(past terminator: String) -> Bool {
            let utf8 = Array(terminator.utf8)
            while offset + utf8.count <= end {
                if bytes.starts(with: utf8, at: offset) {
                    offset += utf8.count
                    return true
                }
                offset += 1
            }
            offset = end
            return false
        }

        /// The message for running out of text: the real end, or the scan limit on a huge file.
        func ended(_ message: String) -> ProbeFailure {
            if end < bytes.count {
                return ProbeFailure("SVG has no complete root <svg> tag within its first \(end) bytes")
            }
            return ProbeFailure(message)
        }

        /// Skips a `<!DOCTYPE …>` (the `<!` already consumed), including a bracketed internal subset
        /// and quoted strings that may contain `>`.
        mutating func skipDeclaration() -> Bool {
            var depth = 0
            var quote: UInt8?
            while let byte = peek() {
                offset += 1
                if let q = quote {
                    if byte == q { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "]") {
                    depth = max(0, depth - 1)
                } else if byte == UInt8(ascii: ">"), depth == 0 {
                    return true
                }
            }
            return false
        }

        /// An XML name (letters, digits and `_ : . -`, or any non-ASCII byte).
        mutating func name() -> String {
            let start = offset
            while let byte = peek(), Scanner.isNameByte(byte) { offset += 1 }
            return text(start, offset)
        }

        /// A single- or double-quoted attribute value, without its quotes; nil when there is no
        /// quote, or at the end of the text when the closing quote is missing.
        mutating func quoted() -> String? {
            guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
            let start = offset + 1
            var cursor = start
            while cursor < end, let byte = bytes.u8(cursor) {
                if byte == quote {
                    offset = cursor + 1
                    return text(start, cursor)
                }
                cursor += 1
            }
            offset = end  // no closing quote: the text ends inside the value
            return nil
        }

        private func text(_ from: Int, _ to: Int) -> String {
            var utf8: [UInt8] = []
            utf8.reserveCapacity(max(0, to - from))
            for i in from..<max(from, to) { if let byte = bytes.u8(i) { utf8.append(byte) } }
            return String(decoding: utf8, as: UTF8.self)
        }

        private static func isNameByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: ":"),
                UInt8(ascii: "."), UInt8(ascii: "-"), 0x80...0xFF:
                return true
            default:
                return false
            }
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
