/// The HTML pass for a note without raw HTML, written as `HTMLRewriter` writes it but without
/// parsing: cmark-gfm's output then holds only markup cmark-gfm wrote (every `<` of text is
/// `&lt;`, every attribute value double-quoted, elements closed where they were opened), so it
/// is read tag by tag. It exists for speed: gumbo's parse, its tree and the walk over it cost
/// most of a note's rendering (see BENCHMARKS.md).
///
/// Whatever the parser would not read as written gives up (nil), and the parsing pass runs: an
/// element the parser moves or closes (a link in a link, a block in a paragraph, a table part
/// out of its place), one the allowlist removes, a misnested end tag, a reference other than
/// cmark-gfm's own, a carriage return or NUL (which the parser turns into something else).
/// The two passes' output is compared byte for byte on the specs' examples and generated
/// documents (`KnownMarkupPassTests`). The nesting is measured on the way, as `NestingDepth`
/// measures it (elements that close when the next of their kind starts do not count).
enum KnownMarkupPass {
    static func rewrite(_ marked: MarkedHTML,
                        settings: HTMLRewriter.Settings) throws(MarkdownError) -> HTMLRewriter.Output? {
        let bytes = Array(marked.html.utf8)
        guard !bytes.contains(where: { $0 == 0x0D || $0 == 0 }), !bytes.starts(with: [0xEF, 0xBB, 0xBF]),
              let tokens = tokens(bytes) else { return nil }
        var writer = MarkupWriter(settings: settings, marked: marked)
        var headings: [String] = []
        if settings.decorateHeadings {
            guard let ids = Self.headings(tokens, bytes: bytes, marker: marked.marker, writer: &writer)
            else { return nil }
            headings = ids
        }
        var pass = Writing(writer: writer, bytes: bytes, headingIDs: headings)
        for token in tokens {
            guard pass.write(token) else { return nil }
            if pass.depth > NestingDepth.limit { throw .nestedTooDeep(limit: NestingDepth.limit) }
        }
        guard pass.open.isEmpty else { return nil }
        return pass.writer.out
    }

    // MARK: - Tokens

    struct Tag {
        var name: String
        var closing: Bool
        /// Names and decoded values, in order.
        var attributes: [(String, String)]
    }

    enum Token {
        case text(Range<Int>)
        case tag(Tag)
    }

    /// Text and tags in order; nil if a tag is not as cmark-gfm writes one.
    static func tokens(_ bytes: [UInt8]) -> [Token]? {
        var tokens: [Token] = []
        var i = 0
        while i < bytes.count {
            guard let lt = bytes[i...].firstIndex(of: UInt8(ascii: "<")) else {
                tokens.append(.text(i..<bytes.count))
                break
            }
            if lt > i { tokens.append(.text(i..<lt)) }
            guard let (tag, end) = tag(bytes, at: lt) else { return nil }
            tokens.append(.tag(tag))
            i = end
        }
        return tokens
    }

    /// The tag starting at `lt` and the offset after its `>`.
    static func tag(_ bytes: [UInt8], at lt: Int) -> (Tag, Int)? {
        var j = lt + 1
        let closing = j < bytes.count && bytes[j] == UInt8(ascii: "/")
        if closing { j += 1 }
        let nameStart = j
        while j < bytes.count, isNameByte(bytes[j]) { j += 1 }
        guard j > nameStart else { return nil }
        var tag = Tag(name: String(decoding: bytes[nameStart..<j], as: UTF8.self), closing: closing, attributes: [])
        while j < bytes.count {
            switch bytes[j] {
            case UInt8(ascii: " "): j += 1
            case UInt8(ascii: ">"): return closing && !tag.attributes.isEmpty ? nil : (tag, j + 1)
            case UInt8(ascii: "/"):
                guard j + 1 < bytes.count, bytes[j + 1] == UInt8(ascii: ">"), !closing else { return nil }
                return (tag, j + 2)  // `/>` closes nothing in HTML: void elements have no end anyway
            default:
                let start = j
                while j < bytes.count, isNameByte(bytes[j]) { j += 1 }
                guard j > start, j + 1 < bytes.count, bytes[j] == UInt8(ascii: "="), bytes[j + 1] == UInt8(ascii: "\""),
                      let quote = bytes[(j + 2)...].firstIndex(of: UInt8(ascii: "\"")),
                      let value = decoded(bytes[(j + 2)..<quote]) else { return nil }
                tag.attributes.append((String(decoding: bytes[start..<j], as: UTF8.self), value))
                j = quote + 1
            }
        }
        return nil
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
            || b == UInt8(ascii: "-")
    }

