internal import CCmark
import SiteCore
import Synchronization
#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// What the cmark-gfm pass leaves for the HTML pass: the HTML with markers where sitegen's own
/// markup goes (code blocks, task list boxes, footnotes), and what the markers stand for.
struct MarkedHTML {
    var html: String
    /// The markers' element name, one that no raw HTML of the note contains (in any case).
    var marker: String
    var codeBlocks: [FencedCode] = []
    /// For each footnote (numbered from 1 in the order of first reference), its references.
    var footnoteRefs: [Int] = []
    /// Link and image destinations as written, with the line of their first use.
    var urlLines: [String: Int] = [:]
    /// Whether the note's raw HTML is in `html` (true unless the cmark-gfm pass knows it is not).
    var hasRawHTML = true
    /// Whether the extension `autolink` was on in the parse that made `html` (`Cmark.Autolink`).
    var autolinked = false
}

/// cmark-gfm: the GFM extensions registered once per process; a parse with the extensions the
/// options ask for; sitegen's markup replaced by markers before rendering.
enum Cmark {
    private static let registered: Void = cmark_gfm_core_extensions_ensure_registered()
    /// Held while a document is parsed: cmark-gfm 0.29 keeps the characters that start an
    /// extension's inline syntax in one table per process, which each parser fills when it starts
    /// parsing inlines and empties when it is done (and the table extension for each row). Two
    /// parsers at once miss autolinks, strikethrough and emphasis beside them.
    private static let parsing = Mutex(())

    /// - Parameters:
    ///   - removeRawHTML: raw HTML is dropped from the tree (`html: none`).
    ///   - tagfilter: GFM's tag filter on (the allowlist mode's, when `options.tagfilter`).
    static func render(_ markdown: String, options: MarkdownOptions, removeRawHTML: Bool, tagfilter: Bool) -> MarkedHTML
    {
        _ = registered
        var flags = CMARK_OPT_UNSAFE  // raw HTML reaches the HTML pass, which keeps or drops it
        if options.footnotes { flags |= CMARK_OPT_FOOTNOTES }
        if options.smart { flags |= CMARK_OPT_SMART }
        var names: [String] = []
        if options.tables { names.append("table") }
        if options.strikethrough { names.append("strikethrough") }
        if options.taskLists { names.append("tasklist") }
        if tagfilter { names.append("tagfilter") }
        var autolink = options.autolinks ? Autolink.needed(by: markdown) : .no
        while true {
            let extensions = names + (autolink == .yes ? ["autolink"] : [])
            guard let parsed = Parsed(markdown, flags: flags, extensions: extensions) else {
                return MarkedHTML(html: "", marker: "")
            }
            defer { parsed.free() }
            var marking = Marking(document: parsed.document, removeRawHTML: removeRawHTML)
            var marked = marking.apply()
            let attached = cmark_parser_get_syntax_extensions(parsed.parser)
            guard let html = cmark_render_html(parsed.document, flags, attached) else { return marked }
            defer { free(html) }
            marked.html = String(cString: html)
            if autolink == .ifText, Autolink.mayLink(html: marked.html) {
                autolink = .yes  // parsed again, with it
                continue
            }
            marked.autolinked = autolink == .yes
            return marked
        }
    }

    /// Whether a note needs GFM's extension `autolink`, which is left out where it could link
    /// nothing, for speed: with it every `w` and `:` of the text starts an inline the parser tries
    /// (a quarter of a note's parse).
    enum Autolink {
        case no, yes
        /// Parsed without, and again with it if the HTML's text (outside tags) holds `www.` or `://`.
        case ifText

        /// It links at `www.` and `://` (while parsing inlines, never inside a link's or an
        /// image's brackets: only in what becomes text outside tags), and around an `@` of any text
        /// node after parsing (an image's description too, which is an attribute then).
        static func needed(by markdown: String) -> Autolink {
            var markdown = markdown
            return markdown.withUTF8 { b in
                if b.firstIndex(of: UInt8(ascii: "@"), from: 0) != nil { return .yes }
                return hasLinkStart(b, from: 0, to: b.count) ? .ifText : .no
            }
        }

