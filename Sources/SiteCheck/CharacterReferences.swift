/// Character references in attribute values (`&amp;`, `&#39;`, `&#x2F;`), decoded the way the
/// HTML standard does inside attributes: an `&` in a query string (`?a=1&b=2`, or a name the
/// table lacks) stays as written, so the URL checked is the one the browser follows.
enum CharacterReferences {
    /// The named references a URL or an id plausibly holds. Names outside this table stay as
    /// written, which at worst reports a link the browser would decode differently.
    static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
        "sol": "/", "colon": ":", "num": "#", "quest": "?", "equals": "=", "percnt": "%",
        "period": ".", "commat": "@", "lowbar": "_", "plus": "+", "comma": ",", "semi": ";",
        "excl": "!", "lpar": "(", "rpar": ")", "dollar": "$", "ast": "*", "Tab": "\t", "NewLine": "\n"
    ]

    /// Names a browser also decodes without the closing `;` (the standard's legacy names).
    static let legacy: Set<String> = ["amp", "lt", "gt", "quot", "nbsp"]

    /// Windows-1252 for the numeric references &#128; … &#159;, as the standard maps them.
    static let c1: [UInt32: UInt32] = [
        0x80: 0x20AC, 0x82: 0x201A, 0x83: 0x0192, 0x84: 0x201E, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021,
        0x88: 0x02C6, 0x89: 0x2030, 0x8A: 0x0160, 0x8B: 0x2039, 0x8C: 0x0152, 0x8E: 0x017D, 0x91: 0x2018,
        0x92: 0x2019, 0x93: 0x201C, 0x94: 0x201D, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02DC,
        0x99: 0x2122, 0x9A: 0x0161, 0x9B: 0x203A, 0x9C: 0x0153, 0x9E: 0x017E, 0x9F: 0x0178
    ]

    /// The text of an attribute value's bytes with its references decoded.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        guard let firstAmp = range.first(where: { bytes[$0] == UInt8(ascii: "&") }) else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        var out: [UInt8] = Array(bytes[range.lowerBound..<firstAmp])
        var i = firstAmp
        let end = range.upperBound
        while i < end {
            guard bytes[i] == UInt8(ascii: "&") else {
                out.append(bytes[i])
                i += 1
                continue
            }
            if let (text, next) = reference(bytes, at: i, end: end) {
                out += text.utf8
                i = next
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The reference starting at the `&` at `start`: its text and the index after it.
    private static func reference(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) -> (String, Int)? {
        var i = start + 1
        guard i < end else { return nil }
        if bytes[i] == UInt8(ascii: "#") {
            i += 1
            let hex = i < end && (bytes[i] | 0x20) == UInt8(ascii: "x")
            if hex { i += 1 }
            var value: UInt32 = 0
            let digitsStart = i
            while i < end, let d = digit(bytes[i], hex: hex) {
                value = min(value &* (hex ? 16 : 10) &+ d, 0x110000)  // saturates: out of range either way
                i += 1
            }
            guard i > digitsStart else { return nil }
            if i < end, bytes[i] == UInt8(ascii: ";") { i += 1 }
            let mapped = c1[value] ?? value
            let scalar = mapped == 0 ? nil : Unicode.Scalar(mapped)
            return (String(Character(scalar ?? "\u{FFFD}")), i)
        }
        while i < end, isAlphanumeric(bytes[i]) { i += 1 }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<i]), as: UTF8.self)
        guard let text = named[name] else { return nil }
        if i < end, bytes[i] == UInt8(ascii: ";") { return (text, i + 1) }
        // Without `;`, only legacy names, and not before `=` (`?a&lt=1` stays as written).
        guard legacy.contains(name), i == end || bytes[i] != UInt8(ascii: "=") else { return nil }
        return (text, i)
    }

    private static func digit(_ byte: UInt8, hex: Bool) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        HTMLScanner.isASCIILetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}
