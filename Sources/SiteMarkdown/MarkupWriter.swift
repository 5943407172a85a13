/// What both HTML passes (`HTMLRewriter`, which parses, and `KnownMarkupPass`, which scans) write
/// the same way: sitegen's own markup (markers, heading ids and self-links), the attributes the
/// allowlist keeps, the URLs moved; and the output so far.
struct MarkupWriter {
    let settings: HTMLRewriter.Settings
    let marked: MarkedHTML
    var out = HTMLRewriter.Output()
    /// How many `a` elements are open. The parser builds a link inside a link (foster-parenting around
    /// a table) but splits one it reads: an inner `a` is unwrapped so that the output parses back to itself.
    var openAnchors = 0
    private var removedSet: Set<String> = []
    private var ids: HeadingIDs
    /// A heading's generated id without the prefix → with it, for `#fragment` links.
    private var prefixed: [String: String] = [:]

    init(settings: HTMLRewriter.Settings, marked: MarkedHTML) {
        self.settings = settings
        self.marked = marked
        ids = HeadingIDs(reserved: settings.reservedIDs)
        let p = settings.idPrefix
        for n in marked.footnoteRefs.indices {
            ids.reserve("fn-\(p)\(n + 1)")
            for ix in 1...max(1, marked.footnoteRefs[n]) {
                ids.reserve(ix > 1 ? "fnref-\(p)\(n + 1)-\(ix)" : "fnref-\(p)\(n + 1)")
            }
        }
    }

    // MARK: - Headings

    /// The id of the next heading, whose text is `text` (`own`: its `id` attribute, kept when
    /// trusted), recorded for the table of contents and for `#fragment` links.
    mutating func headingID(level: Int, text: String, own: String?) -> String {
        let plain = HeadingIDs.plain(text)
        let id = own ?? ids.next(plain: plain, prefix: settings.prefixHeadings ? settings.idPrefix : "")
        if own == nil, settings.prefixHeadings, prefixed[plain] == nil { prefixed[plain] = id }
        out.headings.append(Heading(level: level, id: id, text: text))
        return id
    }

    /// The heading's self-link, written first in it.
    func anchor(id: String, text: String) -> String {
        "<a class=\"heading-anchor\" href=\"#\(HTMLText.escape(id))\" aria-label=\""
            + HTMLText.escape("\(settings.labels.headingLink): \(text)") + "\"></a>"
    }

    /// The whitespace runs of a heading's text collapsed to one space.
    static func collapsed(_ text: String) -> String {
        let utf8 = text.utf8
        let isBreak = { (b: UInt8) in b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D }
        if let first = utf8.first, let last = utf8.last, !isBreak(first), !isBreak(last),
            !utf8.contains(where: { $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }), !hasTwoSpaces(utf8)
        {
            return text  // most headings: nothing to collapse
        }
        return text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
            .joined(separator: " ")
    }

    /// Whether two spaces follow each other (Foundation's `contains("  ")` costs a microsecond).
    private static func hasTwoSpaces(_ utf8: String.UTF8View) -> Bool {
        var previous: UInt8 = 0
        for byte in utf8 {
            if byte == 0x20, previous == 0x20 { return true }
            previous = byte
        }
        return false
    }

    // MARK: - Elements and attributes

    /// An attribute as it stays: its value, or a hole for a note link's URL.
    struct Kept {
        var name: String
        var value: String
        /// The index in `noteLinks` whose URL the value is, once known (the value is empty).
        var noteLink: Int? = nil
    }

    /// Writes `<name …>`: the heading's id first, then the `kept` attributes.
    mutating func startTag(_ name: String, headingID: String?, attributes kept: [Kept]) {
        var kept = kept
        var tag = "<" + name
        if let headingID { tag += " id=\"\(HTMLText.escape(headingID))\"" }
        if settings.sortAttributes { kept.sort { $0.name < $1.name } }
        for a in kept where !(headingID != nil && a.name == "id") {
            tag += " " + a.name + "=\""
            if let k = a.noteLink {
                out.holes.append(NoteHole(offset: out.html.utf8.count + tag.utf8.count, fill: .noteLink(k)))
            }
            tag += HTMLText.escape(a.value) + "\""
        }
        out.html += tag + ">"
    }

    /// At the end of a `pre`, `textarea` or `listing` whose content starts at `start` (UTF-8 offset
    /// in `out.html`): a newline first in it gets another, which the parser drops. An image there
    /// (a hole) comes first, so its content does not start with the newline after it.
    mutating func keepNewline(at start: Int) {
        let utf8 = out.html.utf8
        let at = utf8.index(utf8.startIndex, offsetBy: start)
        guard at < utf8.endIndex, utf8[at] == 0x0A, !out.holes.contains(where: { $0.offset == start }) else { return }
        out.html.insert("\n", at: at)
        for i in out.holes.indices.reversed() {
            guard out.holes[i].offset > start else { break }
            out.holes[i].offset += 1
        }
    }

    /// A local image: a hole where its markup goes once the image step has made its files.
    mutating func image(_ image: NoteImage) {
        out.holes.append(NoteHole(offset: out.html.utf8.count, fill: .image(out.images.count)))
        out.images.append(image)
    }

