import Foundation
import SiteCore

/// A parser for the XML subset used by property lists: prolog (`<?xml …?>`, `<!DOCTYPE …>`,
/// comments), one `<plist>` (optional) holding one value, character data with the predefined
/// and numeric entities, and CDATA. Iterative, with an explicit stack of open containers.
struct XMLPlistParser: CursorReader {
    var cursor: ByteCursor
    /// Reused buffer for text with entities, CDATA or line ends to normalise.
    var scratch: [UInt8] = []

    enum Element {
        case plist, dict, key, array, string, integer, real, `true`, `false`, date, data

        var name: String { staticName.description }

        /// For allocation-free comparison with the bytes.
        var staticName: StaticString {
            switch self {
            case .plist: "plist"
            case .dict: "dict"
            case .key: "key"
            case .array: "array"
            case .string: "string"
            case .integer: "integer"
            case .real: "real"
            case .true: "true"
            case .false: "false"
            case .date: "date"
            case .data: "data"
            }
        }
    }

    struct Tag {
        var start: Int
        var name: Range<Int>
        var selfClosing: Bool
    }

    init(bytes: UnsafeBufferPointer<UInt8>, file: String, target: [PathComponent]?, collectsElements: Bool = false) {
        cursor = ByteCursor(bytes: bytes, file: file, target: target, collectsElements: collectsElements)
    }

    // MARK: Errors

    func name(_ range: Range<Int>) -> String { ByteText.string(bytes, range) }

    /// What the innermost open element still needs, for "unexpected end of file" messages.
    var expectedClosing: String {
        guard let frame = cursor.open.frames.last else { return "a value" }
        return frame.isDictionary ? "</dict>" : "</array>"
    }

    // MARK: Document

