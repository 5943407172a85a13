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
    typealias Token = KnownMarkupScan.Token

    static func rewrite(
        _ marked: MarkedHTML,
        settings: HTMLRewriter.Settings
    ) throws(MarkdownError) -> HTMLRewriter.Output? {
        let bytes = Array(marked.html.utf8)
        guard !bytes.contains(where: { $0 == 0x0D || $0 == 0 }), !bytes.starts(with: [0xEF, 0xBB, 0xBF])
        else { return nil }
        return try bytes.withUnsafeBufferPointer { buffer throws(MarkdownError) in
            let scan = KnownMarkupScan(bytes: buffer, marker: Array(marked.marker.utf8))
            guard let tokens = scan.tokens() else { return nil }
            var writer = MarkupWriter(settings: settings, marked: marked)
            var headings: [String] = []
            if settings.decorateHeadings {
                guard let ids = Self.headings(tokens, scan: scan, writer: &writer) else { return nil }
                headings = ids
            }
            var pass = Writing(writer: writer, scan: scan, headingIDs: headings)
            for token in tokens {
                guard pass.write(token) else { return nil }
                if pass.depth > NestingDepth.limit { throw .nestedTooDeep(limit: NestingDepth.limit) }
            }
            guard pass.open.isEmpty else { return nil }
            return pass.output()
        }
    }

    // MARK: - Headings

    /// Every heading's id, in order, assigned before anything is written (a `#fragment` link may
    /// come before its heading); nil if a heading holds a heading.
    private static func headings(_ tokens: [Token], scan: KnownMarkupScan, writer: inout MarkupWriter) -> [String]? {
        var ids: [String] = []
        var heading: (level: Int, text: String)?
        var markers = 0
        for token in tokens {
            switch token.kind {
            case .text:
                guard heading != nil, markers == 0 else { continue }
                guard let text = KnownMarkupScan.decoded(UnsafeBufferPointer(rebasing: scan.bytes[token.range]))
                else { return nil }
                heading?.text += text
            case .marker: markers += 1
            case .markerEnd: markers -= 1
            case .start:
                guard let level = token.element.info.headingLevel else { continue }
                guard heading == nil else { return nil }
                heading = (level, "")
            case .end:
                guard token.element.info.headingLevel != nil, let h = heading else { continue }
                let text = MarkupWriter.collapsed(h.text)
                ids.append(writer.headingID(level: h.level, text: text, own: nil))
                heading = nil
            }
        }
        return ids
    }

    // MARK: - Writing

    private struct Writing {
        /// An open element (nil: a marker), with what sitegen writes last in it (a heading's
        /// self-link, a marker's end) as an index in `lasts`.
        struct Open {
            var element: KnownElement?
            var last: Int?
        }

        var writer: MarkupWriter
        let scan: KnownMarkupScan
        let headingIDs: [String]
        var out: [UInt8] = []
        var nextHeading = 0
        var open: [Open] = []
        var lasts: [String] = []
        var openParagraphs = 0
        /// How many of the open elements nest (`NestingDepth`'s measure).
        var depth = 0
        /// How many of the writer's holes `take` has placed in `out` (the others count from the
        /// start of what the writer holds).
        var placedHoles = 0

        init(writer: MarkupWriter, scan: KnownMarkupScan, headingIDs: [String]) {
            self.writer = writer
            self.scan = scan
            self.headingIDs = headingIDs
            out.reserveCapacity(scan.bytes.count + scan.bytes.count / 8)
        }

        /// The innermost open element, nil if none or a marker.
        var innermost: KnownElement? { open.last?.element }

        mutating func output() -> HTMLRewriter.Output {
            take()
            writer.out.html = String(decoding: out, as: UTF8.self)
            return writer.out
        }

        /// Moves what the writer wrote into `out`, its holes' offsets with it.
        private mutating func take() {
            for i in placedHoles..<writer.out.holes.count { writer.out.holes[i].offset += out.count }
            placedHoles = writer.out.holes.count
            guard !writer.out.html.isEmpty else { return }
            out.append(contentsOf: writer.out.html.utf8)
            writer.out.html.removeAll(keepingCapacity: true)
        }

        private mutating func write(_ name: KnownElement, closing: Bool = false) {
            out.append(UInt8(ascii: "<"))
            if closing { out.append(UInt8(ascii: "/")) }
            out.append(contentsOf: name.info.utf8)
            out.append(UInt8(ascii: ">"))
        }

        /// Writes `token`; false where the parsing pass must run instead.
        mutating func write(_ token: Token) -> Bool {
            switch token.kind {
            case .text: text(UnsafeBufferPointer(rebasing: scan.bytes[token.range]))
            case .start: start(token)
            case .end: end(token.element)
            case .marker: marker(token)
            case .markerEnd: endMarker()
            }
        }

        private mutating func text(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
            if let table = innermost, table.info.holdsNoText,
                text.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 && $0 != 0x0C })
            {
                return false  // the parser moves it before the table
            }
            if KnownMarkupScan.isWrittenAsEscaped(text) {
                out.append(contentsOf: text)
            } else {
                guard let decoded = KnownMarkupScan.decoded(text) else { return false }
                out.append(contentsOf: HTMLText.escape(decoded).utf8)
            }
            return true
        }

        private mutating func marker(_ token: Token) -> Bool {
            guard let key = scan.attributes(of: token).first(where: { $0.0 == "data-k" })?.1,
                !(openParagraphs > 0 && MarkupWriter.isBlockMarker(key))
            else { return false }
            let last = writer.marker(key).map { keep($0) }
            take()
            open.append(Open(element: nil, last: last))
            depth += 1
            return true
        }

        private mutating func endMarker() -> Bool {
            guard let top = open.popLast(), top.element == nil else { return false }
            writeLast(of: top)
            depth -= 1
            return true
        }

        private mutating func writeLast(of element: Open) {
            if let last = element.last { out.append(contentsOf: lasts[last].utf8) }
        }

        private mutating func keep(_ last: String) -> Int {
            lasts.append(last)
            return lasts.count - 1
        }

        private mutating func start(_ token: Token) -> Bool {
            let element = token.element, info = element.info  // all in the allowlist
            guard !movedByTheParser(element) else { return false }
            if info.isVoid {
                void(token)
                return true
            }
            let id = info.headingLevel == nil || !writer.settings.decorateHeadings ? nil : headingIDs[nextHeading]
            if id == nil, !token.hasAttributes {  // most tags: no strings made
                write(element)
            } else {
                let kept = writer.kept(scan.attributes(of: token), element: info.name, html: true)
                writer.startTag(info.name, headingID: id, attributes: kept)
                take()
            }
            var last: Int?
            if let id {
                last = keep(writer.anchor(id: id, text: writer.out.headings[nextHeading].text))
                nextHeading += 1
            }
            if element == .a { writer.openAnchors += 1 }
            if element == .p { openParagraphs += 1 }
            open.append(Open(element: element, last: last))
            if !info.closedByNext { depth += 1 }
            return true
        }

        /// A void element (`img`, `br`, `hr`): an image of the note's own, or the tag.
        private mutating func void(_ token: Token) {
            guard token.hasAttributes else { return write(token.element) }
            let attributes = scan.attributes(of: token), name = token.element.info.name
            if token.element == .img, let folder = writer.settings.folder,
                let image = writer.localImage(attributes, folder: folder)
            {
                writer.image(image)
                take()
            } else {
                writer.startTag(name, headingID: nil, attributes: writer.kept(attributes, element: name, html: true))
                take()
            }
        }

        /// Whether the parser would not nest the element where it is (`HTMLRewriter.unwrapped`'s
        /// cases; cmark-gfm writes no other element it would move).
        private func movedByTheParser(_ element: KnownElement) -> Bool {
            if openParagraphs > 0, element.info.closesParagraph { return true }
            switch element {
            case .a: return writer.openAnchors > 0
            case .h1, .h2, .h3, .h4, .h5, .h6: return innermost?.info.headingLevel != nil
            case .td, .th: return innermost != .tr
            case .tr: return ![.tbody, .thead].contains(innermost)
            case .tbody, .thead: return innermost != .table
            default: return false
            }
        }

        private mutating func end(_ element: KnownElement) -> Bool {
            guard let top = open.popLast(), top.element == element else { return false }
            writeLast(of: top)
            write(element, closing: true)
            if element == .a { writer.openAnchors -= 1 }
            if element == .p { openParagraphs -= 1 }
            if !element.info.closedByNext { depth -= 1 }
            return true
        }
    }
}
