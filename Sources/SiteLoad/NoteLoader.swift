import Foundation
import SiteCore
import SiteFormats
import SiteHighlight
import SiteMarkdown

/// A Markdown note: rendered once, then shown on its own page or inside an item's page.
public struct Note: Sendable {
    public var slug: String
    public var title: String
    public var date: CalendarDate?
    public var tags: [String]
    public var summary: String?
    /// Every front matter field, for templates.
    public var fields: [String: Value]
    public var html: String
    /// Whether the note has a fenced code block with a language (its page links the code's stylesheet).
    public var hasCode = false
    /// `content/…` path, for messages.
    public var file: String
    /// The item the note belongs to: (collection, slug), resolved and checked by the caller.
    public var attachment: (collection: String, slug: String, line: Int?)?
}

/// Reads and renders the notes of a content tree.
public struct NoteLoader: Sendable {
    public let content: ContentTree
    public let notesCollection: String?
    public let includeDrafts: Bool
    /// The path the site is served under; site-absolute links in notes are moved under it.
    public let rootPath: String
    /// Threads for reading notes.
    public let threads: Int
    /// Renders fenced code blocks: `CodeHighlighter` when `highlight` is set.
    public let codeBlocks: any CodeBlockFormatter

    public init(content: ContentTree, notesCollection: String?, includeDrafts: Bool, rootPath: String = "/",
                threads: Int = Parallelism.cores, highlight: Bool = false) {
        self.threads = threads
        codeBlocks = highlight ? CodeHighlighter() : PlainCodeBlocks()
        self.content = content
        self.notesCollection = notesCollection
        self.includeDrafts = includeDrafts
        self.rootPath = rootPath
    }

    /// All notes except drafts (unless asked), in path order; every problem reported.
    public func loadAll() throws(Diagnostics) -> [Note] {
        let results: [Result<Note?, Diagnostic>] = content.notes.parallelMap(threads: threads, minimumCount: 16) { rel in
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
                problems.append(Diagnostic(file: notes[at].file, "duplicate note slug '\(slug)' (\(origin)): \(notes[other].file) has it too, and they would share a page"))
            }
            seen[slug] = i
        }
        return problems
    }

    /// Reads and renders the note at `relative` (a path under `content/`); nil for a draft left out.
    public func load(_ relative: String) throws(Diagnostic) -> Note? {
        let file = "content/\(relative)"
        let data = try content.read(relative)
        guard let text = String(validating: data, as: UTF8.self) else {
            let bad = InvalidUTF8.first(in: data)
            throw Diagnostic(file: file, line: bad?.line, column: bad?.column, "\(bad?.message ?? "invalid UTF-8"): notes must be UTF-8 text")
        }
        let doc = try FrontMatter.parse(text, file: file)
        var front = NoteFrontMatter(file: file, text: text, fields: doc.fields)
        if try front.bool("draft") == true, !includeDrafts { return nil }
        let stem = ((relative as NSString).lastPathComponent as NSString).deletingPathExtension
        let slug = try front.string("slug") ?? Slug.make(stem)
        guard Slug.isSafeSegment(slug), !slug.contains("%") else {
            throw front.problem("slug", "slug '\(slug)' cannot be a URL segment (\(Slug.segmentRule))")
        }
        let title = try front.string("title") ?? stem
        let date = try front.date()
        if let date { front.fields["date"] = .string(DateFormat.iso.format(date)) }
        let tags = try front.tags()
        let attachment = try front.attachment(notesCollection: notesCollection)
        let renderer = MarkdownRenderer(allowRawHTML: try front.bool("unsafeHTML") ?? false, rootPath: rootPath,
                                        codeBlocks: codeBlocks)
        let (html, hasCode) = renderer.renderNote(doc.body)
        return Note(slug: slug, title: title, date: date, tags: tags, summary: try front.string("summary"), fields: front.fields, html: html,
                    hasCode: hasCode, file: file, attachment: attachment)
    }
}
