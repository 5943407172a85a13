import SiteCore
import SiteMarkdown

extension SiteConfig {
    /// `markdown:`: GFM's extensions on unless turned off (`tables`, `strikethrough`, `autolinks`,
    /// `taskLists`, `footnotes`, `tagfilter`), `smart` punctuation off unless turned on, and `html`,
    /// what happens to raw HTML in notes: `allowlist` (default), `none` or `trusted`.
    static func parseMarkdown(_ top: ConfigNode, problems: inout [Diagnostic]) -> MarkdownOptions {
        var options = MarkdownOptions()
        guard let m = attempt(&problems, { () throws(Diagnostic) in try top.child("markdown") }), let m else {
            return options
        }
        let start = problems.count
        for (name, path) in [
            ("tables", \MarkdownOptions.tables), ("strikethrough", \.strikethrough), ("autolinks", \.autolinks),
            ("taskLists", \.taskLists), ("footnotes", \.footnotes), ("tagfilter", \.tagfilter), ("smart", \.smart)
        ] {
            if let on = attempt(&problems, { () throws(Diagnostic) in try m.bool(name) }), let on {
                options[keyPath: path] = on
            }
        }
        if let text = attempt(&problems, { () throws(Diagnostic) in try m.string("html") }), let text {
            if let mode = MarkdownOptions.HTMLMode(rawValue: text) {
                options.html = mode
            } else {
                let names = MarkdownOptions.HTMLMode.allCases.map(\.rawValue).joined(separator: ", ")
                problems.append(
                    m.error(m.raw("html") ?? m.node, "'\(m.key("html"))' must be one of \(names) (found '\(text)')"))
            }
        }
        m.reportUnknownKeys(into: &problems, at: start)
        return options
    }
}
