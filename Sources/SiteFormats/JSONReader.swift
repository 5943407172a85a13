import Foundation
import SiteCore

/// Reads JSON (RFC 8259, strict) into `Value`.
///
/// Integers that fit in 64 bits become `.int`, every other number `.double`. A UTF-8 byte order
/// mark at the start is skipped. Error positions are 1-based; columns count Unicode scalars
/// (characters), not bytes, and start after the byte order mark.
public enum JSONReader {
    /// Parses a JSON document (RFC 8259, strict). `file` is the path used in diagnostics.
    public static func read(_ data: Data, file: String) throws(Diagnostic) -> Value {
        try withBytes(data) { bytes throws(Diagnostic) in
            var parser = JSONParser(bytes: bytes, file: file, target: nil)
            return try parser.parseDocument()
        }
    }

    /// 1-based line and column of the value at `path` (for error messages about a value that parsed fine
    /// but has the wrong type etc.). Re-parses; nil if the path does not exist or the data is invalid.
    public static func location(of path: [PathComponent], in data: Data) -> (line: Int, column: Int)? {
        withBytes(data) { bytes in
            var parser = JSONParser(bytes: bytes, file: "", target: path)
            guard (try? parser.parseDocument()) != nil else { return nil }
            return parser.cursor.foundLocation
        }
    }
}

extension JSONReader {
    /// As `read`, also giving the 1-based line and column of each element of the array at `path`
    /// (a dataset's items, for messages about any of them), found in the same parse; the
    /// locations are nil if there is no array there.
    public static func read(_ data: Data, file: String, locatingElementsOf path: [PathComponent]) throws(Diagnostic)
        -> (value: Value, elements: [(line: Int, column: Int)]?)
    {
        try withBytes(data) { bytes throws(Diagnostic) in
            var parser = JSONParser(bytes: bytes, file: file, target: path, collectsElements: true)
            let value = try parser.parseDocument()
            guard case .array? = value.value(at: path) else { return (value, nil) }
            return (value, parser.cursor.elementLocations)
        }
    }

    /// The element locations of `read(_:file:locatingElementsOf:)` alone; nil if the data is invalid.
    public static func elementLocations(of path: [PathComponent], in data: Data) -> [(line: Int, column: Int)]? {
        (try? read(data, file: "", locatingElementsOf: path))?.elements
    }
}