    /// The references cmark-gfm writes (`escape_html`, `escape_href`) and what they stand for.
    static let references: [(name: [UInt8], text: String)] = [
        ("amp;", "&"), ("lt;", "<"), ("gt;", ">"), ("quot;", "\""), ("#x27;", "'"), ("#39;", "'"),
    ].map { (Array($0.0.utf8), $0.1) }

    /// `bytes` with cmark-gfm's references decoded, as the parser reads them (`HTMLText.asParsed`);
    /// nil if another reference is there.
    static func decoded(_ bytes: ArraySlice<UInt8>) -> String? {
        references(bytes).map(HTMLText.asParsed)
    }

    private static func references(_ bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        var out = ""
        var i = bytes.startIndex
        while let amp = bytes[i...].firstIndex(of: UInt8(ascii: "&")) {
            out += String(decoding: bytes[i..<amp], as: UTF8.self)
            let reference = references.first { bytes[(amp + 1)...].starts(with: $0.name) }
            guard let reference else { return nil }
            out += reference.text
            i = amp + 1 + reference.name.count
        }
        return out + String(decoding: bytes[i...], as: UTF8.self)
    }

    /// Whether text written as cmark-gfm wrote it is what `HTMLText.escape` writes of its
    /// decoded value: no byte that escaping changes, and only the references it writes.
    static func isWrittenAsEscaped(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { b in
            var i = 0
            while i < b.count {
                if changedByEscaping[Int(b[i])] {
                    guard b[i] == UInt8(ascii: "&"),
                          let r = references.prefix(4).first(where: {
                              UnsafeBufferPointer(rebasing: b[(i + 1)...]).starts(with: $0.name)
                          })
                    else { return false }
                    i += r.name.count
                }
                i += 1
            }
            return true
        }
    }

    /// The bytes `HTMLText.escape` may write otherwise (and `&`, which starts a reference).
    static let changedByEscaping: [Bool] = (0..<256).map { b in
        (b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0C) || b == 0x7F || b == 0xC2 || b >= 0xEF
            || b == Int(UInt8(ascii: "\"")) || b == Int(UInt8(ascii: ">")) || b == Int(UInt8(ascii: "<"))
            || b == Int(UInt8(ascii: "&"))
    }

    // MARK: - Headings

    /// Every heading's id, in order, assigned before anything is written (a `#fragment` link may
    /// come before its heading); nil if a heading holds a heading.
    private static func headings(_ tokens: [Token], bytes: [UInt8], marker: String,
                                 writer: inout MarkupWriter) -> [String]? {
        var ids: [String] = []
        var heading: (level: Int, text: String)?
        var markers = 0
        for token in tokens {
            switch token {
            case .text(let range):
                guard heading != nil, markers == 0 else { continue }
                guard let text = decoded(bytes[range]) else { return nil }
                heading?.text += text
            case .tag(let tag):
                if tag.name == marker { markers += tag.closing ? -1 : 1; continue }
                guard let level = headingLevel(tag.name) else { continue }
                if !tag.closing {
                    guard heading == nil else { return nil }
                    heading = (level, "")
                } else if let h = heading {
                    let text = MarkupWriter.collapsed(h.text)
                    ids.append(writer.headingID(level: h.level, text: text, own: nil))
                    heading = nil
                }
            }
        }
        return ids
    }

    static func headingLevel(_ name: String) -> Int? {
        guard name.utf8.count == 2, name.utf8.first == UInt8(ascii: "h"), let n = Int(name.dropFirst()),
              (1...6).contains(n) else { return nil }
        return n
    }

    // MARK: - Writing

    private struct Writing {
        enum Open {
            /// An element, with what sitegen writes last in it (a heading's self-link).
            case element(String, last: String?)
            /// A marker, with what to write at its end.
            case marker(String?)
        }

        var writer: MarkupWriter
        let bytes: [UInt8]
        let headingIDs: [String]
        var nextHeading = 0
        var open: [Open] = []
        var openParagraphs = 0
        /// How many of the open elements nest (`NestingDepth`'s measure).
        var depth = 0

        init(writer: MarkupWriter, bytes: [UInt8], headingIDs: [String]) {
            self.writer = writer
            self.bytes = bytes
            self.headingIDs = headingIDs
        }

