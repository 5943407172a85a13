internal import CGumbo

/// The HTML pass: cmark-gfm's output parsed by gumbo (an HTML5 parser, as browsers parse it) and
/// written out again — through the allowlist unless trusted — with sitegen's markup added: the
/// markers replaced, heading ids and self-links, site-absolute URLs moved under the root path.
/// Whatever the allowlist drops never reaches the output; what sitegen adds is never filtered.
struct HTMLRewriter {
    struct Settings {
        var trusted: Bool
        var rootPath: String
        /// Prefix of the ids this note makes (footnotes; headings only with `prefixHeadings`).
        var idPrefix: String
        var prefixHeadings: Bool
        var reservedIDs: Set<String>
        var labels: MarkdownLabels
        var codeBlocks: any CodeBlockFormatter
        /// Heading ids and self-links (off only to compare HTML with other renderers').
        var decorateHeadings = true
        /// Attributes in name order (only to compare HTML with other renderers').
        var sortAttributes = false
        /// The note's folder under `content/`: links to `.md` files become note links (nil: no).
        var folder: String? = nil
    }

    struct Output {
        var html = ""
        var headings: [Heading] = []
        /// What the allowlist removed, each once, in order of appearance.
        var removed: [String] = []
        /// Where the note links' URLs and the images' markup go, in order.
        var holes: [NoteHole] = []
        var noteLinks: [LocalReference] = []
        var images: [NoteImage] = []
        /// Whether the parsing pass wrote it (`KnownMarkupPass` could not).
        var parsed = false
    }

    private var settings: Settings { writer.settings }
    private var marked: MarkedHTML { writer.marked }
    private var writer: MarkupWriter
    private var headingIDs: [UnsafeMutablePointer<GumboNode>: (id: String, text: String)] = [:]
    /// The elements written and not yet closed, innermost last.
    private var openElements: [String] = []

    init(settings: Settings, marked: MarkedHTML) {
        writer = MarkupWriter(settings: settings, marked: marked)
    }

    static func rewrite(_ marked: MarkedHTML, settings: Settings) -> Output {
        var options = kGumboDefaultOptions
        options.fragment_context = GUMBO_TAG_DIV
        options.max_errors = 0
        var source = marked.html
        return source.withUTF8 { bytes -> Output in
            bytes.withMemoryRebound(to: CChar.self) { chars -> Output in
                guard let output = gumbo_parse_with_options(&options, chars.baseAddress, chars.count) else {
                    return Output()
                }
                defer { gumbo_destroy_output(&options, output) }
                var rewriter = HTMLRewriter(settings: settings, marked: marked)
                rewriter.run(output.pointee.root)
                rewriter.writer.out.parsed = true
                return rewriter.writer.out
            }
        }
    }

    /// The HTML pass: `KnownMarkupPass` where the note has no raw HTML and that pass can write
    /// it, this one otherwise (the same bytes either way). Refused when the elements nest more than
    /// `NestingDepth.limit` deep (this pass would take minutes).
    static func pass(_ marked: MarkedHTML, settings: Settings) throws(MarkdownError) -> Output {
        if !marked.hasRawHTML, let out = try KnownMarkupPass.rewrite(marked, settings: settings) { return out }
        if NestingDepth.exceeds(marked.html) { throw .nestedTooDeep(limit: NestingDepth.limit) }
        return rewrite(marked, settings: settings)
    }

    /// `html` as this pass writes it, with nothing kept back and nothing added: parsed and
    /// serialised again, so that two renderers' HTML compares regardless of spelling.
    static func normalise(_ html: String) -> String {
        let settings = Settings(
            trusted: true, rootPath: "/", idPrefix: "", prefixHeadings: false, reservedIDs: [],
            labels: MarkdownLabels(), codeBlocks: PlainCodeBlocks(), decorateHeadings: false, sortAttributes: true)
        return rewrite(MarkedHTML(html: html, marker: "sitegen-m0"), settings: settings).html
    }

    // MARK: - Walking

    private enum Step {
        case node(UnsafeMutablePointer<GumboNode>, raw: Bool)
        case text(String)
        /// The end of a `pre`, `textarea` or `listing` whose content was written from `start` (UTF-8
        /// offset in `out.html`): a newline first in it gets another, which the parser drops.
        case newlineKept(start: Int)
        /// The end of an `a`: links may nest again.
        case anchorClosed
        /// An element's end tag.
        case close(String)
    }