        /// Whether `www.` or `://` is in `bytes[from..<to]`: `memchr` finds each `:` and `w`, so
        /// the bytes between are not looked at one by one (a note's HTML is read whole for this).
        static func hasLinkStart(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Bool {
            var i = from
            while let colon = bytes.firstIndex(of: UInt8(ascii: ":"), from: i, to: to) {
                if colon + 2 < to, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") {
                    return true
                }
                i = colon + 1
            }
            i = from
            while let w = bytes.firstIndex(of: UInt8(ascii: "w"), from: i, to: to) {
                if w + 3 < to, bytes[w + 1] == UInt8(ascii: "w"), bytes[w + 2] == UInt8(ascii: "w"),
                    bytes[w + 3] == UInt8(ascii: ".")
                {
                    return true
                }
                i = w + 1
            }
            return false
        }

        /// Whether cmark-gfm's `html` holds `www.` or `://` outside its tags. Text's `<` and `>`
        /// are references there, so every `<` starts a tag, a comment or a declaration, which
        /// the next `>` ends. (No byte of `www.` or `://` is a `<`, so none spans text and tag.)
        static func mayLink(html: String) -> Bool {
            var html = html
            return html.withUTF8 { b in
                var i = 0
                while i < b.count {
                    let lt = b.firstIndex(of: UInt8(ascii: "<"), from: i) ?? b.count
                    if hasLinkStart(b, from: i, to: lt) { return true }
                    guard let gt = b.firstIndex(of: UInt8(ascii: ">"), from: lt + 1) else { return false }
                    i = gt + 1
                }
                return false
            }
        }
    }

    /// A parser with `extensions` and the document it parsed from `markdown`.
    private struct Parsed {
        let parser: OpaquePointer
        let document: OpaquePointer

        init?(_ markdown: String, flags: Int32, extensions: [String]) {
            guard let parser = cmark_parser_new(flags) else { return nil }
            for name in extensions {
                if let e = cmark_find_syntax_extension(name) { cmark_parser_attach_syntax_extension(parser, e) }
            }
            let document = parsing.withLock { _ in Document(parse(markdown, with: parser)) }
            guard let document = document.node else {
                cmark_parser_free(parser)
                return nil
            }
            self.parser = parser
            self.document = document
        }

        func free() {
            cmark_node_free(document)
            cmark_parser_free(parser)
        }
    }

    private static func parse(_ markdown: String, with parser: OpaquePointer) -> OpaquePointer? {
        var source = markdown
        source.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
        }
        return cmark_parser_finish(parser)
    }
}

/// A parsed document out of the parsing lock: @unchecked because a C handle is not Sendable; it
/// is this call's own, never shared.
private struct Document: @unchecked Sendable {
    let node: OpaquePointer?
    init(_ node: OpaquePointer?) { self.node = node }
}

/// Replaces the nodes whose HTML sitegen writes itself by marker elements
/// (`<M data-k="…"></M>`, M the marker name): cmark's own markup for them would meet the
/// allowlist like any raw HTML.
private struct Marking {
    let document: OpaquePointer
    let removeRawHTML: Bool
    var raw: [OpaquePointer] = []
    var code: [OpaquePointer] = []
    var tasks: [OpaquePointer] = []
    var refs: [OpaquePointer] = []
    var defs: [OpaquePointer] = []
    var result = MarkedHTML(html: "", marker: "")

    init(document: OpaquePointer, removeRawHTML: Bool) {
        self.document = document
        self.removeRawHTML = removeRawHTML
    }

    mutating func apply() -> MarkedHTML {
        collect()
        result.marker = markerName()
        result.hasRawHTML = !raw.isEmpty && !removeRawHTML
        if removeRawHTML { for node in raw { cmark_node_free(node) } }  // freeing unlinks
        for node in code { markCode(node) }
        for node in tasks { markTask(node) }
        markFootnotes()
        return result
    }

