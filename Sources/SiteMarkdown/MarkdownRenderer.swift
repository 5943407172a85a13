internal import CCmark
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Renders CommonMark to HTML with cmark.
///
/// Safe by default: raw HTML is replaced by `<!-- raw HTML omitted -->` and links to
/// `javascript:`, `vbscript:`, `file:` and (non-image) `data:` URLs get an empty `href`, as
/// cmark's default (non-`UNSAFE`) mode does. `allowRawHTML: true` passes both through unchanged.
public struct MarkdownRenderer: Sendable {
    private let options: Int32
    private let rootPath: String
    private let codeBlocks: (any CodeBlockFormatter)?

    /// - Parameters:
    ///   - allowRawHTML: keep raw HTML and links of every scheme (cmark's `UNSAFE` option).
    ///   - rootPath: the path the site is served under ("/apps/" for `https://example.org/apps/`):
    ///     site-absolute link and image URLs (`/bounties/luffy/`) are moved under it, so a note
    ///     written for the site's root works wherever the site is hosted. Raw HTML is left alone.
    ///   - codeBlocks: renders fenced code blocks (nil: cmark's `<pre><code>`).
    public init(allowRawHTML: Bool = false, rootPath: String = "/", codeBlocks: (any CodeBlockFormatter)? = nil) {
        options = allowRawHTML ? CMARK_OPT_UNSAFE : CMARK_OPT_DEFAULT
        self.rootPath = rootPath
        self.codeBlocks = codeBlocks
    }

    /// The HTML for `markdown` (a CommonMark document; any line endings).
    public func render(_ markdown: String) -> String { renderNote(markdown).html }

    /// The HTML for `markdown`, and whether it has a fenced code block with a language.
    public func renderNote(_ markdown: String) -> (html: String, hasCode: Bool) {
        var hasCode = false
        // A native Swift string is already contiguous UTF-8, so this normally hands cmark the
        // string's own storage without a copy.
        var source = markdown
        let html: UnsafeMutablePointer<CChar>? = source.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                guard rootPath != "/" || codeBlocks != nil else {
                    return cmark_markdown_to_html(chars.baseAddress, chars.count, options)
                }
                guard let document = cmark_parse_document(chars.baseAddress, chars.count, options) else { return nil }
                defer { cmark_node_free(document) }
                if rootPath != "/" { moveSiteAbsoluteURLs(in: document) }
                if let codeBlocks { hasCode = replaceFencedCode(in: document, with: codeBlocks) }
                return cmark_render_html(document, options)
            }
        }
        // cmark returns nil only when it cannot allocate; there is nothing better to return then.
        guard let html else { return ("", hasCode) }
        defer { free(html) }
        let length = strlen(html)
        return (html.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            // cmark writes UTF-8 (it replaces invalid input), so decoding cannot lose anything.
            String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
        }, hasCode)
    }

    /// Replaces each fenced code block with an info string by a custom block holding `formatter`'s
    /// HTML (cmark writes a custom block's text as it is, in safe mode too); whether one had a
    /// language. cmark 0.30 does not tell a fence without info from an indented block: both keep
    /// cmark's `<pre><code>`.
    private func replaceFencedCode(in document: OpaquePointer, with formatter: any CodeBlockFormatter) -> Bool {
        guard let iterator = cmark_iter_new(document) else { return false }
        var blocks: [OpaquePointer] = []
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
                  cmark_node_get_type(node) == CMARK_NODE_CODE_BLOCK,
                  cmark_node_get_fence_info(node)?.pointee ?? 0 != 0 else { continue }
            blocks.append(node)
        }
        cmark_iter_free(iterator)
        var hasCode = false
        for node in blocks {
            let info = cmark_node_get_fence_info(node).map { String(cString: $0) } ?? ""
            let language = info.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
            hasCode = hasCode || language != nil
            let code = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
            guard let custom = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK) else { continue }
            let html = formatter.html(for: FencedCode(info: info, language: language, code: code))
            _ = cmark_node_set_on_enter(custom, html)
            _ = cmark_node_replace(node, custom)
            cmark_node_free(node)
        }
        return hasCode
    }

    /// Prefixes `rootPath` to every link and image URL that starts with one "/".
    private func moveSiteAbsoluteURLs(in document: OpaquePointer) {
        guard let iterator = cmark_iter_new(document) else { return }
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE, let raw = cmark_node_get_url(node) else { continue }
            let url = String(cString: raw)
            guard url.hasPrefix("/"), !url.hasPrefix("//") else { continue }
            _ = cmark_node_set_url(node, rootPath + url.dropFirst())
        }
    }
}