    private mutating func run(_ root: UnsafeMutablePointer<GumboNode>) {
        if settings.decorateHeadings { assignHeadingIDs(root) }
        // An explicit stack: nesting depth is the input's to choose.
        var stack: [Step] = []
        pushChildren(of: root, raw: false, onto: &stack)
        while let step = stack.popLast() {
            switch step {
            case .text(let s): writer.out.html += s
            case .newlineKept(let start): writer.keepNewline(at: start)
            case .anchorClosed: writer.openAnchors -= 1
            case .close(let name):
                openElements.removeLast()
                writer.out.html += "</\(name)>"
            case .node(let node, let raw): visit(node, raw: raw, stack: &stack)
            }
        }
    }

    private func childVector(_ node: UnsafeMutablePointer<GumboNode>) -> GumboVector {
        guard node.pointee.type == GUMBO_NODE_ELEMENT || node.pointee.type == GUMBO_NODE_TEMPLATE else {
            return kGumboEmptyVector
        }
        return node.pointee.v.element.children
    }

    /// The children last first onto `stack` (a walk that takes them off in order).
    private func pushNodes(
        of node: UnsafeMutablePointer<GumboNode>, onto stack: inout [UnsafeMutablePointer<GumboNode>]
    ) {
        let v = childVector(node)
        var i = Int(v.length)
        while i > 0 {
            i -= 1
            stack.append(v.data[i]!.assumingMemoryBound(to: GumboNode.self))
        }
    }

    private func firstChild(of node: UnsafeMutablePointer<GumboNode>) -> UnsafeMutablePointer<GumboNode>? {
        let v = childVector(node)
        return v.length > 0 ? v.data[0]!.assumingMemoryBound(to: GumboNode.self) : nil
    }

    /// The children last first onto `stack`, so that they come off it in order (no array made).
    private func pushChildren(of node: UnsafeMutablePointer<GumboNode>, raw: Bool, onto stack: inout [Step]) {
        let v = childVector(node)
        var i = Int(v.length)
        while i > 0 {
            i -= 1
            stack.append(.node(v.data[i]!.assumingMemoryBound(to: GumboNode.self), raw: raw))
        }
    }

    private mutating func visit(_ node: UnsafeMutablePointer<GumboNode>, raw: Bool, stack: inout [Step]) {
        switch node.pointee.type {
        case GUMBO_NODE_TEXT, GUMBO_NODE_WHITESPACE, GUMBO_NODE_CDATA:
            let text = String(cString: node.pointee.v.text.text)
            writer.out.html += raw ? text : HTMLText.escape(text)
        case GUMBO_NODE_COMMENT:
            if settings.trusted { writer.out.html += "<!--" + String(cString: node.pointee.v.text.text) + "-->" }
        case GUMBO_NODE_ELEMENT, GUMBO_NODE_TEMPLATE:
            element(node, stack: &stack)
        default:
            break
        }
    }

    private mutating func element(_ node: UnsafeMutablePointer<GumboNode>, stack: inout [Step]) {
        let e = node.pointee.v.element
        let name = Self.name(of: node)
        if e.tag == GUMBO_TAG_UNKNOWN, name == marked.marker {
            marker(node, stack: &stack)
            return
        }
        guard !name.isEmpty else { pushChildren(of: node, raw: false, onto: &stack); return }
        let html = e.tag_namespace == GUMBO_NAMESPACE_HTML
        if !settings.trusted {
            if !html || HTMLAllowlist.removedWithContents.contains(name) { writer.remove("<\(name)>"); return }
            if !HTMLAllowlist.elements.contains(name) {
                writer.remove("<\(name)>")
                pushChildren(of: node, raw: false, onto: &stack)
                return
            }
        }
        if html, unwrapped(node, name: name) { pushChildren(of: node, raw: false, onto: &stack); return }
        if html, name == "a" {
            writer.openAnchors += 1
            stack.append(.anchorClosed)
        }
        let attributes = attributes(of: node, html: html)
        if html, name == "img", let folder = settings.folder,
            let image = writer.localImage(attributes, folder: folder)
        {
            writer.image(image)
            return
        }
        let heading = headingIDs[node]
        writer.startTag(name, headingID: heading?.id, attributes: writer.kept(attributes, element: name, html: html))
        // A void element has no end tag (also where the parser put one in SVG or MathML).
        guard !Self.void.contains(name) || (!html && firstChild(of: node) != nil) else { return }
        openElements.append(name)
        stack.append(.close(name))
        if let heading { stack.append(.text(writer.anchor(id: heading.id, text: heading.text))) }
        if html, name == "pre" || name == "textarea" || name == "listing" {
            // Checked once the content is written: its first child may be an element the allowlist removes.
            stack.append(.newlineKept(start: writer.out.html.utf8.count))
        }
        pushChildren(of: node, raw: settings.trusted && html && Self.rawText.contains(name), onto: &stack)
    }

