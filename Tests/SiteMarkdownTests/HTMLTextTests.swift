import Testing
@testable import SiteMarkdown

/// `HTMLText.escape` works on UTF-8 bytes; this oracle works on Unicode scalars, with the HTML
/// standard's rules written out again (controls and noncharacters are U+FFFD when parsed).
@Suite struct HTMLTextTests {
    static func oracle(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\r": out += "&#xD;"
            case "\t", "\n", "\u{C}": out.unicodeScalars.append(c)
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}": out += "\u{FFFD}"  // controls, as the HTML parser reads them
            case _ where (0xFDD0...0xFDEF).contains(c.value) || c.value & 0xFFFE == 0xFFFE: out += "\u{FFFD}"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// Every scalar of the ranges where escaping decides something, alone and between others.
    @Test func everyScalarWhereEscapingDecides() {
        let ranges: [ClosedRange<UInt32>] = [
            0...0xFF, 0x7FF...0x801, 0xD7FF...0xD7FF, 0xE000...0xE001, 0xEFFF...0xF001,
            0xFDCF...0xFDF0, 0xFFF0...0xFFFF, 0x10000...0x10001, 0x1FFFD...0x1FFFF,
            0x10FFFD...0x10FFFF
        ]
        for range in ranges {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let text = "a" + String(scalar) + "한<\"b"
                #expect(HTMLText.escape(text) == Self.oracle(text), "U+\(String(value, radix: 16))")
                #expect(HTMLText.escape(String(scalar)) == Self.oracle(String(scalar)), "U+\(String(value, radix: 16))")
            }
        }
    }

    /// Random strings mixing ASCII, markup characters, controls, Hangul, emoji and noncharacters.
    @Test func randomStrings() {
        let pool: [Unicode.Scalar] = [
            0x61, 0x26, 0x3C, 0x3E, 0x22, 0x27, 0x0D, 0x0A, 0x09, 0x00, 0x1F, 0x7F, 0x80,
            0x9F, 0xA0, 0xE9, 0xD55C, 0xFDD0, 0xFFFE, 0xFFFD, 0x1F600, 0x1FFFE, 0x10FFFF,
            0xF000
        ]
        .compactMap(Unicode.Scalar.init)
        var state: UInt64 = 7
        for _ in 0..<2000 {
            var text = String.UnicodeScalarView()
            state = state &* 6364136223846793005 &+ 1442695040888963407
            for _ in 0..<Int(state >> 60) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                text.append(pool[Int(state >> 33) % pool.count])
            }
            let s = String(text)
            #expect(HTMLText.escape(s) == Self.oracle(s), "\(s.unicodeScalars.map { $0.value })")
            #expect(HTMLText.escape(s.dropFirst()) == Self.oracle(String(s.dropFirst())))
        }
    }

    @Test func collapsedHeadingText() {
        for (text, expected) in [
            ("a b", "a b"), ("a  b", "a b"), (" a", "a"), ("a ", "a"), ("a\nb", "a b"),
            ("a\tb", "a b"), ("", ""), ("  ", ""), ("한 글", "한 글")
        ] {
            #expect(MarkupWriter.collapsed(text) == expected, "\(text.debugDescription)")
        }
    }
}
