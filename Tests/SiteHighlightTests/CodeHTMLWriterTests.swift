import CHighlightLoader
import SiteMarkdown
import Testing
@testable import SiteHighlight

/// `CodeHTML.make` copies runs of bytes and jumps from one token boundary to the next; it must
/// give the bytes of the plain walk it replaced (`reference`: every byte looked at, every span
/// checked at every character) for any code, spans and attributes.
@Suite struct CodeHTMLWriterTests {
    @Test func theFastWriterGivesTheBytesOfThePlainWalk() {
        var random = SplitMix(seed: 33)
        for _ in 0..<3_000 {
            let code = randomCode(&random)
            let spans = randomSpans(&random, units: code.utf16.count)
            let attributes = randomAttributes(&random)
            let fast = spans.withUnsafeBufferPointer {
                CodeHTML.make(code: code, language: "x<\"&", spans: $0, attributes: attributes)
            }
            let slow = reference(code: code, language: "x<\"&", spans: spans, attributes: attributes)
            #expect(
                fast == slow,
                "code \(Array(code.unicodeScalars)), spans \(spans.map { ($0.start, $0.length, $0.style) })")
            if fast != slow { return }
        }
    }

    /// A block whose HTML is many times its size (every byte escaped, a token per character)
    /// grows the buffer past its first guess.
    @Test func escapingEverythingOutgrowsTheFirstGuess() {
        let code = String(repeating: "&\"<>", count: 5_000)
        let spans = (0..<UInt32(code.utf16.count)).map { SGHSpan(start: $0, length: 1, style: 1 + $0 % 28) }
        let attributes = FenceAttributes(lineNumbers: true, marked: [1...1])
        let fast = spans.withUnsafeBufferPointer {
            CodeHTML.make(code: code, language: "x", spans: $0, attributes: attributes)
        }
        #expect(fast == reference(code: code, language: "x", spans: spans, attributes: attributes))
        #expect(fast.utf8.count > 20_000 * 20)
    }

    /// The tag table and the stylesheet's class names are one list.
    @Test func eachOpenTagIsItsStylesClass() {
        for style in 0..<40 {
            let name = style < CodeHTML.classes.count ? CodeHTML.classes[style] : nil
            let expected = name.map { "<span class=\"\($0)\">" }
            #expect(CodeHTML.openTag(UInt32(style)).map { "\($0)" } == expected, "style \(style)")
        }
    }

    // MARK: the plain walk, and random blocks

    /// The HTML as the first writer made it: per byte, per character every span checked.
    func reference(code: String, language: String, spans: [SGHSpan], attributes: FenceAttributes) -> String {
        let escape: (UInt8) -> [UInt8] = { byte in
            switch byte {
            case UInt8(ascii: "&"): Array("&amp;".utf8)
            case UInt8(ascii: "<"): Array("&lt;".utf8)
            case UInt8(ascii: ">"): Array("&gt;".utf8)
            case UInt8(ascii: "\""): Array("&quot;".utf8)
            default: [byte]
            }
        }
        var out: [UInt8] = Array("<pre class=\"code\(attributes.lineNumbers ? " numbered" : "")\" tabindex=\"0\">".utf8)
        out += Array("<code class=\"language-".utf8) + language.utf8.flatMap(escape) + Array("\">".utf8)
        var next = 0, inToken = false, line = 0, inLine = false, utf16 = 0
        let wraps = !attributes.isEmpty
        for byte in code.utf8 {
            let starts = byte & 0xC0 != 0x80
            if wraps, !inLine {
                line += 1
                let marked = attributes.marked.contains { $0.contains(line) }
                out += Array((marked ? "<span class=\"line hl\">" : "<span class=\"line\">").utf8)
                inLine = true
            }
            if starts {
                while next < spans.count, Int(spans[next].start) + Int(spans[next].length) <= utf16 {
                    if inToken { out += Array("</span>".utf8); inToken = false }
                    next += 1
                }
                let style = next < spans.count ? Int(spans[next].style) : 0
                if !inToken, next < spans.count, Int(spans[next].start) <= utf16, style < CodeHTML.classes.count,
                    let name = CodeHTML.classes[style]
                {
                    out += Array("<span class=\"\(name)\">".utf8)
                    inToken = true
                }
            }
            if byte == UInt8(ascii: "\n") {
                if inToken { out += Array("</span>".utf8); inToken = false }
                out.append(byte)
                if inLine { out += Array("</span>".utf8); inLine = false }
            } else {
                out += escape(byte)
            }
            if starts { utf16 += byte >= 0xF0 ? 2 : 1 }
        }
        if inToken { out += Array("</span>".utf8) }
        if inLine { out += Array("</span>".utf8) }
        return String(decoding: out + Array("</code></pre>".utf8), as: UTF8.self)
    }

    /// Short code of ASCII, the escaped bytes, line breaks, and characters of two, three and four
    /// bytes (an emoji is two UTF-16 units).
    func randomCode(_ random: inout SplitMix) -> String {
        let pieces = ["a", "b", " ", "\n", "\r", "&", "<", ">", "\"", "é", "이", "😀", "\t", "'", "xyz", "\n\n"]
        return (0..<random.below(40)).map { _ in pieces[random.below(pieces.count)] }.joined()
    }

    /// Sorted spans apart from each other, some past a line break or splitting an emoji, some of
    /// styles without a class (0, 29) or outside the table.
    func randomSpans(_ random: inout SplitMix, units: Int) -> [SGHSpan] {
        var spans: [SGHSpan] = []
        var at = random.below(3)
        while at < units + 2, random.below(8) != 0 {
            let length = 1 + random.below(5)
            spans.append(SGHSpan(start: UInt32(at), length: UInt32(length), style: UInt32(random.below(33))))
            at += length + random.below(3)
        }
        return spans
    }

    func randomAttributes(_ random: inout SplitMix) -> FenceAttributes {
        switch random.below(3) {
        case 0: return FenceAttributes()
        case 1: return FenceAttributes(lineNumbers: true)
        default:
            let first = 1 + random.below(4)
            return FenceAttributes(lineNumbers: random.below(2) == 0, marked: [first...first + random.below(3), 9...12])
        }
    }
}

/// A small seeded generator: the same blocks on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func below(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