/// An iterative (explicit-stack) recursive-descent JSON parser over raw bytes.
struct JSONParser: CursorReader {
    var cursor: ByteCursor
    /// Reused buffer for strings with escapes.
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, file: String, target: [PathComponent]?, collectsElements: Bool = false) {
        cursor = ByteCursor(bytes: bytes, file: file, target: target, collectsElements: collectsElements)
    }

    @inline(__always)
    func byte(at i: Int) -> UInt8? { i < bytes.count ? bytes[i] : nil }

    mutating func parseDocument() throws(Diagnostic) -> Value {
        let value = try parseValue()
        cursor.skipWhitespace()
        if pos < bytes.count {
            throw error("expected end of file after the JSON value, found \(found(pos))", at: pos)
        }
        return value
    }

    mutating func parseValue() throws(Diagnostic) -> Value {
        var afterComma = false
        expectValue: while true {
            // Only the value right after an array's ',' can be a trailing-comma mistake.
            let afterArrayComma = afterComma
            afterComma = false
            cursor.skipWhitespace()
            cursor.open.valueStarts(at: pos)
            guard pos < bytes.count else {
                throw error("expected a JSON value, found end of file", at: pos)
            }
            var value: Value
            switch bytes[pos] {
            case UInt8(ascii: "{"):
                try push(isObject: true)
                pos += 1
                cursor.skipWhitespace()
                if byte(at: pos) == UInt8(ascii: "}") {
                    pos += 1
                    value = .dictionary(cursor.open.frames.removeLast().dictionary)
                } else {
                    try beginMember(first: true)
                    continue expectValue
                }
            case UInt8(ascii: "["):
                try push(isObject: false)
                pos += 1
                cursor.skipWhitespace()
                if byte(at: pos) == UInt8(ascii: "]") {
                    pos += 1
                    value = .array(cursor.open.frames.removeLast().array)
                } else {
                    cursor.open.locateChild(.index(0))
                    continue expectValue
                }
            case UInt8(ascii: "\""):
                value = .string(try parseString())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = try parseNumber()
            case UInt8(ascii: "t") where ByteText.matches(bytes, at: pos, "true"):
                pos += 4
                value = .bool(true)
            case UInt8(ascii: "f") where ByteText.matches(bytes, at: pos, "false"):
                pos += 5
                value = .bool(false)
            case UInt8(ascii: "n") where ByteText.matches(bytes, at: pos, "null"):
                pos += 4
                value = .null
            case UInt8(ascii: "]") where afterArrayComma:
                throw error("expected a JSON value after ',' in array, found ']'", at: pos)
            default:
                throw error("expected a JSON value, found \(found(pos))", at: pos)
            }

            // Hand the finished value to its container, closing every container that ends here.
            while let top = cursor.open.frames.indices.last {
                if cursor.open.frames[top].isDictionary {
                    let key = cursor.open.frames[top].key
                    cursor.open.frames[top].dictionary[key] = value
                    cursor.skipWhitespace()
                    switch byte(at: pos) {
                    case UInt8(ascii: ","):
                        pos += 1
                        cursor.skipWhitespace()
                        try beginMember(first: false)
                        continue expectValue
                    case UInt8(ascii: "}"):
                        pos += 1
                        value = .dictionary(cursor.open.frames.removeLast().dictionary)
                    default:
                        throw error("expected ',' or '}' after object member, found \(found(pos))", at: pos)
                    }
                } else {
                    cursor.open.frames[top].array.append(value)
                    cursor.skipWhitespace()
                    switch byte(at: pos) {
                    case UInt8(ascii: ","):
                        pos += 1
                        cursor.open.locateChild(.index(cursor.open.frames[top].array.count))
                        afterComma = true
                        continue expectValue
                    case UInt8(ascii: "]"):
                        pos += 1
                        value = .array(cursor.open.frames.removeLast().array)
                    default:
                        throw error("expected ',' or ']' after array element, found \(found(pos))", at: pos)
                    }
                }
            }
            return value
        }
    }

    mutating func push(isObject: Bool) throws(Diagnostic) {
        guard cursor.open.push(isDictionary: isObject) else {
            throw error("arrays and objects are nested more than \(maximumNestingDepth) deep", at: pos)
        }
    }

    /// Parses `"key" :` of the next member of the innermost object (at `pos`, whitespace skipped).
    mutating func beginMember(first: Bool) throws(Diagnostic) {
        guard byte(at: pos) == UInt8(ascii: "\"") else {
            let expected = first ? "a string key or '}' in object" : "a string key after ',' in object"
            throw error("expected \(expected), found \(found(pos))", at: pos)
        }
        let keyOffset = pos
        let key = try parseString()
        let top = cursor.open.frames.count - 1
        if cursor.open.frames[top].dictionary[key] != nil {
            throw error("duplicate key \"\(key)\" in object", at: keyOffset)
        }
        cursor.skipWhitespace()
        guard byte(at: pos) == UInt8(ascii: ":") else {
            throw error("expected ':' after object key \"\(key)\", found \(found(pos))", at: pos)
        }
        pos += 1
        cursor.open.frames[top].key = key
        cursor.open.locateChild(.key(key))
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    mutating func parseNumber() throws(Diagnostic) -> Value {
        let start = pos
        let negative = bytes[pos] == UInt8(ascii: "-")
        if negative { pos += 1 }
        guard let first = byte(at: pos), Self.isDigit(first) else {
            throw error("expected a digit after '-', found \(found(pos))", at: pos)
        }
        if first == UInt8(ascii: "0") {
            pos += 1
            if let next = byte(at: pos), Self.isDigit(next) {
                throw error("leading zeros are not allowed in numbers", at: pos - 1)
            }
        } else {
            while let b = byte(at: pos), Self.isDigit(b) { pos += 1 }
        }
        let integerEnd = pos
        var isInteger = true
        if byte(at: pos) == UInt8(ascii: ".") {
            pos += 1
            guard let b = byte(at: pos), Self.isDigit(b) else {
                throw error("expected a digit after '.' in number, found \(found(pos))", at: pos)
            }
            while let b = byte(at: pos), Self.isDigit(b) { pos += 1 }
            isInteger = false
        }
        if let e = byte(at: pos), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            pos += 1
            if let sign = byte(at: pos), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { pos += 1 }
            guard let b = byte(at: pos), Self.isDigit(b) else {
                throw error("expected a digit in the exponent of the number, found \(found(pos))", at: pos)
            }
            while let b = byte(at: pos), Self.isDigit(b) { pos += 1 }
            isInteger = false
        }
        if isInteger {
            // Accumulate negatively so that Int64.min is representable.
            var value: Int64 = 0
            var overflow = false
            var i = negative ? start + 1 : start
            while i < integerEnd {
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.subtractingReportingOverflow(Int64(bytes[i] &- 0x30))
                if o1 || o2 {
                    overflow = true
                    break
                }
                value = next
                i += 1
            }
            if !overflow {
                if negative { return .int(value) }
                if value != .min { return .int(-value) }
            }
        }
        let text = ByteText.string(bytes, start..<pos)
        guard let double = Double(text), double.isFinite else {
            throw error("number \(text) is out of range for a 64-bit floating-point number", at: start)
        }
        return .double(double)
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x41...0x46: UInt32(byte - 0x41 + 10)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }

    /// The four hex digits of a `\u` escape whose backslash is at `escape`.
    func unicodeEscape(at escape: Int) throws(Diagnostic) -> UInt32 {
        var value: UInt32 = 0
        for k in 0..<4 {
            let i = escape + 2 + k
            guard let b = byte(at: i), let digit = Self.hexValue(b) else {
                throw error("expected 4 hex digits after '\\u' in string, found \(found(i))", at: i)
            }
            value = value << 4 | digit
        }
        return value
    }

    static func escapeName(_ unit: UInt32) -> String {
        var hex = String(unit, radix: 16, uppercase: true)
        while hex.count < 4 { hex = "0" + hex }
        return "\\u" + hex
    }

    /// Parses the string whose opening quote is at `pos`; leaves `pos` after the closing quote.
    mutating func parseString() throws(Diagnostic) -> String {
        let start = pos + 1
        var i = start
        var runStart = start
        var escaped = false
        let n = bytes.count
        while true {
            guard i < n else {
                throw error("expected '\"' to end the string, found end of file", at: i)
            }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { break }
            if b == UInt8(ascii: "\\") {
                if !escaped {
                    scratch.removeAll(keepingCapacity: true)
                    escaped = true
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                i = try appendEscape(at: i)
                runStart = i
            } else if b == 0x0A || b == 0x0D {
                // Almost always a string whose closing quote is missing.
                let (line, column) = cursor.lineColumn(of: pos)
                throw error(
                    "line break in the string that starts at \(line):\(column) (a missing '\"'? a line break "
                        + "inside a string is written \\n)",
                    at: i)
            } else if b < 0x20 {
                throw error("unescaped control character \(ByteText.scalarName(UInt32(b))) in string", at: i)
            } else if b < 0x80 {
                i += 1
            } else if let length = ByteText.utf8SequenceLength(bytes, at: i) {
                i += length
            } else {
                throw error("invalid UTF-8 byte \(ByteText.hexByte(b)) in string", at: i)
            }
        }
        pos = i + 1
        if !escaped { return ByteText.string(bytes, start..<i) }
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Decodes the escape whose backslash is at `i` into `scratch`; returns the offset after it.
    mutating func appendEscape(at i: Int) throws(Diagnostic) -> Int {
        guard let c = byte(at: i + 1) else {
            throw error("expected '\"' to end the string, found end of file", at: i + 1)
        }
        let simple: UInt8
        switch c {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            let unit = try unicodeEscape(at: i)
            switch unit {
            case 0xD800...0xDBFF:
                guard ByteText.matches(bytes, at: i + 6, "\\u") else {
                    throw error(
                        "lone surrogate \(Self.escapeName(unit)) in string, expected a low surrogate "
                            + "\\uDC00-\\uDFFF after it",
                        at: i)
                }
                let low = try unicodeEscape(at: i + 6)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error(
                        "lone surrogate \(Self.escapeName(unit)) in string, expected a low surrogate "
                            + "\\uDC00-\\uDFFF after it",
                        at: i)
                }
                ByteText.appendUTF8(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), to: &scratch)
                return i + 12
            case 0xDC00...0xDFFF:
                throw error(
                    "lone surrogate \(Self.escapeName(unit)) in string, a low surrogate must follow a high one", at: i)
            default:
                ByteText.appendUTF8(unit, to: &scratch)
                return i + 6
            }
        default:
            let what = c >= 0x20 && c < 0x7F ? "'\\\(Character(UnicodeScalar(c)))'" : "'\\' followed by \(found(i + 1))"
            throw error("invalid escape \(what) in string", at: i)
        }
        scratch.append(simple)
        return i + 2
    }
}
