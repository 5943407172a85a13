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
        "dt", "dv", "bn", "fl", "cn", "co", "do", "an", "cv", "re", "in", "wa", "al", nil, "ot"
    ]

    /// The block's HTML from its code, its tokens (UTF-16 offsets into `code`, sorted, apart) and
    /// its attributes. A character split between tokens (the two halves of an emoji's surrogate
    /// pair) goes with the token of its first half.
    static func make(
        code: String, language: String, spans: UnsafeBufferPointer<SGHSpan>,
        attributes: FenceAttributes
    ) -> String {
        var text = code
        return text.withUTF8 { bytes in
            var out = HTMLBytes(capacity: bytes.count * 5 / 4 + spans.count * 24 + 64)
            // tabindex: a block that scrolls sideways must be reachable by keyboard (axe: scrollable-region-focusable).
            out.append(
                attributes.lineNumbers
                    ? "<pre class=\"code numbered\" tabindex=\"0\">"
                    : "<pre class=\"code\" tabindex=\"0\">")
            out.append("<code class=\"language-")
            for byte in language.utf8 { out.appendEscaped(byte) }
            out.append("\">")
            var writer = Writer(spans: spans, attributes: attributes)
            writer.write(bytes, into: &out)
            out.append("</code></pre>")
            return out.string()
        }
    }

    /// `<span class="kw">` and the others, by style; nil for a style without a class.
    static func openTag(_ style: UInt32) -> StaticString? {
        switch style {
        case 1: "<span class=\"kw\">"
        case 2: "<span class=\"fu\">"
        case 3: "<span class=\"va\">"
        case 4: "<span class=\"cf\">"
        case 5: "<span class=\"op\">"
        case 6: "<span class=\"bu\">"
        case 7: "<span class=\"ex\">"
        case 8: "<span class=\"pp\">"
        case 9: "<span class=\"at\">"
        case 10: "<span class=\"ch\">"
        case 11: "<span class=\"sc\">"
        case 12: "<span class=\"st\">"
        case 13: "<span class=\"vs\">"
        case 14: "<span class=\"ss\">"
        case 15: "<span class=\"im\">"
        case 16: "<span class=\"dt\">"
        case 17: "<span class=\"dv\">"
        case 18: "<span class=\"bn\">"
        case 19: "<span class=\"fl\">"
        case 20: "<span class=\"cn\">"
        case 21: "<span class=\"co\">"
        case 22: "<span class=\"do\">"
        case 23: "<span class=\"an\">"
        case 24: "<span class=\"cv\">"
        case 25: "<span class=\"re\">"
        case 26: "<span class=\"in\">"
        case 27: "<span class=\"wa\">"
        case 28: "<span class=\"al\">"
        case 30: "<span class=\"ot\">"
        default: nil
        }
    }

    /// Walks the code's bytes once, opening and closing token and line spans; the bytes between two
    /// such places that need no escaping are copied as one run.
    private struct Writer {
        let spans: UnsafeBufferPointer<SGHSpan>
        let marked: [ClosedRange<Int>]
        let wrapsLines: Bool
        var next = 0  // the first span not yet closed
        var inToken = false
        var line = 0  // the current line (from 1), 0 before the first
        var inLine = false
        var markedIndex = 0  // the first marked range not wholly before `line`
        var stop = 0  // the UTF-16 offset before which `tokens(at:)` has nothing to do

        init(spans: UnsafeBufferPointer<SGHSpan>, attributes: FenceAttributes) {
            self.spans = spans
            marked = attributes.marked
            wrapsLines = !attributes.isEmpty
        }

        /// Each turn starts at a character: it writes that character's first byte (a token or line
        /// may open or close before it), then the run of bytes after it that need nothing done.
        mutating func write(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout HTMLBytes) {
            var utf16 = 0
            var i = 0
            while i < bytes.count {
                let byte = bytes[i]
                if wrapsLines, !inLine { openLine(into: &out) }
                if utf16 >= stop { tokens(at: utf16, into: &out) }
                i += 1
                if byte == UInt8(ascii: "\n") {
                    closeToken(into: &out)
                    stop = 0  // a token the line break closed goes on in the next line
                    out.append(byte)
                    if inLine { out.append("</span>"); inLine = false }
                    utf16 += 1
                    continue
                }
                out.appendEscaped(byte)
                utf16 += byte >= 0xF0 ? 2 : 1
                // The run up to the next byte to escape, line break or token boundary.
                let run = i
                while i < bytes.count {
                    let byte = bytes[i]
                    if byte < 64, HTMLBytes.special & (1 << UInt64(byte)) != 0 { break }
                    if byte & 0xC0 != 0x80 {
                        if utf16 >= stop { break }
                        utf16 += byte < 0xF0 ? 1 : 2
                    }
                    i += 1
                }
                out.append(UnsafeBufferPointer(rebasing: bytes[run..<i]))
            }
            closeToken(into: &out)
            if inLine { out.append("</span>") }
        }

        /// Closes the token that ends at or before `offset` and opens the one that covers it.
        private mutating func tokens(at offset: Int, into out: inout HTMLBytes) {
            while next < spans.count, Int(spans[next].start) + Int(spans[next].length) <= offset {
                if inToken { out.append("</span>"); inToken = false }
                next += 1
            }
            defer { stop = nextStop(after: offset) }
            guard !inToken, next < spans.count, Int(spans[next].start) <= offset,
                let tag = CodeHTML.openTag(spans[next].style)
            else { return }
            out.append(tag)
            inToken = true
        }

        /// The first offset past `offset` where `tokens(at:)` may close or open a token: the end of
        /// the open token, else the start of the next (or its end, when it started and has no class).
        private func nextStop(after offset: Int) -> Int {
            guard next < spans.count else { return Int.max }
            let start = Int(spans[next].start), end = start + Int(spans[next].length)
            return inToken || start <= offset ? end : start
        }

        private mutating func closeToken(into out: inout HTMLBytes) {
            if inToken { out.append("</span>"); inToken = false }
        }

        private mutating func openLine(into out: inout HTMLBytes) {
            line += 1
            while markedIndex < marked.count, marked[markedIndex].upperBound < line { markedIndex += 1 }
            let isMarked = markedIndex < marked.count && marked[markedIndex].contains(line)
            out.append(isMarked ? "<span class=\"line hl\">" : "<span class=\"line\">")
            inLine = true
        }
    }
}

/// The bytes of a block's HTML as they are written: one buffer, grown by doubling, turned into a
/// String once (appending to `[UInt8]` a token at a time cost more than highlighting the block).
struct HTMLBytes: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    /// The bytes below 64 that are not copied as they are: the line break and those escaped
    /// (`"`, `&`, `<`, `>`), as bits.
    static let special: UInt64 = 1 << 0x0A | 1 << 0x22 | 1 << 0x26 | 1 << 0x3C | 1 << 0x3E

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Room for `extra` more bytes.
    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let grown = max(capacity * 2, count + extra)
        let new = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        new.update(from: base, count: count)
        base.deallocate()
        base = new
        capacity = grown
    }

    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: start, count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `byte`, or its character reference for `&`, `<`, `>` and `"` (as cmark and `PlainCodeBlocks` escape).
    mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "&"): append("&amp;")
        case UInt8(ascii: "<"): append("&lt;")
        case UInt8(ascii: ">"): append("&gt;")
        case UInt8(ascii: "\""): append("&quot;")
        default: append(byte)
        }
    }

    /// The bytes written, as a String (the code was UTF-8 and every tag is ASCII).
    consuming func string() -> String {
        String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }
}
