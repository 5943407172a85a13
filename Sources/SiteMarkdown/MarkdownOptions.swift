/// How notes are read: GitHub-flavoured Markdown by default, as GitHub renders READMEs.
/// `site.yml`'s `markdown:` turns extensions off one by one and smart punctuation on.
public struct MarkdownOptions: Sendable, Hashable, Codable {
    /// What happens to HTML written in a note.
    public enum HTMLMode: String, Sendable, Hashable, CaseIterable, Codable {
        /// Kept through an allowlist modelled on GitHub's; the rest is removed with a warning.
        case allowlist
        /// Removed (raw HTML is not rendered at all).
        case none
        /// Kept as written: for sites whose every author is trusted.
        case trusted
    }

    public var tables = true
    public var strikethrough = true
    /// Bare `https://…`, `www.…` and e-mail addresses become links.
    public var autolinks = true
    public var taskLists = true
    public var footnotes = true
    /// GFM's tag filter (`<script>`, `<iframe>`, `<xmp>` … shown as text), applied in `allowlist` mode.
    public var tagfilter = true
    /// Curly quotes, dashes and ellipses (off by default, as on GitHub).
    public var smart = false
    /// The site's default; a note's `unsafeHTML: true` makes it `trusted` for that note.
    public var html: HTMLMode = .allowlist

    public init() {}
}