    // MARK: - Nesting the parser would undo

    /// Whether the element is left out, its contents kept, because the tree nests it where the
    /// parser, reading the output again, would not (or would ignore it) (trees made by foster-parenting, the adoption
    /// agency or elements the allowlist removed): the output must parse back to itself, or what a
    /// browser builds is not what was sanitised.
    private func unwrapped(_ node: UnsafeMutablePointer<GumboNode>, name: String) -> Bool {
        switch name {
        case "a": writer.openAnchors > 0
        case "p": closesParagraph(inside: node)
        case "h1", "h2", "h3", "h4", "h5", "h6": openElements.last.map { Self.headings.contains($0) } ?? false
        // A table's parts anywhere but in their place (a cell outside a row, in another cell…):
        // the parser ignores their tags or closes what is open.
        case "td", "th": openElements.last != "tr"
        case "tr": !["tbody", "thead", "tfoot", "table"].contains(openElements.last ?? "")
        case "tbody", "thead", "tfoot", "caption", "colgroup": openElements.last != "table"
        case "col": !["colgroup", "table"].contains(openElements.last ?? "")
        default: false
        }
    }

    /// Whether something written inside the `p` would close it when parsed: a start tag that closes
    /// a `p` in button scope, or a marker written as one (a code block, the footnotes).
    private func closesParagraph(inside p: UnsafeMutablePointer<GumboNode>) -> Bool {
        var stack: [UnsafeMutablePointer<GumboNode>] = []
        pushNodes(of: p, onto: &stack)
        while let node = stack.popLast() {
            guard node.pointee.type == GUMBO_NODE_ELEMENT else { continue }
            let name = Self.name(of: node)
            if node.pointee.v.element.tag == GUMBO_TAG_UNKNOWN, name == marked.marker {
                let key = gumbo_get_attribute(&node.pointee.v.element.attributes, "data-k")
                    .map { String(cString: $0.pointee.value) }
                if let key, MarkupWriter.isBlockMarker(key) { return true }
                continue
            }
            guard written(node), node.pointee.v.element.tag_namespace == GUMBO_NAMESPACE_HTML else { continue }
            if Self.paragraphClosers.contains(name) { return true }
            if !Self.buttonScope.contains(name) { pushNodes(of: node, onto: &stack) }
        }
        return false
    }

    /// The element's attributes as written (values decoded), in order.
    private func attributes(of node: UnsafeMutablePointer<GumboNode>, html: Bool) -> [(String, String)] {
        let v = node.pointee.v.element.attributes
        return (0..<Int(v.length)).map { i in
            let a = v.data[i]!.assumingMemoryBound(to: GumboAttribute.self).pointee
            return (html ? String(cString: a.name) : Self.text(a.original_name), String(cString: a.value))
        }
    }

    // MARK: - Markers

    private mutating func marker(_ node: UnsafeMutablePointer<GumboNode>, stack: inout [Step]) {
        guard
            let key = gumbo_get_attribute(&node.pointee.v.element.attributes, "data-k").map({
                String(cString: $0.pointee.value)
            }),
            let close = writer.marker(key)
        else { return }
        stack.append(.text(close))
        pushChildren(of: node, raw: false, onto: &stack)
    }

    // MARK: - Headings

    /// Every heading that will be written gets its id before anything is written, so that a
    /// `#fragment` link before a heading finds it.
    private mutating func assignHeadingIDs(_ root: UnsafeMutablePointer<GumboNode>) {
        var stack: [UnsafeMutablePointer<GumboNode>] = []
        pushNodes(of: root, onto: &stack)
        while let node = stack.popLast() {
            guard node.pointee.type == GUMBO_NODE_ELEMENT, written(node) else { continue }
            let e = node.pointee.v.element
            if e.tag_namespace == GUMBO_NAMESPACE_HTML, let level = Self.headingLevel(e.tag) {
                let text = textContent(node)
                let idAttribute = settings.trusted ? gumbo_get_attribute(&node.pointee.v.element.attributes, "id") : nil
                let own = idAttribute.map { String(cString: $0.pointee.value) }
                headingIDs[node] = (writer.headingID(level: level, text: text, own: own), text)
                continue
            }
            pushNodes(of: node, onto: &stack)
        }
    }

