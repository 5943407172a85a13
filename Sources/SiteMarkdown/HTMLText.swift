/// Escaping for HTML the Markdown layer writes itself.
enum HTMLText {
    /// `& < > "` escaped: safe in element content and in double-quoted attribute values. Control
    /// characters (but tab and line breaks) are written as references: an HTML parser reading
    /// them raw replaces them (gumbo with U+FFFD), so the output would not parse back to itself.
    static func escape(_ text: some StringProtocol) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 < 0x20 || $0 == 0x7F }) else {
            return String(text)
        }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t", "\n", "\r": out.unicodeScalars.append(c)
            case "\u{0}"..."\u{1F}", "\u{7F}": out += "&#x\(String(c.value, radix: 16, uppercase: true));"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
