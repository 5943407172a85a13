/// Renders notes as GitHub renders READMEs: cmark-gfm (GitHub's fork of cmark) with the GFM
/// extensions, then an HTML pass (gumbo) that keeps raw HTML through an allowlist and adds
/// sitegen's markup — heading ids and self-links, code blocks, task boxes, footnotes.
public struct MarkdownRenderer: Sendable {
    public var options: MarkdownOptions
    /// The path the site is served under ("/apps/" for `https://example.org/apps/`): site-absolute
    /// link and image URLs (`/bounties/luffy/`) are moved under it.
    public var rootPath: String
    public var codeBlocks: any CodeBlockFormatter
    public var labels: MarkdownLabels
    /// Ids the page around a note already has (the theme's), which headings must not take.
    public var reservedIDs: Set<String>

    public init(
        options: MarkdownOptions = MarkdownOptions(), rootPath: String = "/",
        codeBlocks: any CodeBlockFormatter = PlainCodeBlocks(),
        labels: MarkdownLabels = MarkdownLabels(), reservedIDs: Set<String> = []
    ) {
        self.options = options
        self.rootPath = rootPath
        self.codeBlocks = codeBlocks
        self.labels = labels
        self.reservedIDs = reservedIDs
    }

    /// With the site's default options, raw HTML kept as written (`true`) or through the allowlist.
    public init(allowRawHTML: Bool, rootPath: String = "/") {
        var options = MarkdownOptions()
        options.html = allowRawHTML ? .trusted : .allowlist
        self.init(options: options, rootPath: rootPath)
    }

    /// What a note needs besides `render`'s HTML.
    public struct Context: Sendable {
        /// Prefixed to the ids of footnotes ("luffy-" gives `fn-luffy-1`), so that notes sharing a
        /// page cannot clash.
        public var idPrefix: String
        /// Heading ids prefixed too (notes shown with others, inside an item's page); `#id` links
        /// of the note to its own headings follow.
        public var prefixHeadings: Bool
        /// The note's raw HTML mode (the site's, or `trusted` by the note's `unsafeHTML: true`).
        public var html: MarkdownOptions.HTMLMode?
        /// The note's folder under `content/` ("" for `content/` itself): links to `.md` files
        /// (relative to it, or `/` from `content/`) become `noteLinks`, and images naming local
        /// files `images`. nil: both stay as written.
        public var folder: String?

        public init(
            idPrefix: String = "", prefixHeadings: Bool = false, html: MarkdownOptions.HTMLMode? = nil,
            folder: String? = nil
        ) {
            self.idPrefix = idPrefix
            self.prefixHeadings = prefixHeadings
            self.html = html
            self.folder = folder
        }
    }

    /// The note `markdown` (any line endings) as HTML; refused past `MarkdownBudget` (before
    /// cmark-gfm parses it) or when its elements nest more than `NestingDepth.limit` deep (the
    /// HTML pass would take minutes).
    public func render(_ markdown: String, _ context: Context) throws(MarkdownError) -> RenderedMarkdown {
        if let refused = MarkdownBudget.check(markdown, smart: options.smart) { throw refused }
        let mode = context.html ?? options.html
        let marked = Cmark.render(
            markdown, options: options, removeRawHTML: mode == .none,
            tagfilter: options.tagfilter && mode == .allowlist)
        let settings = HTMLRewriter.Settings(
            trusted: mode == .trusted, rootPath: rootPath, idPrefix: context.idPrefix,
            prefixHeadings: context.prefixHeadings, reservedIDs: reservedIDs, labels: labels,
            codeBlocks: codeBlocks, folder: context.folder)
        let out = try HTMLRewriter.pass(marked, settings: settings)
        let links = out.noteLinks.map { link in
            var link = link
            link.line = marked.urlLines[link.written]
            return link
        }
        let images = out.images.map { image in
            var image = image
            image.reference.line = marked.urlLines[image.reference.written]
            return image
        }
        let skipped = marked.codeBlocks.compactMap { block in codeBlocks.warning(for: block).map { (block.line, $0) } }
        return RenderedMarkdown(
            html: out.html, headings: out.headings, removed: out.removed,
            codeLanguages: marked.codeBlocks.compactMap(\.language), holes: out.holes, noteLinks: links, images: images,
            codeWarning: skipped.first.map { first in
                CodeWarning(line: first.0, message: first.1, count: skipped.count)
            })
    }
}

/// Why a note cannot be rendered.
public enum MarkdownError: Error, Equatable {
    /// Its elements (block quotes, lists, raw HTML) nest more than `limit` deep.
    case nestedTooDeep(limit: Int)
    /// Past a `MarkdownBudget`, at `line` of the Markdown (from 1), with what and which budget.
    case overBudget(line: Int, String)

    public var message: String {
        switch self {
        case .nestedTooDeep(let limit):
            "elements nested more than \(limit) deep (block quotes, lists or raw HTML elements inside one another); "
                + "browsers stop nesting there too"
        case .overBudget(_, let message): message
        }
    }

    /// The line of the Markdown it is at, when known.
    public var line: Int? {
        if case .overBudget(let line, _) = self { return line }
        return nil
    }
}

/// A code block formatted otherwise than asked (highlighting skipped past its budget): the first
/// such block's line in the Markdown (from 1) and why, and how many blocks of the note were.
public struct CodeWarning: Sendable, Equatable {
    public var line: Int?
    public var message: String
    public var count: Int
}

/// A rendered note.
public struct RenderedMarkdown: Sendable {
    public var html: String
    /// Every heading in order (raw HTML headings too), with its id.
    public var headings: [Heading]
    /// What the allowlist removed (`<script>`, `onclick="…"`, `href="javascript:…"`), each once.
    public var removed: [String]
    /// The languages of the code blocks that name one, in order.
    public var codeLanguages: [String]
    /// Where the URLs of `noteLinks` and the markup of `images` go in `html`, in order.
    public var holes: [NoteHole] = []
    /// Links to other notes (`.md` files), in order; the `href` of the k-th is empty in `html`,
    /// a hole (`NoteHole.Fill.noteLink(k)`) until the build knows the other note's page URL.
    public var noteLinks: [LocalReference]
    /// Images naming files under `content/` (with a `folder`), in order; the k-th is a hole in `html`.
    public var images: [NoteImage] = []
    /// Code blocks not formatted as asked (the note's one warning about them), if any.
    public var codeWarning: CodeWarning? = nil
}