        var innermost: String? {
            guard case .element(let name, _)? = open.last else { return nil }
            return name
        }

        /// Writes `token`; false where the parsing pass must run instead.
        mutating func write(_ token: Token) -> Bool {
            switch token {
            case .text(let range): text(bytes[range])
            case .tag(let tag) where tag.closing: end(tag.name)
            case .tag(let tag) where tag.name == writer.marked.marker: marker(tag)
            case .tag(let tag): start(tag)
            }
        }

        private mutating func text(_ text: ArraySlice<UInt8>) -> Bool {
            if let table = innermost, ["table", "thead", "tbody", "tfoot", "tr"].contains(table),
               text.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 && $0 != 0x0C }) {
                return false  // the parser moves it before the table
            }
            if KnownMarkupPass.isWrittenAsEscaped(text) {
                writer.out.html += String(decoding: text, as: UTF8.self)
            } else {
                guard let decoded = KnownMarkupPass.decoded(text) else { return false }
                writer.out.html += HTMLText.escape(decoded)
            }
            return true
        }

        private mutating func marker(_ tag: Tag) -> Bool {
            guard let key = tag.attributes.first(where: { $0.0 == "data-k" })?.1,
                  !(openParagraphs > 0 && MarkupWriter.isBlockMarker(key)) else { return false }
            open.append(.marker(writer.marker(key)))
            depth += 1
            return true
        }

        private mutating func start(_ tag: Tag) -> Bool {
            let name = tag.name
            if !writer.settings.trusted, !HTMLAllowlist.elements.contains(name) { return false }
            guard !movedByTheParser(name) else { return false }
            if HTMLRewriter.void.contains(name) {
                if name == "img", let folder = writer.settings.folder,
                   let image = writer.localImage(tag.attributes, folder: folder) {
                    writer.out.html += image.token
                    writer.out.images.append(image)
                } else {
                    let kept = writer.kept(tag.attributes, element: name, html: true)
                    writer.startTag(name, headingID: nil, attributes: kept)
                }
                return true
            }
            let level = KnownMarkupPass.headingLevel(name)
            let id = level == nil || !writer.settings.decorateHeadings ? nil : headingIDs[nextHeading]
            if id == nil, tag.attributes.isEmpty {  // most tags: no temporary strings
                writer.out.html += "<"
                writer.out.html += name
                writer.out.html += ">"
            } else {
                writer.startTag(name, headingID: id, attributes: writer.kept(tag.attributes, element: name, html: true))
            }
            var last: String?
            if let id {
                last = writer.anchor(id: id, text: writer.out.headings[nextHeading].text)
                nextHeading += 1
            }
            if name == "a" { writer.openAnchors += 1 }
            if name == "p" { openParagraphs += 1 }
            open.append(.element(name, last: last))
            if !NestingDepth.closedByNext.contains(name) { depth += 1 }
            return true
        }

        /// Whether the parser would not nest the element where it is (`HTMLRewriter.unwrapped`'s
        /// cases, and the elements whose first newline it drops).
        private func movedByTheParser(_ name: String) -> Bool {
            if openParagraphs > 0, HTMLRewriter.paragraphClosers.contains(name) { return true }
            switch name {
            case "a": return writer.openAnchors > 0
            case "h1", "h2", "h3", "h4", "h5", "h6":
                return innermost.map { HTMLRewriter.headings.contains($0) } ?? false
            case "td", "th": return innermost != "tr"
            case "tr": return !["tbody", "thead", "tfoot"].contains(innermost ?? "")
            case "tbody", "thead", "tfoot", "caption", "colgroup": return innermost != "table"
            case "col", "pre", "textarea", "listing": return true
            default: return false
            }
        }

        private mutating func end(_ name: String) -> Bool {
            switch open.popLast() {
            case .marker(let close)? where name == writer.marked.marker:
                writer.out.html += close ?? ""
                depth -= 1
            case .element(let opened, let last)? where opened == name:
                if let last { writer.out.html += last }
                writer.out.html += "</"
                writer.out.html += name
                writer.out.html += ">"
                if name == "a" { writer.openAnchors -= 1 }
                if name == "p" { openParagraphs -= 1 }
                if !NestingDepth.closedByNext.contains(name) { depth -= 1 }
            default:
                return false
            }
            return true
        }
    }
}
