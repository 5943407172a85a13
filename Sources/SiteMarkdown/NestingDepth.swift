/// How deep the elements of cmark-gfm's output nest, measured before the HTML pass parses it.
///
/// gumbo's tree construction looks through the stack of open elements for most tags, so its time
/// grows with the square of the nesting: 32,000 nested `<div>`s (190 KB) take 8 s, a megabyte
/// minutes. Browsers stop nesting at 512 (Blink's parser); a note nested deeper is refused.
///
/// The measure follows the parser closely enough that the depth it bounds cannot be made much
/// larger: a start tag opens an element unless it is void, closes itself in SVG or MathML, or is
/// one the parser closes when the next of its kind starts (`p`, `li`, table parts…: their nesting
/// needs another element between, which counts); an end tag closes only the innermost element,
/// and only when it names it (a misnested or stray end tag closes nothing here, although the
/// parser may close something). Comments and the text of `script`, `style`, `textarea`… open
/// nothing.
enum NestingDepth {
    static let limit = 512

    private struct Open {
        var name: String
        /// Its children are SVG or MathML (where `<x/>` closes itself).
        var foreignChildren: Bool
    }

    /// Whether some element of `html` is nested more than `limit` deep.
    static func exceeds(_ html: String, limit: Int = limit) -> Bool {
        var open: [Open] = []
        let bytes = Array(html.utf8)
        var i = 0
        while let lt = bytes[i...].firstIndex(of: UInt8(ascii: "<")) {
            if bytes[lt...].starts(with: "<!--".utf8) {
                i = find("-->", in: bytes, from: lt + 4).map { $0 + 3 } ?? bytes.count
                continue
            }
            let closing = lt + 1 < bytes.count && bytes[lt + 1] == UInt8(ascii: "/")
            let start = lt + (closing ? 2 : 1)
            guard start < bytes.count, isLetter(bytes[start]) else { i = lt + 1; continue }
            let nameEnd = bytes[start...].firstIndex(where: isNameEnd) ?? bytes.count
            let name = String(decoding: bytes[start..<nameEnd], as: UTF8.self).lowercased()
            let gt = bytes[nameEnd...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.count
            i = gt
            if closing {
                if open.last?.name == name { open.removeLast() }
                continue
            }
            let inForeign = open.last?.foreignChildren ?? false
            if inForeign, breakOut.contains(name) {
                while open.last?.foreignChildren == true { open.removeLast() }
            }
            let foreign = name == "svg" || name == "math" || (open.last?.foreignChildren ?? false)
            let selfClosed = gt > nameEnd && bytes[gt - 1] == UInt8(ascii: "/")
            if foreign ? selfClosed : (void.contains(name) || closedByNext.contains(name)) { continue }
            open.append(Open(name: name, foreignChildren: foreign && !integrationPoints.contains(name)))
            if open.count > limit { return true }
            if !foreign, rawText.contains(name) {  // its text up to the end tag is not markup
                if name == "plaintext" { return false }
                i = find("</" + name, in: bytes, from: gt, caseInsensitive: true) ?? bytes.count
            }
        }
        return false
    }

    private static func find(_ needle: String, in bytes: [UInt8], from: Int, caseInsensitive: Bool = false) -> Int? {
        let n = Array(needle.utf8)
        guard from <= bytes.count - n.count else { return nil }
        for k in from...(bytes.count - n.count) {
            var match = true
            for m in 0..<n.count where (caseInsensitive ? bytes[k + m] | 0x20 : bytes[k + m]) != n[m] {
                match = false
                break
            }
            if match { return k }
        }
        return nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func isNameEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
            || byte == 0x0C || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
    }

    static let void = HTMLRewriter.void
    /// Elements a start tag of their kind (or a sibling kind) closes: they do not nest by themselves.
    static let closedByNext: Set<String> = [
        "p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "tbody",
        "thead", "tfoot", "caption", "colgroup"
    ]
    /// Elements whose text is not markup (HTML's raw text, escapable raw text and plaintext).
    static let rawText: Set<String> = HTMLRewriter.rawText.union(["textarea", "title"])
    /// SVG and MathML elements whose children are HTML again.
    static let integrationPoints: Set<String> = [
        "foreignobject", "desc", "title", "annotation-xml", "mi", "mo", "mn",
        "ms", "mtext"
    ]
    /// HTML start tags that end SVG and MathML (HTML's "in foreign content": the parser pops the
    /// foreign elements and reads the tag as HTML).
    static let breakOut: Set<String> = [
        "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed", "h1", "h2",
        "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr", "ol", "p", "pre",
        "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var"
    ]  // and `font` with some attributes: left out, since leaving SVG too early would count too little
}