    private mutating func collect() {
        guard let iterator = cmark_iter_new(document) else { return }
        defer { cmark_iter_free(iterator) }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            switch cmark_node_get_type(node) {
            case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE: raw.append(node)
            case CMARK_NODE_CODE_BLOCK: code.append(node)
            case CMARK_NODE_FOOTNOTE_REFERENCE: refs.append(node)
            case CMARK_NODE_FOOTNOTE_DEFINITION: defs.append(node)
            case CMARK_NODE_ITEM:
                if let name = cmark_node_get_type_string(node), String(cString: name) == "tasklist" {
                    tasks.append(node)
                }
            case CMARK_NODE_LINK, CMARK_NODE_IMAGE:
                if let url = cmark_node_get_url(node) {
                    let key = String(cString: url)
                    if result.urlLines[key] == nil { result.urlLines[key] = Int(cmark_node_get_start_line(node)) }
                }
            default: break
            }
        }
    }

    /// `sitegen-m` and the smallest number no raw HTML of the note contains after it.
    private func markerName() -> String {
        let literals = raw.compactMap { cmark_node_get_literal($0).map { String(cString: $0).lowercased() } }
        var n = 0
        while literals.contains(where: { $0.contains("sitegen-m\(n)") }) { n += 1 }
        return "sitegen-m\(n)"
    }

    private func node(_ type: cmark_node_type, _ literal: String) -> OpaquePointer? {
        guard let n = cmark_node_new(type) else { return nil }
        _ = cmark_node_set_literal(n, literal)
        return n
    }

    private func open(_ key: String) -> String { "<\(result.marker) data-k=\"\(key)\">" }
    private func close() -> String { "</\(result.marker)>" }
    private func atom(_ key: String) -> String { open(key) + close() }

    private mutating func markCode(_ old: OpaquePointer) {
        let info = cmark_node_get_fence_info(old).map { String(cString: $0) } ?? ""
        let literal = cmark_node_get_literal(old).map { String(cString: $0) } ?? ""
        guard let new = node(CMARK_NODE_HTML_BLOCK, atom("c\(result.codeBlocks.count)")) else { return }
        var block = FencedCode(info: info, code: literal)
        block.line = Int(cmark_node_get_start_line(old))
        result.codeBlocks.append(block)
        _ = cmark_node_replace(old, new)
        cmark_node_free(old)
    }

    /// The item loses the extension (which renders an `<input>`); a marker stands for the box.
    private func markTask(_ item: OpaquePointer) {
        let checked = cmark_gfm_extensions_get_tasklist_item_checked(item)
        _ = cmark_node_set_syntax_extension(item, nil)
        let key = checked ? "t1" : "t0"
        if let first = cmark_node_first_child(item), cmark_node_get_type(first) == CMARK_NODE_PARAGRAPH,
            let box = node(CMARK_NODE_HTML_INLINE, atom(key))
        {
            _ = cmark_node_prepend_child(first, box)
        } else if let box = node(CMARK_NODE_HTML_BLOCK, atom(key)) {
            _ = cmark_node_prepend_child(item, box)
        }
    }

    /// References become markers numbered as cmark numbered them; the definitions (at the
    /// document's end, in order of first reference) are wrapped in markers, the back links last.
    private mutating func markFootnotes() {
        for ref in refs {
            let number = cmark_node_get_literal(ref).flatMap { Int(String(cString: $0)) } ?? 0
            guard number > 0 else { continue }
            if result.footnoteRefs.count < number {
                result.footnoteRefs += Array(repeating: 0, count: number - result.footnoteRefs.count)
            }
            result.footnoteRefs[number - 1] += 1
            guard let new = node(CMARK_NODE_HTML_INLINE, atom("r\(number).\(result.footnoteRefs[number - 1])")) else {
                continue
            }
            _ = cmark_node_replace(ref, new)
            cmark_node_free(ref)
        }
        guard let first = defs.first, let last = defs.last else { return }
        if let start = node(CMARK_NODE_HTML_BLOCK, open("s")) { _ = cmark_node_insert_before(first, start) }
        if let end = node(CMARK_NODE_HTML_BLOCK, close()) { _ = cmark_node_insert_after(last, end) }
        for (i, def) in defs.enumerated() {
            if let start = node(CMARK_NODE_HTML_BLOCK, open("d\(i + 1)")) { _ = cmark_node_insert_before(def, start) }
            if let tail = cmark_node_last_child(def), cmark_node_get_type(tail) == CMARK_NODE_PARAGRAPH,
                let back = node(CMARK_NODE_HTML_INLINE, atom("b\(i + 1)"))
            {
                _ = cmark_node_append_child(tail, back)
            } else if let back = node(CMARK_NODE_HTML_BLOCK, atom("B\(i + 1)")) {
                // on a line of its own, as cmark-gfm writes it
                _ = cmark_node_append_child(def, back)
            }
            while let child = cmark_node_first_child(def) { _ = cmark_node_insert_before(def, child) }
            if let end = node(CMARK_NODE_HTML_BLOCK, close()) { _ = cmark_node_insert_before(def, end) }
            cmark_node_free(def)
        }
    }
}