    /// Whether the element is written (with its contents): not a marker, not removed whole.
    private func written(_ node: UnsafeMutablePointer<GumboNode>) -> Bool {
        let e = node.pointee.v.element
        if e.tag == GUMBO_TAG_UNKNOWN, Self.name(of: node) == marked.marker { return false }
        if settings.trusted { return true }
        return e.tag_namespace == GUMBO_NAMESPACE_HTML
            && !HTMLAllowlist.removedWithContents.contains(Self.name(of: node))
    }

    /// The text a heading shows, whitespace runs collapsed to one space.
    private func textContent(_ node: UnsafeMutablePointer<GumboNode>) -> String {
        var text = ""
        var stack = [node]
        while let n = stack.popLast() {
            switch n.pointee.type {
            case GUMBO_NODE_TEXT, GUMBO_NODE_WHITESPACE, GUMBO_NODE_CDATA:
                text += String(cString: n.pointee.v.text.text)
            case GUMBO_NODE_ELEMENT where n == node || written(n): pushNodes(of: n, onto: &stack)
            default: break
            }
        }
        return MarkupWriter.collapsed(text)
    }

    // MARK: - Names

    static let void: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
        "source", "track", "wbr", "keygen", "basefont", "bgsound", "frame"
    ]
    static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]
    /// Start tags that close an open `p` (HTML's tree construction, "in body").
    static let paragraphClosers: Set<String> = [
        "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div", "dl", "fieldset",
        "figcaption", "figure", "footer", "header", "hgroup", "main", "menu", "nav", "ol", "p", "search", "section",
        "summary", "ul", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "listing", "form", "table", "hr", "xmp",
        "plaintext", "li", "dd", "dt"
    ]
    /// Elements that bound the "button scope" a `p` is looked for in.
    static let buttonScope: Set<String> = [
        "button", "applet", "caption", "html", "table", "td", "th", "marquee", "object", "template"
    ]
    static let rawText: Set<String> = [
        "script", "style", "xmp", "iframe", "noembed", "noframes", "plaintext", "noscript"
    ]

    static func headingLevel(_ tag: GumboTag) -> Int? {
        switch tag {
        case GUMBO_TAG_H1: 1
        case GUMBO_TAG_H2: 2
        case GUMBO_TAG_H3: 3
        case GUMBO_TAG_H4: 4
        case GUMBO_TAG_H5: 5
        case GUMBO_TAG_H6: 6
        default: nil
        }
    }

    /// The element's name as written in HTML: lower case, SVG's in their camel case.
    static func name(of node: UnsafeMutablePointer<GumboNode>) -> String {
        let e = node.pointee.v.element
        if e.tag != GUMBO_TAG_UNKNOWN, e.tag_namespace != GUMBO_NAMESPACE_SVG {
            return tagNames[Int(e.tag.rawValue)]
        }
        var piece = e.original_tag
        gumbo_tag_from_original_text(&piece)
        if e.tag_namespace == GUMBO_NAMESPACE_SVG {
            if let svg = gumbo_normalize_svg_tagname(&piece) { return String(cString: svg) }
            return e.tag != GUMBO_TAG_UNKNOWN
                ? String(cString: gumbo_normalized_tagname(e.tag)) : text(piece).lowercased()
        }
        let name = text(piece)
        return e.tag_namespace == GUMBO_NAMESPACE_HTML ? name.lowercased() : name
    }

    /// Every known tag's name, made once (not a String per element).
    static let tagNames: [String] = (0..<GUMBO_TAG_LAST.rawValue).map {
        String(cString: gumbo_normalized_tagname(GumboTag(rawValue: $0)))
    }

    static func text(_ piece: GumboStringPiece) -> String {
        guard let data = piece.data, piece.length > 0 else { return "" }
        return data.withMemoryRebound(to: UInt8.self, capacity: piece.length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: piece.length), as: UTF8.self)
        }
    }
}

/// The words the Markdown layer writes (from the site's language).
public struct MarkdownLabels: Sendable, Hashable, Codable {
    /// Before a heading's text in its self-link's accessible name ("Link to this section: Usage").
    public var headingLink: String
    /// The accessible name of a footnote's links back to its references.
    public var footnoteBack: String
    /// The accessible name of a task list's box (a form control needs one).
    public var task: String

    public init(
        headingLink: String = "Link to this section", footnoteBack: String = "Back to content",
        task: String = "Task"
    ) {
        self.headingLink = headingLink
        self.footnoteBack = footnoteBack
        self.task = task
    }
}