    /// The attributes (values decoded) that stay, URLs moved and rewritten.
    mutating func kept(_ attributes: [(String, String)], element: String, html: Bool) -> [Kept] {
        var kept: [Kept] = []
        for (name, written) in attributes {
            var value = written
            if !settings.trusted {
                guard HTMLAllowlist.allows(attribute: name, on: element) else { remove("\(name)=\"…\""); continue }
                if let scheme = HTMLAllowlist.refusedScheme(value, in: name) {
                    remove("\(name)=\"\(scheme):…\"")
                    continue
                }
            }
            let isURL =
                (element == "a" && name == "href")
                || ((element == "img" || element == "source") && name == "src")
            if html, isURL, element == "a", let k = noteLink(value) {
                kept.append(Kept(name: name, value: "", noteLink: k))
                continue
            }
            if html, isURL {
                value = rewriteURL(value, isImage: element != "a")
            }
            kept.append(Kept(name: name, value: value))
        }
        return kept
    }

    /// An `<img>` whose `src` names a file under `content/`: its attributes (the allowlist's)
    /// kept aside, to make its markup once the image pipeline has made its files.
    mutating func localImage(_ attributes: [(String, String)], folder: String) -> NoteImage? {
        guard let src = attributes.first(where: { $0.0 == "src" })?.1,
            let reference = LocalReference.parse(src, folder: folder)
        else { return nil }
        if !settings.trusted, HTMLAllowlist.refusedScheme(src, in: "src") != nil { return nil }
        let kept = kept(attributes, element: "img", html: true).filter { $0.name != "src" }
        return NoteImage(reference: reference, attributes: kept.map { .init(name: $0.name, value: $0.value) })
    }

    /// The index of a link to another note (a `.md` file under `content/`, with a `folder`), recorded.
    private mutating func noteLink(_ url: String) -> Int? {
        guard let folder = settings.folder, let link = LocalReference.parse(url, folder: folder), link.isNote
        else { return nil }
        out.noteLinks.append(link)
        return out.noteLinks.count - 1
    }

    private mutating func rewriteURL(_ url: String, isImage: Bool) -> String {
        if !isImage, url.hasPrefix("#"), let to = prefixed[String(url.dropFirst())] { return "#" + to }
        if settings.rootPath != "/", url.hasPrefix("/"), !url.hasPrefix("//") {
            return settings.rootPath + url.dropFirst()
        }
        return url
    }

    /// Notes what the allowlist removed, once.
    mutating func remove(_ what: String) {
        if removedSet.insert(what).inserted { out.removed.append(what) }
    }

    // MARK: - Markers

    /// Writes what the marker with key `key` stands for; returns what to write after its
    /// contents (the footnotes' list and items, which have contents), nil for the others.
    mutating func marker(_ key: String) -> String? {
        guard let kind = key.first else { return nil }
        let rest = key.dropFirst()
        let p = settings.idPrefix
        switch kind {
        case "c":
            if let i = Int(rest), marked.codeBlocks.indices.contains(i) {
                out.html += settings.codeBlocks.html(for: marked.codeBlocks[i])
            }
        case "t":
            let name = " aria-label=\"\(HTMLText.escape(settings.labels.task))\"> "
            let box = rest == "1" ? "<input type=\"checkbox\" checked disabled" : "<input type=\"checkbox\" disabled"
            out.html += box + name
        case "r":
            let parts = rest.split(separator: ".")
            guard parts.count == 2, let n = Int(parts[0]), let ix = Int(parts[1]) else { return nil }
            let ref = ix > 1 ? "fnref-\(p)\(n)-\(ix)" : "fnref-\(p)\(n)"
            if openAnchors > 0 {  // inside a link, which a link may not nest in
                out.html += "<sup class=\"footnote-ref\" id=\"\(HTMLText.escape(ref))\">\(n)</sup>"
                return nil
            }
            out.html +=
                "<sup class=\"footnote-ref\"><a href=\"#fn-\(HTMLText.escape(p))\(n)\""
                + " id=\"\(HTMLText.escape(ref))\" data-footnote-ref>\(n)</a></sup>"
        case "b", "B":  // after the footnote's last paragraph, or on a line of its own
            guard let n = Int(rest), marked.footnoteRefs.indices.contains(n - 1) else { return nil }
            let label = HTMLText.escape(settings.labels.footnoteBack)
            for ix in 1...max(1, marked.footnoteRefs[n - 1]) {
                let ref = ix > 1 ? "fnref-\(p)\(n)-\(ix)" : "fnref-\(p)\(n)"
                out.html +=
                    (ix == 1 && kind == "B" ? "" : " ") + "<a href=\"#\(HTMLText.escape(ref))\""
                    + " class=\"footnote-backref\" data-footnote-backref aria-label=\"\(label)\">↩"
                    + (ix > 1 ? "<sup class=\"footnote-ref\">\(ix)</sup>" : "") + "</a>"
            }
        case "d":
            out.html += "<li id=\"fn-\(HTMLText.escape(p))\(rest)\">"
            return "</li>"
        case "s":
            out.html += "<section class=\"footnotes\" data-footnotes>\n<ol>"
            return "</ol>\n</section>"
        default:
            break
        }
        return nil
    }

    /// Whether a marker with key `key` is written as a block (a code block, the footnotes), which
    /// closes an open `p` when parsed.
    static func isBlockMarker(_ key: String) -> Bool {
        key.first.map { "csd".contains($0) } ?? false
    }
}
