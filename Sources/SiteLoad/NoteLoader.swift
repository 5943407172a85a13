import Foundation
import SiteCore
import SiteFormats
import SiteHighlight
import SiteMarkdown

/// A Markdown note: rendered once, then shown on its own page or inside an item's page.
///
/// Its fields live in one immutable box, so that a copy is one reference: a site of 10,000
/// notes copies its list of notes on every rebuild of `serve`, and a copy of the fields
/// themselves retains some twenty references each. Setting a field makes a new box.
public struct Note: Sendable, Equatable, Codable {
    private var box: Box

    private final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    /// A note's fields, as stored (and encoded in the note cache).
    public struct Fields: Sendable, Equatable, Codable {
        public var slug: String
        public var title: String
        public var date: CalendarDate?
        public var tags: [String]
        public var summary: String?
        /// Every front matter field, for templates.
        public var fields: [String: Value]
        public var html: String
        /// The headings of `html`, with their ids, for a table of contents.
        public var headings: [Heading] = []
        /// Front matter `toc: true`: the built-in note template shows the table of contents.
        public var showsContents: Bool = false
        /// The languages named by its code blocks (`swift` for ```` ```swift ````), in order.
        public var codeLanguages: [String] = []
        /// What the build tells without failing (raw HTML the allowlist removed).
        public var warnings: [Diagnostic] = []
        /// Where `html` lacks what the note could not know when rendered: the URLs of `noteLinks`
        /// and the markup of `images` (`NoteHole`), filled once the model knows them.
        public var holes: [NoteHole] = []
        /// Links to other notes, each with its line in the file.
        public var noteLinks: [LocalReference] = []
        /// Images naming files under `content/`, sized.
        public var images: [LoadedNoteImage] = []
        /// `content/…` path, for messages.
        public var file: String
        /// The item the note belongs to, resolved and checked by the caller.
        public var attachment: Attachment?
        /// The front matter lines of `slug` and `tags` (nil: not given there), for messages.
        public var slugLine: Int? = nil
        public var tagsLine: Int? = nil
    }

    public init(_ fields: Fields) { box = Box(fields) }

    public init(
        slug: String, title: String, date: CalendarDate?, tags: [String], summary: String?,
        fields: [String: Value], html: String, file: String, attachment: Attachment? = nil,
        slugLine: Int? = nil, tagsLine: Int? = nil
    ) {
        self.init(
            Fields(
                slug: slug, title: title, date: date, tags: tags, summary: summary, fields: fields, html: html,
                file: file, attachment: attachment, slugLine: slugLine, tagsLine: tagsLine))
    }

