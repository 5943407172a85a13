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

    /// - Parameter allowRawHTML: keep raw HTML and links of every scheme (cmark's `UNSAFE` option).
    public init(allowRawHTML: Bool = false) {
        options = allowRawHTML ? CMARK_OPT_UNSAFE : CMARK_OPT_DEFAULT
    }

    /// The HTML for `markdown` (a CommonMark document; any line endings).
    public func render(_ markdown: String) -> String {
        // A native Swift string is already contiguous UTF-8, so this normally hands cmark the
        // string's own storage without a copy.
        var source = markdown
        let html: UnsafeMutablePointer<CChar>? = source.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                cmark_markdown_to_html(chars.baseAddress, chars.count, options)
            }
        }
        // cmark returns nil only when it cannot allocate; there is nothing better to return then.
        guard let html else { return "" }
        defer { free(html) }
        let length = strlen(html)
        return html.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            // cmark writes UTF-8 (it replaces invalid input), so decoding cannot lose anything.
            String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
        }
    }
}
