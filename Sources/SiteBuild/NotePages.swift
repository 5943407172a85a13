import SiteCore
import SiteLoad
import SiteRender

// The standalone notes' page kinds: their list pages, each note's page, the tag index and each
// tag's page.

/// One of the standalone notes' list pages, newest first.
struct NotesListPage: PageKind {
    /// From 0.
    var page: Int
    static let builtin: (name: String, text: String)? = ("notes", BuiltinTheme.notes)
    static let inSitemap = true
    var id: PageID { .notesList(self) }

    struct Body: PageBody {
        enum Key: String, TemplateKey {
            case collection, items, pagination

            var holds: [any TemplateKey.Type] {
                switch self {
                case .collection: [CollectionView.Key.self]
                case .items: NoteView.recordKeys
                case .pagination: [PaginationView.Key.self]
                }
            }
        }
        var collection: CollectionView
        var items: [NoteView]
        var pagination: PaginationView

        func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding, _ reads: PageReads) {
            switch key {
            case .collection: o.put(e.collection(collection, reads))
            case .items: o.put(TemplateEncoding.list(items.map(e.note)))
            case .pagination: o.put(e.object(pagination))
            }
        }
    }

    func path(_ plan: SitePlan, _ model: SiteModel) -> String { model.urls.notesList(page: page + 1) }
    func template(_ config: SiteConfig) -> String { config.notes.listTemplate ?? Self.builtinName }
    func source(_ plan: SitePlan, _ model: SiteModel) -> String { "notes page \(page + 1)" }
    func lastModified(_ model: SiteModel) -> CalendarDate? { nil }

    func origin(_ plan: SitePlan, _ model: SiteModel) -> (at: SourceLocation, what: String)? {
        configuredPageOrigin(plan, model)
    }

    func content(_ v: ViewReader, at path: String) -> PageContent<Body> {
        let slice = v.notePages[page]
        let notes = CollectionView(name: "notes", title: v.config.notes.title, url: v.notesListPath(1))
        return v.page(
            title: v.config.notes.title, path: v.notesListPath(slice.number), section: "notes",
            Body(
                collection: notes,
                items: v.standaloneNotes[slice.range].map { v.noteView($0, html: false) },
                pagination: PaginationView(
                    number: slice.number, urls: v.notePages.map { v.notesListPath($0.number) })))
    }
}

/// A standalone note's page.
struct NotePage: PageKind {
    var note: Int
    static let builtin: (name: String, text: String)? = ("note", BuiltinTheme.note)
    static let inSitemap = true
    var id: PageID { .note(self) }

    struct Body: PageBody {
        enum Key: String, TemplateKey {
            case note
            var holds: [any TemplateKey.Type] { NoteView.recordKeys }
        }
        var note: NoteView
        func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding, _ reads: PageReads) {
            switch key {
            case .note: o.put(e.note(note))
            }
        }
    }

    func path(_ plan: SitePlan, _ model: SiteModel) -> String { model.noteURLs[note] }
    func template(_ config: SiteConfig) -> String { config.notes.template ?? Self.builtinName }
    func source(_ plan: SitePlan, _ model: SiteModel) -> String { model.notes[note].file }
    func lastModified(_ model: SiteModel) -> CalendarDate? { model.notes[note].date }

    func origin(_ plan: SitePlan, _ model: SiteModel) -> (at: SourceLocation, what: String)? {
        let n = model.notes[note]
        return (
            SourceLocation(file: n.file, line: n.slugLine),
            n.slugLine == nil ? "the note's slug (from its file name)" : "the note's slug"
        )
    }

    func content(_ v: ViewReader, at path: String) -> PageContent<Body> {
        let shown = v.note(note)
        var content = v.page(
            title: shown.title, path: v.noteURL(note), section: "notes", Body(note: v.noteView(note, html: true)))
        content.page.description = shown.summary ?? v.config.description
        content.page.type = "article"
        content.page.codeStyles = v.codeStyles(for: [note])
        return content
    }
}

/// The tag index: every tag of the standalone notes.
struct TagsPage: PageKind {
    static let builtin: (name: String, text: String)? = ("tags", BuiltinTheme.tags)
    static let inSitemap = true
    var id: PageID { .tags(self) }

    struct Body: PageBody {
        enum Key: String, TemplateKey {
            case tags
            var holds: [any TemplateKey.Type] { [TagView.Key.self] }
        }
        var tags: [TagView]
        func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding, _ reads: PageReads) {
            switch key {
            case .tags: o.put(TemplateEncoding.list(tags.map { e.object($0) }))
            }
        }
    }

    func path(_ plan: SitePlan, _ model: SiteModel) -> String { model.urls.tags }
    func template(_ config: SiteConfig) -> String { Self.builtinName }
    func source(_ plan: SitePlan, _ model: SiteModel) -> String { "tag index" }
    func lastModified(_ model: SiteModel) -> CalendarDate? { nil }

    func origin(_ plan: SitePlan, _ model: SiteModel) -> (at: SourceLocation, what: String)? {
        configuredPageOrigin(plan, model)
    }

    func content(_ v: ViewReader, at path: String) -> PageContent<Body> {
        v.page(title: v.words.tags, path: v.urls.tags, section: "notes", Body(tags: v.tags.indices.map(v.tagView)))
    }
}

/// A tag's page: the standalone notes with the tag.
struct TagPage: PageKind {
    var tag: Int
    static let builtin: (name: String, text: String)? = ("tag", BuiltinTheme.tag)
    static let inSitemap = true
    var id: PageID { .tag(self) }

    struct Body: PageBody {
        enum Key: String, TemplateKey {
            case tag, items

            var holds: [any TemplateKey.Type] {
                switch self {
                case .tag: [TagView.Key.self]
                case .items: NoteView.recordKeys
                }
            }
        }
        var tag: TagView
        var items: [NoteView]
        func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding, _ reads: PageReads) {
            switch key {
            case .tag: o.put(e.object(tag))
            case .items: o.put(TemplateEncoding.list(items.map(e.note)))
            }
        }
    }

    func path(_ plan: SitePlan, _ model: SiteModel) -> String { model.urls.tag(slug: plan.tags[tag].slug) }
    func template(_ config: SiteConfig) -> String { Self.builtinName }
    func source(_ plan: SitePlan, _ model: SiteModel) -> String { "tag '\(plan.tags[tag].name)'" }
    func lastModified(_ model: SiteModel) -> CalendarDate? { nil }

    /// The tag's first note.
    func origin(_ plan: SitePlan, _ model: SiteModel) -> (at: SourceLocation, what: String)? {
        guard let n = plan.tags[tag].notes.first else { return nil }
        return (SourceLocation(file: model.notes[n].file, line: model.notes[n].tagsLine), "the tag")
    }

    func content(_ v: ViewReader, at path: String) -> PageContent<Body> {
        v.page(
            title: "\(v.words.tags): \(v.tags[tag].name)", path: v.tagPath(tag), section: "notes",
            Body(tag: v.tagView(tag), items: v.tags[tag].notes.map { v.noteView($0, html: false) }))
    }
}