    public init(from decoder: any Decoder) throws { self.init(try Fields(from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try box.fields.encode(to: encoder) }

    public static func == (a: Note, b: Note) -> Bool { a.box === b.box || a.box.fields == b.box.fields }

    /// Changes the fields in one new box.
    public mutating func update<E: Error>(_ change: (inout Fields) throws(E) -> Void) throws(E) {
        var fields = box.fields
        try change(&fields)
        box = Box(fields)
    }

    /// Whether `self` and `other` are the same box (a note not loaded again since).
    public func isSameBox(as other: Note) -> Bool { box === other.box }

    public var slug: String {
        get { box.fields.slug }
        set { update { $0.slug = newValue } }
    }
    public var title: String {
        get { box.fields.title }
        set { update { $0.title = newValue } }
    }
    public var date: CalendarDate? {
        get { box.fields.date }
        set { update { $0.date = newValue } }
    }
    public var tags: [String] {
        get { box.fields.tags }
        set { update { $0.tags = newValue } }
    }
    public var summary: String? {
        get { box.fields.summary }
        set { update { $0.summary = newValue } }
    }
    public var fields: [String: Value] {
        get { box.fields.fields }
        set { update { $0.fields = newValue } }
    }
    public var html: String {
        get { box.fields.html }
        set { update { $0.html = newValue } }
    }
    public var headings: [Heading] {
        get { box.fields.headings }
        set { update { $0.headings = newValue } }
    }
    public var showsContents: Bool {
        get { box.fields.showsContents }
        set { update { $0.showsContents = newValue } }
    }
    public var codeLanguages: [String] {
        get { box.fields.codeLanguages }
        set { update { $0.codeLanguages = newValue } }
    }
    public var warnings: [Diagnostic] {
        get { box.fields.warnings }
        set { update { $0.warnings = newValue } }
    }
    public var holes: [NoteHole] {
        get { box.fields.holes }
        set { update { $0.holes = newValue } }
    }
    public var noteLinks: [LocalReference] {
        get { box.fields.noteLinks }
        set { update { $0.noteLinks = newValue } }
    }
    public var images: [LoadedNoteImage] {
        get { box.fields.images }
        set { update { $0.images = newValue } }
    }
    public var file: String {
        get { box.fields.file }
        set { update { $0.file = newValue } }
    }
    public var attachment: Attachment? {
        get { box.fields.attachment }
        set { update { $0.attachment = newValue } }
    }
    public var slugLine: Int? {
        get { box.fields.slugLine }
        set { update { $0.slugLine = newValue } }
    }
    public var tagsLine: Int? {
        get { box.fields.tagsLine }
        set { update { $0.tagsLine = newValue } }
    }

    /// Whether `other` is this note with another body, its front matter and file the same: what
    /// the model and the plan read of a note besides its rendered body (its URL, list order,
    /// tags, item, fields). A field added to `Fields` counts here unless `body` clears it.
    public func keepsShape(of other: Note) -> Bool {
        box === other.box || box.fields.shape == other.box.fields.shape
    }

    /// Whether a code block names a language (its page links the code's stylesheet).
    public var hasCode: Bool { !codeLanguages.isEmpty }

    /// A note's front matter `item`: the item it is shown with.
    public struct Attachment: Sendable, Hashable, Codable {
        public var collection: String
        public var slug: String
        /// The line of `item` in the front matter.
        public var line: Int?
    }
}

extension Note.Fields {
    /// The fields without what the body renders to (`Note.keepsShape`).
    var shape: Note.Fields {
        var f = self
        f.html = ""
        f.headings = []
        f.codeLanguages = []
        f.warnings = []
        f.holes = []
        f.noteLinks = []
        f.images = []
        return f
    }
}

/// Reads and renders the notes of a content tree.
public struct NoteLoader: Sendable {
    public let content: ContentTree
    /// Everything a note is rendered with besides its file: the renderer is made of it alone.
    public let settings: Settings
    /// Threads for reading notes.
    public let threads: Int
    public let markdown: MarkdownRenderer
    let imageSizes = ImageSizeCache()
    /// Notes loaded by an earlier build, and the digest of `settings` their keys start with.
    let cache: (notes: NoteCache, settings: ContentHash.Digest)?

    /// What a `Note` is made of besides its file's bytes and path. The note cache's key digests
    /// this whole value (`NoteCache.settingsDigest`), so a setting added here is in the key.
    public struct Settings: Sendable, Hashable, Codable {
        public var notesCollection: String?
        public var includeDrafts: Bool
        /// The path the site is served under; site-absolute links in notes are moved under it.
        public var rootPath: String
        public var markdown: MarkdownOptions
        public var labels: MarkdownLabels
        /// Ids headings must not take, sorted (a `Set`'s order, and so its encoding, differs
        /// between processes).
        public var reservedIDs: [String]
        /// Code blocks through `CodeHighlighter`.
        public var highlight: Bool
    }

    public var notesCollection: String? { settings.notesCollection }
    public var includeDrafts: Bool { settings.includeDrafts }
    public var rootPath: String { settings.rootPath }

    public init(
        content: ContentTree, notesCollection: String?, includeDrafts: Bool, rootPath: String = "/",
        threads: Int = Parallelism.cores,
        markdown: MarkdownOptions = MarkdownOptions(), words: InterfaceWords = .english,
        reservedIDs: Set<String> = [], highlight: Bool = false, cache: NoteCache? = nil
    ) {
        let settings = Settings(
            notesCollection: notesCollection, includeDrafts: includeDrafts, rootPath: rootPath, markdown: markdown,
            labels: MarkdownLabels(headingLink: words.headingLink, footnoteBack: words.footnoteBack, task: words.task),
            reservedIDs: reservedIDs.sorted(), highlight: highlight)
        self.init(content: content, settings: settings, threads: threads, cache: cache)
    }

    public init(content: ContentTree, settings: Settings, threads: Int = Parallelism.cores, cache: NoteCache? = nil) {
        self.content = content
        self.settings = settings
        self.threads = threads
        self.markdown = MarkdownRenderer(
            options: settings.markdown, rootPath: settings.rootPath,
            codeBlocks: settings.highlight ? CodeHighlighter() : PlainCodeBlocks(),
            labels: settings.labels, reservedIDs: Set(settings.reservedIDs))
        self.cache = cache.map { ($0, NoteCache.settingsDigest(settings)) }
    }

    /// All notes except drafts (unless asked), in path order; every problem reported. `alongside`
    /// runs on one of the loading threads (`parallelMap(alongside:)`), whatever happens.
    public func loadAll(alongside: @Sendable () -> Void = {}) throws(Diagnostics) -> [Note] {
        let results: [Result<Note?, Diagnostic>] = content.notes.parallelMap(
            threads: threads, minimumCount: 16, alongside: alongside
        ) { rel in
            Result { () throws(Diagnostic) in try load(rel) }
        }
        var notes: [Note] = []
        var problems: [Diagnostic] = []
        for r in results {
            switch r {
            case .success(let n): if let n { notes.append(n) }
            case .failure(let d): problems.append(d)
            }
        }
        problems += Self.duplicateSlugs(notes)
        if !problems.isEmpty { throw Diagnostics(problems) }
        return notes
    }

    /// Standalone notes sharing a slug (they would share a page).
    public static func duplicateSlugs(_ notes: [Note]) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        var seen: [String: Int] = [:]
        for i in notes.indices where notes[i].attachment == nil {
            let slug = notes[i].slug
            if let j = seen[slug] {
                // Reported at the note whose front matter chose the slug, if one did.
                let (at, other) = notes[i].fields["slug"] == nil && notes[j].fields["slug"] != nil ? (j, i) : (i, j)
                let origin = notes[at].fields["slug"] == nil ? "from its file name" : "from its front matter 'slug'"
                problems.append(
                    Diagnostic(
                        file: notes[at].file,
                        "duplicate note slug '\(Diagnostic.excerpt(slug))' (\(origin)): \(notes[other].file) has "
                            + "it too, and they would share a page"
                    ))
            }
            seen[slug] = i
        }
        return problems
    }

    /// Reads and renders the note at `relative` (a path under `content/`); nil for a draft left out.
    /// With a cache, a note whose file and settings it has seen is taken from it, its images
    /// sized again from their files (which the key does not cover).
    public func load(_ relative: String) throws(Diagnostic) -> Note? {
        let data = try content.read(relative)
        guard let cache else { return try render(relative, data) }
        let key = NoteCache.key(settings: cache.settings, bytes: data)
        guard let kept = cache.notes.lookup(relative, key: key) else {
            let note = try render(relative, data)
            cache.notes.keep(relative, key: key, note)
            return note
        }
        guard var note = kept else { return nil }
        note.images = try note.images.map { image throws(Diagnostic) in
            var image = image
            image.info = try imageInfo(image.image.reference, file: note.file, line: image.line)
            return image
        }
        return note
    }

    /// The note at `relative`, of bytes `data`, rendered.
    func render(_ relative: String, _ data: Data) throws(Diagnostic) -> Note? {
        let file = SourceLayout.contentFile(relative)
        guard let decoded = String(validating: data, as: UTF8.self) else {
            let bad = InvalidUTF8.first(in: data)
            throw Diagnostic(
                file: file, line: bad?.line, column: bad?.column,
                "\(bad?.message ?? "invalid UTF-8"): notes must be UTF-8 text")
        }
        // Lone CRs read as line ends here too, so that front matter's lines in messages are the parser's.
        let text = FrontMatter.withLoneCRsAsLF(decoded)
        let doc = try FrontMatter.parse(text, file: file)
        var front = NoteFrontMatter(file: file, text: text, fields: doc.fields)
        if try front.bool("draft") == true, !includeDrafts { return nil }
        let stem = SitePath.stem(of: relative)
        let slug = try front.string("slug") ?? Slug.make(stem)
        guard Slug.isSafeSegment(slug), !slug.utf8.contains(UInt8(ascii: "%")) else {
            throw front.problem("slug", "slug '\(slug)' cannot be a URL segment (\(Slug.segmentRule))")
        }
        let title = try front.string("title") ?? stem
        let date = try front.date()
        if let date { front.fields["date"] = .string(DateFormat.iso.format(date)) }
        let tags = try front.tags()
        let attachment = try front.attachment(notesCollection: notesCollection)
        let trusted = try front.bool("unsafeHTML") ?? false
        let showsContents = try front.bool("toc") ?? false
        let folder = SitePath.folder(of: relative)
        let context = MarkdownRenderer.Context(
            idPrefix: "\(slug)-", prefixHeadings: attachment != nil, html: trusted ? .trusted : nil,
            folder: folder)
        let rendered: RenderedMarkdown
        do { rendered = try markdown.render(doc.body, context) } catch {
            throw Diagnostic(file: file, line: error.line.map { $0 + doc.bodyStartLine - 1 }, error.message)
        }
        var note = Note(
            slug: slug, title: title, date: date, tags: tags, summary: try front.string("summary"),
            fields: front.fields,
            html: rendered.html, file: file, attachment: attachment,
            slugLine: front.line(of: "slug"), tagsLine: front.line(of: "tags"))
        try note.update { f throws(Diagnostic) in
            f.headings = rendered.headings
            f.showsContents = showsContents
            f.codeLanguages = rendered.codeLanguages
            f.holes = rendered.holes
            f.noteLinks = rendered.noteLinks.map { link in
                var link = link
                link.line =
                    link.line.map { $0 + doc.bodyStartLine - 1 } ?? Self.line(mentioning: link.written, in: doc)
                    ?? doc.bodyStartLine
                return link
            }
            f.images = try rendered.images.map { image throws(Diagnostic) in
                let line =
                    image.reference.line.map { $0 + doc.bodyStartLine - 1 }
                    ?? Self.line(mentioning: image.reference.written, in: doc) ?? doc.bodyStartLine
                return LoadedNoteImage(
                    image: image, info: try imageInfo(image.reference, file: file, line: line), line: line)
            }
            if let skipped = rendered.codeWarning {
                let more = skipped.count > 1 ? " (and \(skipped.count - 1) more code blocks of this note)" : ""
                f.warnings.append(
                    Diagnostic(
                        file: file, line: (skipped.line ?? 1) + doc.bodyStartLine - 1, skipped.message + more))
            }
            if !rendered.removed.isEmpty {
                let line = rendered.removed.lazy.compactMap { Self.line(of: $0, in: doc) }.first ?? doc.bodyStartLine
                f.warnings.append(
                    Diagnostic(
                        file: file, line: line,
                        "raw HTML removed by the allowlist: \(rendered.removed.joined(separator: ", "))"
                            + " (front matter 'unsafeHTML: true' keeps a trusted note's HTML as written)"))
            }
        }
        return note
    }

    /// A note image's file under `content/`, sized from its header; a missing file or a path
    /// that leaves `content/` is an error at the image's line.
    func imageInfo(_ reference: LocalReference, file: String, line: Int) throws(Diagnostic) -> ImageInfo {
        let at = SourceLocation(file: file, line: line)
        guard let path = reference.path else { throw Diagnostic(at, "image '\(reference.written)' leaves content/") }
        let relative: String
        switch ContentPath.resolve(path) {
        case .success(let r): relative = r
        case .failure(let e): throw Diagnostic(at, "image reference refused: \(e.message)")
        }
        let size = try imageSizes.size(of: relative, in: content, referencedAt: at)
        if ImageInfo.isResizable(relative), size.width * size.height > ImageRule.defaultMaxPixels {
            throw Diagnostic(
                at,
                "image '\(SourceLayout.contentFile(relative))' is \(size.width)×\(size.height) px, "
                    + "more than the limit of \(ImageRule.defaultMaxPixels) pixels: refused before decoding"
            )
        }
        return ImageInfo(source: relative, isExternal: false, width: size.width, height: size.height)
    }

    /// The file line of the first mention of what the allowlist removed (`<script>` → `<script`,
    /// `onclick="…"` → `onclick`), for the warning's location.
    static func line(of removed: String, in doc: FrontMatterDocument) -> Int? {
        line(
            mentioning: removed.hasPrefix("<") ? String(removed.dropLast()) : String(removed.prefix { $0 != "=" }),
            in: doc)
    }

    /// The file line of the first mention of `needle` in the note's body (any case).
    static func line(mentioning needle: String, in doc: FrontMatterDocument) -> Int? {
        guard !needle.isEmpty, let range = doc.body.range(of: needle, options: [.caseInsensitive]) else { return nil }
        return doc.bodyStartLine + doc.body[..<range.lowerBound].utf8.count(where: { $0 == UInt8(ascii: "\n") })
    }
}

/// A note's image naming a file under `content/`, sized, with its line in the note.
public struct LoadedNoteImage: Sendable, Hashable, Codable {
    public var image: NoteImage
    public var info: ImageInfo
    public var line: Int
}
