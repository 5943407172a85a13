@testable import SiteMarkdown

extension MarkdownRenderer {
    /// The HTML of `markdown` as a note without context; a refused note is a test failure
    /// (`render(_:_:)` tells why).
    func render(_ markdown: String) -> String {
        do { return try render(markdown, Context()).html } catch { return "refused: \(error.message)" }
    }
}
