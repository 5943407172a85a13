import CHighlightLoader
import SiteMarkdown

/// A highlighted block's HTML: `<pre class="code" tabindex="0"><code class="language-swift">` with a
/// `<span class="kw">` per token (classes, never inline styles: the theme is a stylesheet), the
/// text escaped; with line numbers or marked lines each line is a `<span class="line">` (`line
/// hl` when marked) and the `pre` is `code numbered` for numbers drawn by CSS, so copying the code
/// never copies them.
enum CodeHTML {
    /// pandoc's short class for each of KSyntaxHighlighting's default styles (`Theme::TextStyle`,
    /// by number); normal text gets no span, and errors none of their own (see highlight.cpp).
    static let classes: [String?] = [
        nil, "kw", "fu", "va", "cf", "op", "bu", "ex", "pp", "at", "ch", "sc", "st", "vs", "ss", "im",
        "dt", "dv", "bn", "fl", "cn", "co", "do", "an", "cv", "re", "in", "wa", "al", nil, "ot",
    ]

    /// `<span class="kw">` and the others, by style.
    static let openTags: [[UInt8]?] = classes.map { $0.map { Array("<span class=\"\($0)\">".utf8) } }

    /// The block's HTML from its code, its tokens (UTF-16 offsets into `code`, sorted, apart) and
    /// its attributes. A character split between tokens (the two halves of an emoji's surrogate
    /// pair) goes with the token of its first half.
    static func make(code: String, language: String, spans: UnsafeBufferPointer<SGHSpan>,
                     attributes: FenceAttributes) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(code.utf8.count * 5 / 4 + spans.count * 24 + 64)
        // tabindex: a block that scrolls sideways must be reachable by keyboard (axe: scrollable-region-focusable).
        out.append(contentsOf: "<pre class=\"code\(attributes.lineNumbers ? " numbered" : "")\" tabindex=\"0\">".utf8)
        out.append(contentsOf: "<code class=\"language-".utf8)
        escape(language.utf8, into: &out)
        out.append(contentsOf: "\">".utf8)
        var writer = Writer(spans: spans, attributes: attributes)
        var text = code
        text.withUTF8 { bytes in writer.write(bytes, into: &out) }
        out.append(contentsOf: "</code></pre>".utf8)
        return String(decoding: out, as: UTF8.self)
    }

    /// Walks the code's bytes once, opening and closing token and line spans.
    private struct Writer {
        let spans: UnsafeBufferPointer<SGHSpan>
        let marked: [ClosedRange<Int>]
        let wrapsLines: Bool
        var next = 0            // the first span not yet closed
        var inToken = false
        var line = 0            // the current line (from 1), 0 before the first
        var inLine = false
        var markedIndex = 0     // the first marked range not wholly before `line`

        init(spans: UnsafeBufferPointer<SGHSpan>, attributes: FenceAttributes) {
            self.spans = spans
            marked = attributes.marked
            wrapsLines = !attributes.isEmpty
        }

        mutating func write(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
            var utf16 = 0
            for byte in bytes {
                let startsCharacter = byte & 0xC0 != 0x80
                if wrapsLines, !inLine { openLine(into: &out) }
                if startsCharacter { tokens(at: utf16, into: &out) }
                switch byte {
                case UInt8(ascii: "\n"):
                    closeToken(into: &out)
                    out.append(byte)
                    if inLine { out.append(contentsOf: "</span>".utf8); inLine = false }
                case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
                default: out.append(byte)
                }
                if startsCharacter { utf16 += byte >= 0xF0 ? 2 : 1 }
            }
            closeToken(into: &out)
            if inLine { out.append(contentsOf: "</span>".utf8) }
        }

        /// Closes the token that ends at or before `offset` and opens the one that covers it.
        private mutating func tokens(at offset: Int, into out: inout [UInt8]) {
            while next < spans.count, Int(spans[next].start) + Int(spans[next].length) <= offset {
                if inToken { out.append(contentsOf: "</span>".utf8); inToken = false }
                next += 1
            }
            guard !inToken, next < spans.count, Int(spans[next].start) <= offset else { return }
            let style = Int(spans[next].style)
            guard style < CodeHTML.openTags.count, let tag = CodeHTML.openTags[style] else { return }
            out.append(contentsOf: tag)
            inToken = true
        }

        private mutating func closeToken(into out: inout [UInt8]) {
            if inToken { out.append(contentsOf: "</span>".utf8); inToken = false }
        }

        private mutating func openLine(into out: inout [UInt8]) {
            line += 1
            while markedIndex < marked.count, marked[markedIndex].upperBound < line { markedIndex += 1 }
            let isMarked = markedIndex < marked.count && marked[markedIndex].contains(line)
            out.append(contentsOf: (isMarked ? "<span class=\"line hl\">" : "<span class=\"line\">").utf8)
            inLine = true
        }
    }

    /// `&`, `<`, `>` and `"` as character references (as cmark and `PlainCodeBlocks` escape).
    static func escape(_ text: String.UTF8View, into out: inout [UInt8]) {
        for byte in text {
            switch byte {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
            default: out.append(byte)
            }
        }
    }
}
