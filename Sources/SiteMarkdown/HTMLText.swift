/// Escaping for HTML the Markdown layer writes itself.
enum HTMLText {
    /// `& < > "` escaped: safe in element content and in double-quoted attribute values; a carriage
    /// return as a reference (the parser turns a raw one into a line feed). The
    /// characters an HTML parser reading them raw replaces by U+FFFD (gumbo: C0 controls but tab,
    /// line breaks and form feed; DEL and the C1 controls; the noncharacters) are written as that
    /// U+FFFD, so that the output parses back to itself: references would not do (`&#x89;` is
    /// `‰`, as in windows-1252), and a browser shows cmark-gfm's raw output the same way.
    static func escape(_ text: some StringProtocol) -> String {
        // 0xC2 leads the UTF-8 of U+0080–U+00BF, 0xEF that of U+F000–U+FFFF, 0xF0–0xF4 the planes
        // above (their noncharacters): those go the slow way.
        guard
            text.utf8.contains(where: {
                $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22
                    || $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 >= 0xEF
            })
        else {
            return String(text)
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 16)
        if text.utf8.withContiguousStorageIfAvailable({ escape($0, into: &out) }) == nil {
            Array(text.utf8).withUnsafeBufferPointer { escape($0, into: &out) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `escape` on UTF-8 (valid, as a `String`'s), written to `out`.
    /// Runs of bytes written as they are go in one copy each.
    static func escape(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var i = 0, copied = 0  // bytes[copied..<i]: written as they are, not yet copied
        while i < bytes.count {
            let byte = bytes[i]
            if isWrittenAsIs(byte) {
                i += 1
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<i]))
            defer { copied = i }
            switch byte {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
            case 0x0D: out.append(contentsOf: "&#xD;".utf8)  // raw, the parser would read it as a line feed
            case 0x00..<0x20, 0x7F: out.append(contentsOf: replacement)
            case 0xC2, 0xEF...:
                let length = byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                let end = min(i + length, bytes.count)
                var scalar = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                for k in (i + 1)..<end { scalar = scalar << 6 | UInt32(bytes[k] & 0x3F) }
                if let c = Unicode.Scalar(scalar), replacedByTheParser(c) {
                    out.append(contentsOf: replacement)
                } else {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<end]))
                }
                i = end
                continue
            default: out.append(byte)
            }
            i += 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))  // the last run
    }

    /// Neither markup, nor a control character other than tab, line feed and form feed, nor the
    /// lead byte of a scalar that may be one the parser replaces (see `escape(_:)`).
    @inline(__always) private static func isWrittenAsIs(_ byte: UInt8) -> Bool {
        guard byte >= 0x20 else { return byte == 0x0A || byte == 0x09 || byte == 0x0C }
        return byte != 0x26 && byte != 0x3C && byte != 0x3E && byte != 0x22 && byte != 0x7F && byte != 0xC2
            && byte < 0xEF
    }

    /// U+FFFD's UTF-8.
    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// Whether an HTML parser reading `scalar` raw makes it U+FFFD (gumbo: C0 controls but tab, line
    /// breaks and form feed; DEL and the C1 controls; the noncharacters).
    static func replacedByTheParser(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\t", "\n", "\u{C}", "\r": false
        case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}": true
        case _ where (0xFDD0...0xFDEF).contains(scalar.value) || scalar.value & 0xFFFE == 0xFFFE: true
        default: false
        }
    }

    /// `text` as the parser reads it (its characters `replacedByTheParser` made U+FFFD): the text
    /// of markup sitegen reads without parsing, as the parsing pass would see it.
    static func asParsed(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0xEF || $0 == 0xC2 || $0 < 0x20 || $0 == 0x7F }) else { return text }
        var out = String.UnicodeScalarView()
        for c in text.unicodeScalars { out.append(replacedByTheParser(c) ? "\u{FFFD}" : c) }
        return String(out)
    }
}
