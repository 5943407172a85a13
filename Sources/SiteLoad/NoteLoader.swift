import Foundation
import SiteCore
import SiteFormats
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

    public init(content: ContentTree, notesCollection: String?, includeDrafts: Bool, rootPath: String = "/", threads: Int = Parallelism.cores) {
        self.threads = threads
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
        var f = doc.fields
        func line(of key: String) -> Int? { Self.frontMatterLine(of: key, in: text) }
        func string(_ key: String) throws(Diagnostic) -> String? {
            guard let v = f[key], v != .null else { return nil }
            switch v {
            case .string(let s): return s
            case .int, .double, .bool: return TemplateText.plain(v)
            default: throw Diagnostic(file: file, line: line(of: key), "front matter '\(key)' must be text, found a \(v.typeName)")
            }
        }
        if case .bool(true) = f["draft"], !includeDrafts { return nil }
        if let d = f["draft"], d != .null, case .bool = d {} else if f["draft"] != nil, f["draft"] != .null {
            throw Diagnostic(file: file, line: line(of: "draft"), "front matter 'draft' must be true or false")
        }
        let stem = ((relative as NSString).lastPathComponent as NSString).deletingPathExtension
        let slug = try string("slug") ?? Slug.make(stem)
        guard Slug.isSafeSegment(slug), !slug.contains("%") else {
            throw Diagnostic(file: file, line: line(of: "slug"), "slug '\(slug)' cannot be a URL segment (\(Slug.segmentRule))")
        }
        let title = try string("title") ?? stem
        var date: CalendarDate? = nil
        if let v = f["date"], v != .null {
            switch v {
            case .date(let d): date = CalendarDate(d)
            case .string(let s):
                date = DateFormat("YYYY-MM-DD").parse(s)
                if date == nil { throw Diagnostic(file: file, line: line(of: "date"), "front matter 'date' must be a date like 2024-01-31, found \"\(s)\"") }
            default: throw Diagnostic(file: file, line: line(of: "date"), "front matter 'date' must be a date like 2024-01-31, found a \(v.typeName)")
            }
            if let date { f["date"] = .string(DateFormat.iso.format(date)) }
        }
        var tags: [String] = []
        switch f["tags"] {
        case nil, .some(.null): break
        case .some(.string(let s)): tags = [s]
        case .some(.array(let a)):
            for t in a {
                guard case .string(let s) = t else { throw Diagnostic(file: file, line: line(of: "tags"), "front matter 'tags' must be a list of texts") }
                tags.append(s)
            }
        default: throw Diagnostic(file: file, line: line(of: "tags"), "front matter 'tags' must be a list of texts")
        }
        var attachment: (String, String, Int?)? = nil
        if let ref = try string("item") {
            let parts = ref.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            if parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty {
                attachment = (parts[0], parts[1], line(of: "item"))
            } else if parts.count == 1, let c = notesCollection, !ref.isEmpty {
                attachment = (c, ref, line(of: "item"))
            } else {
                throw Diagnostic(file: file, line: line(of: "item"), notesCollection == nil
                    ? "front matter 'item' must be <collection>/<slug> (no notes collection is configured for a bare slug), found '\(ref)'"
                    : "front matter 'item' must be <collection>/<slug> or a slug, found '\(ref)'")
            }
        }
        let unsafe: Bool
        switch f["unsafeHTML"] {
        case nil, .some(.null): unsafe = false
        case .some(.bool(let b)): unsafe = b
        default: throw Diagnostic(file: file, line: line(of: "unsafeHTML"), "front matter 'unsafeHTML' must be true or false")
        }
        let html = MarkdownRenderer(allowRawHTML: unsafe, rootPath: rootPath).render(doc.body)
        return Note(slug: slug, title: title, date: date, tags: tags, summary: try string("summary"), fields: f, html: html,
                    file: file, attachment: attachment)
    }

    /// The 1-based line of a top-level `key:` in the front matter, for messages about its value.
    static func frontMatterLine(of key: String, in text: String) -> Int? {
        // Line by line through the front matter only (not the body): this runs for every note.
        let wanted = Array((key + ":").utf8)
        var n = 0
        var rest = text.utf8[...]
        while !rest.isEmpty {
            n += 1
            let end = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
            let line = rest[..<end]
            if n > 1, line.starts(with: "---".utf8) { return nil }
            if line.starts(with: wanted) { return n }
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
        }
        return nil
    }

}
