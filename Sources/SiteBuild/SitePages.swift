import SiteCore
import SiteLoad
import SiteRender

// The site's own page kinds: the home page, the 404 page and the pages `site.yml` lists.

/// `/`: the collections' tiles and the newest notes.
struct HomePage: PageKind {
    static let builtin: (name: String, text: String)? = ("home", BuiltinTheme.home)
    static let inSitemap = true
    var id: PageID { .home(self) }

    struct Body: PageBody {
        enum Key: String, TemplateKey {
            case collections, notes

            var holds: [any TemplateKey.Type] {
                switch self {
                case .collections: [CollectionView.Key.self]
                case .notes: NoteView.recordKeys
                }
            }
        }
        var collections: [CollectionView]
        var notes: [NoteView]

        func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding, _ reads: PageReads) {
            switch key {
            case .collections: o.put(TemplateEncoding.list(collections.map { e.collection($0, reads) }))
            case .notes: o.put(TemplateEncoding.list(notes.map(e.note)))
            }
        }
    }

    func path(_ plan: SitePlan, _ model: SiteModel) -> String { model.urls.home }
    func template(_ config: SiteConfig) -> String { Self.builtinName }
    func source(_ plan: SitePlan, _ model: SiteModel) -> String { "home page" }
    func lastModified(_ model: SiteModel) -> CalendarDate? { nil }

    func origin(_ plan: SitePlan, _ model: SiteModel) -> (at: SourceLocation, what: String)? {
        configuredPageOrigin(plan, model)
    }

    func content(_ v: ViewReader, at path: String) -> PageContent<Body> {
        let tiles = v.collectionIndices.filter { v.collection($0).config.menu }.map { ci in
            var tile = v.collectionView(ci)
            tile.countText = v.countText(v.collection(ci).loaded.items.count)
            return tile
        }
        return v.page(
            title: v.config.title, path: path, section: nil,
            Body(
                collections: tiles,
                notes: v.standaloneNotes.prefix(SitePlan.homeNotes).map { v.noteView($0, html: false) }))
    }
}

/// `/404.html`: what a static server shows for a path it does not have.
struct NotFoundPage: PageKind {
    static let builtin: (name: String, text: String)? = ("404", BuiltinTheme.notFound)
    static let inSitemap = false
    var id: PageID { .notFound(self) }

    struct Body: PageBody {
        typealias Key = NoKeys
        func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding, _ reads: PageReads) {}
    }

    func path(_ plan: SitePlan, _ model: SiteModel) -> String { model.urls.notFound }
    func template(_ config: SiteConfig) -> String { Self.builtinName }
    func source(_ plan: SitePlan, _ model: SiteModel) -> String { "404 page" }
    func lastModified(_ model: SiteModel) -> CalendarDate? { nil }

    func origin(_ plan: SitePlan, _ model: SiteModel) -> (at: SourceLocation, what: String)? {
        configuredPageOrigin(plan, model)
    }

    func content(_ v: ViewReader, at path: String) -> PageContent<Body> {
        var content = v.page(title: "404", path: path, section: nil, Body())
        content.page.description = nil
        return content
    }
}

/// A page `site.yml` lists (`pages:`): its template with every collection at hand (`data`).
struct OwnPage: PageKind {
    /// Its place in `pages:`.
    var index: Int
    static let builtin: (name: String, text: String)? = nil
    static let inSitemap = true
    var id: PageID { .page(self) }

    struct Body: PageBody {
        enum Key: String, TemplateKey {
            /// The collections by their names (the configuration's).
            case data
            var holds: [any TemplateKey.Type] { [] }
        }
        var collections: [CollectionView]
        func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding, _ reads: PageReads) {
            switch key {
            case .data: o.put(e.data(collections, reads))
            }
        }
    }

    func path(_ plan: SitePlan, _ model: SiteModel) -> String { model.urls.page(model.config.pages[index]) }
    func template(_ config: SiteConfig) -> String { config.pages[index].template }
    func source(_ plan: SitePlan, _ model: SiteModel) -> String { "page '\(model.config.pages[index].name)'" }
    func lastModified(_ model: SiteModel) -> CalendarDate? { nil }

    func origin(_ plan: SitePlan, _ model: SiteModel) -> (at: SourceLocation, what: String)? {
        configuredPageOrigin(plan, model)
    }

    func content(_ v: ViewReader, at path: String) -> PageContent<Body> {
        let page = v.config.pages[index]
        var content = v.page(
            title: page.title, path: path, section: page.section,
            Body(
                collections: v.collectionsShown(byTemplate: page.template).map { ci in
                    var c = v.collectionView(ci)
                    c.items = v.collection(ci).order
                    return c
                }))
        if let d = page.description { content.page.description = d }
        return content
    }
}