    mutating func parseDocument() throws(Diagnostic) -> Value {
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            throw Diagnostic(
                file: cursor.file, line: 1, column: 1,
                "UTF-16 property lists are not supported; save the file as UTF-8")
        }
        if let bad = ByteText.firstInvalidUTF8(bytes, from: cursor.textStart) {
            throw error("invalid UTF-8 byte \(ByteText.hexByte(bytes[bad]))", at: bad)
        }
        try skipMisc()
        guard pos < bytes.count, bytes[pos] == UInt8(ascii: "<") else {
            throw error(
                "expected '<?xml', '<plist>' or 'bplist00' at the start of a property list, found \(found(pos))",
                at: pos)
        }
        let rootStart = pos
        let tag = try parseStartTag()
        let value: Value
        if ByteText.equals(bytes, tag.name, "plist") {
            if tag.selfClosing { throw error("<plist/> is empty, expected a value inside it", at: tag.start) }
            try skipSpaceAndComments()
            if ByteText.matches(bytes, at: pos, "</") {
                throw error("<plist> is empty, expected a value inside it", at: pos)
            }
            value = try parseValue()
            try skipSpaceAndComments()
            guard ByteText.matches(bytes, at: pos, "</") else {
                let what = pos < bytes.count ? "another value" : "end of file"
                throw error("expected </plist> after the property list's value, found \(what)", at: pos)
            }
            let closeStart = pos
            let closing = try parseClosingTag()
            guard ByteText.equals(bytes, closing, "plist") else {
                throw error("expected </plist>, found </\(name(closing))>", at: closeStart)
            }
        } else {
            // A bare value without the <plist> wrapper.
            pos = rootStart
            value = try parseValue()
        }
        try skipMisc()
        if pos < bytes.count {
            throw error("expected end of file after the property list, found \(found(pos))", at: pos)
        }
        return value
    }

    // MARK: Values

    mutating func parseValue() throws(Diagnostic) -> Value {
        expectValue: while true {
            try skipSpaceAndComments()
            guard pos < bytes.count else {
                let expected = cursor.open.frames.isEmpty ? "a value" : "a value or " + expectedClosing
                throw error("unexpected end of file, expected \(expected)", at: pos)
            }
            guard bytes[pos] == UInt8(ascii: "<") else {
                throw error("unexpected text \(found(pos)), expected an element such as <string>", at: pos)
            }
            var value: Value
            if ByteText.matches(bytes, at: pos, "</") {
                // Only an array may end where a value could start.
                let closeStart = pos
                let closing = try parseClosingTag()
                guard let frame = cursor.open.frames.last, !frame.isDictionary else {
                    throw error("expected a value, found </\(name(closing))>", at: closeStart)
                }
                guard ByteText.equals(bytes, closing, "array") else {
                    throw error("expected </array>, found </\(name(closing))>", at: closeStart)
                }
                cursor.open.arrayEndsInsteadOfValue()
                value = .array(cursor.open.frames.removeLast().array)
            } else {
                let tag = try parseStartTag()
                guard let element = element(tag.name), element != .plist, element != .key else {
                    if let frame = cursor.open.frames.last, frame.isDictionary {
                        throw error("<dict> key '\(frame.key)' has no value, found <\(name(tag.name))>", at: tag.start)
                    }
                    throw error(
                        "unexpected <\(name(tag.name))>, expected a value such as <string>, <integer> or <dict>",
                        at: tag.start)
                }
                cursor.open.valueStarts(at: tag.start)
                switch element {
                case .dict:
                    if tag.selfClosing {
                        value = .dictionary([:])
                    } else {
                        try push(isDict: true, at: tag.start)
                        if try nextDictEntry() {
                            value = .dictionary(cursor.open.frames.removeLast().dictionary)
                        } else {
                            continue expectValue
                        }
                    }
                case .array:
                    if tag.selfClosing {
                        value = .array([])
                    } else {
                        try push(isDict: false, at: tag.start)
                        cursor.open.locateChild(.index(0))
                        continue expectValue
                    }
                default:
                    value = try scalar(element, tag)
                }
            }

            // Hand the finished value to its container, closing every container that ends here.
            while let top = cursor.open.frames.indices.last {
                if cursor.open.frames[top].isDictionary {
                    let key = cursor.open.frames[top].key
                    cursor.open.frames[top].dictionary[key] = value
                    if try nextDictEntry() {
                        value = .dictionary(cursor.open.frames.removeLast().dictionary)
                    } else {
                        continue expectValue
                    }
                } else {
                    cursor.open.frames[top].array.append(value)
                    cursor.open.locateChild(.index(cursor.open.frames[top].array.count))
                    continue expectValue
                }
            }
            return value
        }
    }

    mutating func push(isDict: Bool, at offset: Int) throws(Diagnostic) {
        guard cursor.open.push(isDictionary: isDict) else {
            throw error("arrays and dictionaries are nested more than \(maximumNestingDepth) deep", at: offset)
        }
    }

    /// In the innermost `<dict>`: reads the next `<key>…</key>` and returns false (a value must
    /// follow), or reads `</dict>` and returns true.
    mutating func nextDictEntry() throws(Diagnostic) -> Bool {
        try skipSpaceAndComments()
        guard pos < bytes.count else {
            throw error("unexpected end of file, expected <key> or </dict>", at: pos)
        }
        let tagStart = pos
        if ByteText.matches(bytes, at: pos, "</") {
            let closing = try parseClosingTag()
            guard ByteText.equals(bytes, closing, "dict") else {
                throw error("expected </dict>, found </\(name(closing))>", at: tagStart)
            }
            cursor.open.markNext = false
            return true
        }
        guard bytes[pos] == UInt8(ascii: "<") else {
            throw error("unexpected text \(found(pos)) in <dict>, expected <key>", at: pos)
        }
        let tag = try parseStartTag()
        guard ByteText.equals(bytes, tag.name, "key") else {
            throw error("expected <key> or </dict> in <dict>, found <\(name(tag.name))>", at: tagStart)
        }
        let key = tag.selfClosing ? "" : try text(of: .key)
        let top = cursor.open.frames.count - 1
        if cursor.open.frames[top].dictionary[key] != nil {
            throw error("duplicate key '\(key)' in <dict>", at: tagStart)
        }
        cursor.open.frames[top].key = key
        // The value must follow; a closing tag here means the key has none.
        try skipSpaceAndComments()
        if pos >= bytes.count {
            throw error("unexpected end of file, expected the value of <dict> key '\(key)'", at: pos)
        }
        if ByteText.matches(bytes, at: pos, "</") {
            throw error("<dict> key '\(key)' has no value", at: pos)
        }
        cursor.open.locateChild(.key(key))
        return false
    }

    func element(_ range: Range<Int>) -> Element? {
        guard let first = range.first.map({ bytes[$0] }) else { return nil }
        func match(_ literal: StaticString, _ element: Element) -> Element? {
            ByteText.equals(bytes, range, literal) ? element : nil
        }
        switch first {
        case UInt8(ascii: "a"): return match("array", .array)
        case UInt8(ascii: "d"): return match("dict", .dict) ?? match("date", .date) ?? match("data", .data)
        case UInt8(ascii: "f"): return match("false", .false)
        case UInt8(ascii: "i"): return match("integer", .integer)
        case UInt8(ascii: "k"): return match("key", .key)
        case UInt8(ascii: "p"): return match("plist", .plist)
        case UInt8(ascii: "r"): return match("real", .real)
        case UInt8(ascii: "s"): return match("string", .string)
        case UInt8(ascii: "t"): return match("true", .true)
        default: return nil
        }
    }

    /// A leaf element whose start tag has just been read.
    mutating func scalar(_ element: Element, _ tag: Tag) throws(Diagnostic) -> Value {
        // An empty element's problems are reported at its tag.
        let contentStart = tag.selfClosing ? tag.start : pos
        let content = tag.selfClosing ? "" : try text(of: element)
        switch element {
        case .string:
            return .string(content)
        case .true, .false:
            guard trimmed(content).isEmpty else {
                throw error("<\(element.name)/> must be empty, found '\(content)'", at: contentStart)
            }
            return .bool(element == .true)
        case .integer:
            return .int(try Self.integer(trimmed(content), at: contentStart, parser: self))
        case .real:
            let text = trimmed(content)
            guard let value = Self.real(text) else {
                throw error(
                    text.isEmpty ? "<real> is empty, expected a number" : "<real> holds '\(text)', expected a number",
                    at: contentStart)
            }
            return .double(value)
        case .date:
            let text = trimmed(content)
            guard let date = Self.date(text) else {
                throw error("<date> holds '\(text)', expected a date like 2024-05-01T12:00:00Z", at: contentStart)
            }
            return .date(date)
        case .data:
            var base64 = ""
            base64.unicodeScalars.reserveCapacity(content.utf8.count)
            for scalar in content.unicodeScalars {
                switch scalar {
                case "A"..."Z", "a"..."z", "0"..."9", "+", "/", "=":
                    base64.unicodeScalars.append(scalar)
                case " ", "\t", "\n", "\r":
                    continue
                default:
                    throw error("<data> holds '\(scalar)', which is not base64", at: contentStart)
                }
            }
            return .string(base64)
        case .plist, .dict, .key, .array:
            // Containers are handled by the caller; unreachable.
            throw error("unexpected <\(element.name)>", at: tag.start)
        }
    }

    /// `s` without leading and trailing XML whitespace.
    func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: { !ByteCursor.isSpace($0) }),
            let last = utf8.lastIndex(where: { !ByteCursor.isSpace($0) })
        else { return "" }
        return String(Substring(utf8[first...last]))
    }

    static func integer(_ text: String, at offset: Int, parser: XMLPlistParser) throws(Diagnostic) -> Int64 {
        var utf8 = Substring(text).utf8
        if text.isEmpty { throw parser.error("<integer> is empty, expected a whole number", at: offset) }
        var negative = false
        if let sign = utf8.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            utf8 = utf8.dropFirst()
        }
        var radix: Int64 = 10
        if utf8.count > 2, utf8.first == UInt8(ascii: "0"), let x = utf8.dropFirst().first,
            x | 0x20 == UInt8(ascii: "x")
        {
            radix = 16
            utf8 = utf8.dropFirst(2)
        }
        guard !utf8.isEmpty else {
            throw parser.error("<integer> holds '\(text)', expected a whole number", at: offset)
        }
        // Accumulate negatively so that Int64.min is representable.
        var value: Int64 = 0
        for b in utf8 {
            let digit: Int64
            switch b {
            case 0x30...0x39: digit = Int64(b - 0x30)
            case 0x41...0x46 where radix == 16: digit = Int64(b - 0x41 + 10)
            case 0x61...0x66 where radix == 16: digit = Int64(b - 0x61 + 10)
            default: throw parser.error("<integer> holds '\(text)', expected a whole number", at: offset)
            }
            let (shifted, o1) = value.multipliedReportingOverflow(by: radix)
            let (next, o2) = shifted.subtractingReportingOverflow(digit)
            if o1 || o2 { throw parser.error("<integer> holds '\(text)', which does not fit in 64 bits", at: offset) }
            value = next
        }
        if negative { return value }
        if value == .min { throw parser.error("<integer> holds '\(text)', which does not fit in 64 bits", at: offset) }
        return -value
    }

    /// A decimal floating-point number, or CoreFoundation's spellings of infinity and NaN.
    static func real(_ text: String) -> Double? {
        switch text.lowercased() {
        case "nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default: break
        }
        // Double(String) also accepts hex floats and words; allow only decimal notation.
        var sawDigit = false
        for b in text.utf8 {
            switch b {
            case 0x30...0x39: sawDigit = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): continue
            default: return nil
            }
        }
        guard sawDigit else { return nil }
        return Double(text)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, always UTC.
    static func date(_ text: String) -> Date? {
        let u = Array(text.utf8)
        guard u.count == 20, u[4] == 0x2D, u[7] == 0x2D, u[10] == UInt8(ascii: "T"), u[13] == 0x3A, u[16] == 0x3A,
            u[19] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var n = 0
            for i in range {
                guard u[i] >= 0x30, u[i] <= 0x39 else { return nil }
                n = n * 10 + Int(u[i] - 0x30)
            }
            return n
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), hour < 24, minute < 60, second < 60
        else { return nil }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day >= 1, day <= monthDays[month - 1] else { return nil }
        // Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146097 + dayOfEra - 719468
        let seconds = days * 86400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    // MARK: Character data

    /// The character data of `element` up to its closing tag (which is consumed).
    mutating func text(of element: Element) throws(Diagnostic) -> String {
        let start = pos
        var runStart = pos
        var buffered = false
        let n = bytes.count
        func flush(_ parser: inout XMLPlistParser, _ runStart: Int, _ buffered: inout Bool) {
            if !buffered {
                parser.scratch.removeAll(keepingCapacity: true)
                buffered = true
            }
            parser.scratch.append(contentsOf: UnsafeBufferPointer(rebasing: parser.bytes[runStart..<parser.pos]))
        }
        scan: while true {
            guard pos < n else {
                throw error("unexpected end of file inside <\(element.name)>, expected </\(element.name)>", at: pos)
            }
            let b = bytes[pos]
            switch b {
            case UInt8(ascii: "<"):
                if pos + 1 < n, bytes[pos + 1] == UInt8(ascii: "/") { break scan }
                flush(&self, runStart, &buffered)
                if ByteText.matches(bytes, at: pos, "<![CDATA[") {
                    let contentStart = pos + 9
                    guard let end = find("]]>", from: contentStart) else {
                        throw error("unterminated CDATA section, expected ']]>'", at: pos)
                    }
                    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[contentStart..<end]))
                    pos = end + 3
                } else if ByteText.matches(bytes, at: pos, "<!--") {
                    try skipComment()
                } else {
                    let tagStart = pos
                    let tag = try parseStartTag()
                    throw error("unexpected <\(name(tag.name))> inside <\(element.name)>, expected text", at: tagStart)
                }
                runStart = pos
            case UInt8(ascii: "&"):
                flush(&self, runStart, &buffered)
                try appendEntity()
                runStart = pos
            case 0x0D:
                // XML normalises CR LF and lone CR to LF.
                flush(&self, runStart, &buffered)
                scratch.append(0x0A)
                pos += 1
                if pos < n, bytes[pos] == 0x0A { pos += 1 }
                runStart = pos
            case 0x00...0x08, 0x0B, 0x0C, 0x0E...0x1F:
                throw error("control character \(ByteText.scalarName(UInt32(b))) is not allowed in XML", at: pos)
            default:
                pos += 1
            }
        }
        let result: String
        if buffered {
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<pos]))
            result = String(decoding: scratch, as: UTF8.self)
        } else {
            result = ByteText.string(bytes, start..<pos)
        }
        let closeStart = pos
        let closing = try parseClosingTag()
        guard ByteText.equals(bytes, closing, element.staticName) else {
            throw error("expected </\(element.name)>, found </\(name(closing))>", at: closeStart)
        }
        return result
    }

    /// Decodes the entity or character reference at `pos` into `scratch`.
    mutating func appendEntity() throws(Diagnostic) {
        let start = pos
        var end = pos + 1
        while end < bytes.count, end - start <= 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
            throw error("'&' must start an entity such as '&amp;'", at: start)
        }
        let body = (start + 1)..<end
        let literal: UInt8?
        if ByteText.equals(bytes, body, "lt") {
            literal = 0x3C
        } else if ByteText.equals(bytes, body, "gt") {
            literal = 0x3E
        } else if ByteText.equals(bytes, body, "amp") {
            literal = 0x26
        } else if ByteText.equals(bytes, body, "quot") {
            literal = 0x22
        } else if ByteText.equals(bytes, body, "apos") {
            literal = 0x27
        } else {
            literal = nil
        }
        if let literal {
            scratch.append(literal)
            pos = end + 1
            return
        }
        let entity = ByteText.string(bytes, start..<(end + 1))
        guard body.count >= 2, bytes[body.lowerBound] == UInt8(ascii: "#") else {
            throw error("unknown entity '\(entity)'", at: start)
        }
        var digits = (body.lowerBound + 1)..<body.upperBound
        var radix: UInt32 = 10
        if bytes[digits.lowerBound] == UInt8(ascii: "x") {
            radix = 16
            digits = (digits.lowerBound + 1)..<digits.upperBound
        }
        var value: UInt32 = 0
        for i in digits {
            let b = bytes[i]
            let digit: UInt32
            switch b {
            case 0x30...0x39: digit = UInt32(b - 0x30)
            case 0x41...0x46 where radix == 16: digit = UInt32(b - 0x41 + 10)
            case 0x61...0x66 where radix == 16: digit = UInt32(b - 0x61 + 10)
            default: throw error("malformed character reference '\(entity)'", at: start)
            }
            // At most 8 hex or 10 decimal digits fit the 12-byte window; stop growth past U+10FFFF.
            value = min(value &* radix &+ digit, 0x110000)
        }
        let valid =
            !digits.isEmpty
            && (value == 0x09 || value == 0x0A || value == 0x0D || (0x20...0xD7FF).contains(value)
                || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value))
        guard valid else {
            throw error("character reference '\(entity)' is not a valid XML character", at: start)
        }
        ByteText.appendUTF8(value, to: &scratch)
        pos = end + 1
    }

    // MARK: Markup

    func find(_ literal: StaticString, from start: Int) -> Int? {
        let first = literal.utf8Start[0]
        var i = start
        while i < bytes.count {
            if bytes[i] == first, ByteText.matches(bytes, at: i, literal) { return i }
            i += 1
        }
        return nil
    }

    @inline(__always)
    static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        ByteText.isWordByte(byte) || byte == UInt8(ascii: ":") || byte >= 0x80
            || (!first && (byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")))
    }

    mutating func skipComment() throws(Diagnostic) {
        guard let end = find("-->", from: pos + 4) else {
            throw error("unterminated comment, expected '-->'", at: pos)
        }
        pos = end + 3
    }

    mutating func skipSpaceAndComments() throws(Diagnostic) {
        while true {
            cursor.skipWhitespace()
            if ByteText.matches(bytes, at: pos, "<!--") {
                try skipComment()
            } else {
                return
            }
        }
    }

    /// Whitespace, comments, processing instructions and the document type declaration.
    mutating func skipMisc() throws(Diagnostic) {
        while true {
            try skipSpaceAndComments()
            if ByteText.matches(bytes, at: pos, "<?") {
                guard let end = find("?>", from: pos + 2) else {
                    throw error("unterminated processing instruction, expected '?>'", at: pos)
                }
                pos = end + 2
            } else if ByteText.matches(bytes, at: pos, "<!DOCTYPE") {
                try skipDoctype()
            } else {
                return
            }
        }
    }

    /// Skips `<!DOCTYPE …>`, including quoted identifiers and an internal subset in brackets.
    mutating func skipDoctype() throws(Diagnostic) {
        let start = pos
        var i = pos + 9
        var brackets = 0
        var quote: UInt8? = nil
        while i < bytes.count {
            let b = bytes[i]
            if let q = quote {
                if b == q { quote = nil }
            } else if b == 0x22 || b == 0x27 {
                quote = b
            } else if b == UInt8(ascii: "[") {
                brackets += 1
            } else if b == UInt8(ascii: "]") {
                brackets -= 1
            } else if b == UInt8(ascii: ">"), brackets <= 0 {
                pos = i + 1
                return
            }
            i += 1
        }
        throw error("unterminated <!DOCTYPE>, expected '>'", at: start)
    }

    /// Reads `<name attr="…" …>` or `<name …/>` at `pos`.
    mutating func parseStartTag() throws(Diagnostic) -> Tag {
        let start = pos
        pos += 1
        let nameStart = pos
        guard pos < bytes.count, Self.isNameByte(bytes[pos], first: true) else {
            throw error("expected an element name after '<', found \(found(pos))", at: pos)
        }
        while pos < bytes.count, Self.isNameByte(bytes[pos], first: false) { pos += 1 }
        let nameRange = nameStart..<pos
        while true {
            let beforeSpace = pos
            cursor.skipWhitespace()
            guard pos < bytes.count else {
                throw error("unexpected end of file inside <\(name(nameRange))> tag", at: pos)
            }
            if bytes[pos] == UInt8(ascii: ">") {
                pos += 1
                return Tag(start: start, name: nameRange, selfClosing: false)
            }
            if ByteText.matches(bytes, at: pos, "/>") {
                pos += 2
                return Tag(start: start, name: nameRange, selfClosing: true)
            }
            guard pos > beforeSpace, Self.isNameByte(bytes[pos], first: true) else {
                throw error(
                    "expected '>', '/>' or an attribute in <\(name(nameRange))> tag, found \(found(pos))", at: pos)
            }
            let attributeStart = pos
            while pos < bytes.count, Self.isNameByte(bytes[pos], first: false) { pos += 1 }
            let attribute = name(attributeStart..<pos)
            cursor.skipWhitespace()
            guard pos < bytes.count, bytes[pos] == UInt8(ascii: "=") else {
                throw error("expected '=' after attribute '\(attribute)', found \(found(pos))", at: pos)
            }
            pos += 1
            cursor.skipWhitespace()
            guard pos < bytes.count, bytes[pos] == 0x22 || bytes[pos] == 0x27 else {
                throw error("expected a quoted value for attribute '\(attribute)', found \(found(pos))", at: pos)
            }
            let quote = bytes[pos]
            let valueStart = pos
            pos += 1
            while pos < bytes.count, bytes[pos] != quote {
                if bytes[pos] == UInt8(ascii: "<") {
                    throw error("'<' is not allowed in the value of attribute '\(attribute)'", at: pos)
                }
                pos += 1
            }
            guard pos < bytes.count else {
                throw error("unterminated value of attribute '\(attribute)'", at: valueStart)
            }
            pos += 1
        }
    }

    /// Reads `</name>` at `pos`; returns the name.
    mutating func parseClosingTag() throws(Diagnostic) -> Range<Int> {
        pos += 2
        let nameStart = pos
        while pos < bytes.count, Self.isNameByte(bytes[pos], first: pos == nameStart) { pos += 1 }
        let nameRange = nameStart..<pos
        guard !nameRange.isEmpty else {
            throw error("expected an element name after '</', found \(found(pos))", at: pos)
        }
        cursor.skipWhitespace()
        guard pos < bytes.count, bytes[pos] == UInt8(ascii: ">") else {
            throw error("expected '>' to end </\(name(nameRange))>, found \(found(pos))", at: pos)
        }
        pos += 1
        return nameRange
    }
}
