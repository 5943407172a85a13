internal import Yams

/// Yams' default implicit typing of plain scalars (`Resolver.default`: bool, int, float, merge,
/// null, timestamp, value, else str), matched by hand.
///
/// Yams runs up to seven `NSRegularExpression`s per scalar, which dominated the cost of reading
/// front matter over tens of thousands of notes. These matchers accept exactly the strings its
/// patterns accept (the tests compare the two on many samples).
enum ImplicitTypes {
    static func tag(of string: String) -> Tag.Name {
        switch string {
        case "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
            "on", "On", "ON", "off", "Off", "OFF":
            return .bool
        case "<<": return .merge
        case "", "~", "null", "Null", "NULL": return .null
        case "=": return .value
        default: break
        }
        var text = string
        return text.withUTF8 { bytes in
            if isInt(bytes[...]) { return .int }
            if isFloat(bytes[...]) { return .float }
            if isTimestamp(bytes[...]) { return .timestamp }
            return .str
        }
    }

    private typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Drops one leading `+` or `-`.
    private static func unsigned(_ text: Bytes) -> Bytes {
        if let first = text.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { return text.dropFirst() }
        return text
    }

    /// `[-+]?0b[0-1_]+ | [-+]?0o?[0-7_]+ | [-+]?(?:0|[1-9][0-9_]*) | [-+]?0x[0-9a-fA-F_]+
    /// | [-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+`
    private static func isInt(_ text: Bytes) -> Bool {
        let text = unsigned(text)
        guard let first = text.first else { return false }
        let underscore = UInt8(ascii: "_")
        if first == UInt8(ascii: "0") {
            let rest = text.dropFirst()
            guard let marker = rest.first else { return true }  // "0"
            switch marker {
            case UInt8(ascii: "b"):
                let digits = rest.dropFirst()
                return !digits.isEmpty && digits.allSatisfy { $0 == 0x30 || $0 == 0x31 || $0 == underscore }
            case UInt8(ascii: "x"):
                let digits = rest.dropFirst()
                return !digits.isEmpty && digits.allSatisfy { isHexDigit($0) || $0 == underscore }
            default:
                let digits = marker == UInt8(ascii: "o") ? rest.dropFirst() : rest
                return !digits.isEmpty && digits.allSatisfy { ($0 >= 0x30 && $0 <= 0x37) || $0 == underscore }
            }
        }
        guard first >= 0x31 && first <= 0x39 else { return false }
        let afterLead = text.dropFirst().drop { isDigit($0) || $0 == underscore }
        if afterLead.isEmpty { return true }
        return isSexagesimalTail(afterLead) == afterLead.endIndex
    }

    /// Matches `(?::[0-5]?[0-9])+` at the start of `text`; returns where the match ends, or nil.
    private static func isSexagesimalTail(_ text: Bytes) -> Bytes.Index? {
        var i = text.startIndex
        var groups = 0
        while i < text.endIndex, text[i] == UInt8(ascii: ":") {
            let start = text.index(after: i)
            var end = start
            while end < text.endIndex, isDigit(text[end]) { end += 1 }
            switch end - start {
            case 1: break
            case 2 where text[start] <= UInt8(ascii: "5"): break
            default: return nil
            }
            groups += 1
            i = end
        }
        return groups > 0 ? i : nil
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)
    }

    /// `[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)? | \.[0-9_]+(?:[eE][-+][0-9]+)?
    /// | [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]* | [-+]?\.(?:inf|Inf|INF) | \.(?:nan|NaN|NAN)`
    private static func isFloat(_ text: Bytes) -> Bool {
        let underscore = UInt8(ascii: "_"), dot = UInt8(ascii: ".")
        func isDigitOrUnderscore(_ byte: UInt8) -> Bool { isDigit(byte) || byte == underscore }
        /// `[eE][-+]?[0-9]+` (sign required when `signRequired`) filling all of `text`.
        func isExponent(_ text: Bytes, signRequired: Bool) -> Bool {
            guard let e = text.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") else { return false }
            var digits = text.dropFirst()
            if let sign = digits.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                digits = digits.dropFirst()
            } else if signRequired {
                return false
            }
            return !digits.isEmpty && digits.allSatisfy(isDigit)
        }

        if text.first == dot {
            let rest = text.dropFirst()
            if rest.elementsEqual("nan".utf8) || rest.elementsEqual("NaN".utf8) || rest.elementsEqual("NAN".utf8)
                || rest.elementsEqual("inf".utf8) || rest.elementsEqual("Inf".utf8) || rest.elementsEqual("INF".utf8)
            {
                return true
            }
            let digits = rest.prefix(while: isDigitOrUnderscore)
            guard !digits.isEmpty else { return false }
            let tail = rest[digits.endIndex...]
            return tail.isEmpty || isExponent(tail, signRequired: true)
        }
        let u = unsigned(text)
        if u.first == dot {
            let rest = u.dropFirst()
            return rest.elementsEqual("inf".utf8) || rest.elementsEqual("Inf".utf8) || rest.elementsEqual("INF".utf8)
        }
        guard let first = u.first, isDigit(first) else { return false }
        var rest = u.dropFirst().drop(while: isDigitOrUnderscore)
        if rest.first == UInt8(ascii: ":") {
            guard let end = isSexagesimalTail(rest), end < rest.endIndex, rest[end] == dot else { return false }
            return rest[(end + 1)...].allSatisfy(isDigitOrUnderscore)
        }
        if rest.first == dot {
            rest = rest.dropFirst().drop(while: isDigitOrUnderscore)
        }
        return rest.isEmpty || isExponent(rest, signRequired: false)
    }

    /// `[0-9]{4}-[0-9]{2}-[0-9]{2}` or `[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}
    /// (?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?`
    private static func isTimestamp(_ text: Bytes) -> Bool {
        var i = text.startIndex
        /// Consumes `min...max` digits followed by something that is not a digit.
        func digits(_ min: Int, _ max: Int) -> Bool {
            let start = i
            while i < text.endIndex, isDigit(text[i]) { i += 1 }
            return (min...max).contains(i - start)
        }
        func byte(_ ascii: Unicode.Scalar) -> Bool {
            guard i < text.endIndex, text[i] == UInt8(ascii: ascii) else { return false }
            i += 1
            return true
        }
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

        guard digits(4, 4), byte("-") else { return false }
        let monthStart = i
        guard digits(1, 2) else { return false }
        let monthLength = i - monthStart
        guard byte("-") else { return false }
        let dayStart = i
        guard digits(1, 2) else { return false }
        if i == text.endIndex { return monthLength == 2 && i - dayStart == 2 }

        if !byte("T") && !byte("t") {
            let blanks = i
            while i < text.endIndex, isBlank(text[i]) { i += 1 }
            if i == blanks { return false }
        }
        guard digits(1, 2), byte(":"), digits(2, 2), byte(":"), digits(2, 2) else { return false }
        if byte(".") {
            while i < text.endIndex, isDigit(text[i]) { i += 1 }
        }
        if i == text.endIndex { return true }
        while i < text.endIndex, isBlank(text[i]) { i += 1 }
        if byte("Z") { return i == text.endIndex }
        guard byte("+") || byte("-"), digits(1, 2) else { return false }
        if i == text.endIndex { return true }
        guard byte(":"), digits(2, 2) else { return false }
        return i == text.endIndex
    }
}
