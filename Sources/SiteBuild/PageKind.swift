import SiteCore
import SiteLoad
import SiteRender

// A page kind is one declaration (a type conforming to `PageKind`, one per kind, in
// `SitePages.swift`, `CollectionPages.swift` and `NotePages.swift`): its template, built-in
// template, path, source, the value a message about its path points at, and its view with the
// keys its template sees. The plan, the template check, the encoder and the theme read the
// declarations; a kind that misses a part does not compile. The switches below only dispatch.

/// One kind of page, declared once.
protocol PageKind: Sendable, Hashable {
    /// What its template sees beside `site` and `page` (`PageBody`: keys encoded by an
    /// exhaustive switch).
    associatedtype Body: PageBody
    /// The template its pages render when the configuration names none, and that template's
    /// text in the built-in theme (nil: the configuration names the template of every page).
    static var builtin: (name: String, text: String)? { get }
    /// The page's identity among the site's pages, which rebuilds compare.
    var id: PageID { get }
    /// Where the page goes (from `URLScheme`).
    func path(_ plan: SitePlan, _ model: SiteModel) -> String
    /// The template that renders it.
    func template(_ config: SiteConfig) -> String
    /// What it is made from, for messages ("collection 'photos' page 2", a note's file).
    func source(_ plan: SitePlan, _ model: SiteModel) -> String
    /// Where a message about a name of its path points, and what made that name ("the item's
    /// slug"; nil: nothing to point at).
    func origin(_ plan: SitePlan, _ model: SiteModel) -> (at: SourceLocation, what: String)?
    /// What the page shows, made when it renders, reading the model through `v` (which records
    /// what it read): `path` is the planned one.
    func content(_ v: ViewReader, at path: String) -> PageContent<Body>
    /// The sitemap's `lastmod` (nil: none).
    func lastModified(_ model: SiteModel) -> CalendarDate?
    /// Whether the sitemap lists it.
    static var inSitemap: Bool { get }
}

extension PageKind {
    /// The page as the plan holds it: its path, template and source, and the recipe of its view.
    func planned(_ plan: SitePlan, _ model: SiteModel) -> PlannedPage {
        let path = path(plan, model)
        var p = PlannedPage(id, path, template(model.config), source(plan, model)) { v in
            self.content(v, at: path)
        }
        p.lastModified = lastModified(model)
        p.inSitemap = Self.inSitemap
        return p
    }

    /// `origin` for a page whose path comes from `site.yml` (or its defaults), not from a value
    /// of the data or the notes: the message names the page.
    func configuredPageOrigin(_ plan: SitePlan, _ model: SiteModel) -> (at: SourceLocation, what: String) {
        (SourceLocation(file: SiteConfig.fileName), "the page \(source(plan, model))")
    }

    /// The built-in template's name, which the configuration's template defaults to.
    static var builtinName: String { builtin?.name ?? "" }
}

/// A page by its kind and its place in the model: its identity, which rebuilds compare.
enum PageID: Sendable, Hashable {
    case home(HomePage)
    case notFound(NotFoundPage)
    case page(OwnPage)
    case list(ListPage)
    case item(ItemPage)
    case notesList(NotesListPage)
    case note(NotePage)
    case tags(TagsPage)
    case tag(TagPage)
    case terms(TermsPage)
    case term(TermPage)

    /// The page's declaration.
    var page: any PageKind {
        switch self {
        case .home(let p): p
        case .notFound(let p): p
        case .page(let p): p
        case .list(let p): p
        case .item(let p): p
        case .notesList(let p): p
        case .note(let p): p
        case .tags(let p): p
        case .tag(let p): p
        case .terms(let p): p
        case .term(let p): p
        }
    }

    /// Every kind, for what is known of all kinds at once (the built-in theme, the names
    /// templates may use). A kind's case here follows from its `PageID` case (`kind`).
    enum Kind: CaseIterable {
        case home, notFound, page, list, item, notesList, note, tags, tag, terms, term

        var declaration: any PageKind.Type {
            switch self {
            case .home: HomePage.self
            case .notFound: NotFoundPage.self
            case .page: OwnPage.self
            case .list: ListPage.self
            case .item: ItemPage.self
            case .notesList: NotesListPage.self
            case .note: NotePage.self
            case .tags: TagsPage.self
            case .tag: TagPage.self
            case .terms: TermsPage.self
            case .term: TermPage.self
            }
        }
    }

    var kind: Kind {
        switch self {
        case .home: .home
        case .notFound: .notFound
        case .page: .page
        case .list: .list
        case .item: .item
        case .notesList: .notesList
        case .note: .note
        case .tags: .tags
        case .tag: .tag
        case .terms: .terms
        case .term: .term
        }
    }
}

extension PageID.Kind {
    /// The built-in theme's page templates by name, from the kinds' declarations.
    static var builtinTemplates: [String: String] {
        Dictionary(uniqueKeysWithValues: allCases.compactMap { $0.declaration.builtin })
    }
}

extension BuiltinTheme {
    /// The built-in theme's templates: its partials and each page kind's template.
    public static let templates: [String: String] = partials.merging(PageID.Kind.builtinTemplates) { partial, _ in
        partial
    }
}

extension PageKind {
    /// The keys of its body (what its template sees beside `site` and `page`).
    static var bodyKey: any TemplateKey.Type { Body.Key.self }
}

extension SitePlan {
    /// Every page, in the site's order (the sitemap's): home, 404, the pages of their own, each
    /// collection's list pages, its item pages (in display order) and its terms' pages (each
    /// rule's index, then each term's pages), the notes' list pages,
    /// the notes, the tag index and the tags.
    func plannedPages(_ model: SiteModel) -> [PlannedPage] {
        var pages = [HomePage().planned(self, model), NotFoundPage().planned(self, model)]
        pages += model.config.pages.indices.map { OwnPage(index: $0).planned(self, model) }
        for (ci, c) in model.collections.enumerated() {
            pages += c.pages.indices.map { ListPage(collection: ci, page: $0).planned(self, model) }
            if c.config.detailURL != nil {
                pages += c.order.map { ItemPage(collection: ci, item: $0).planned(self, model) }
            }
            for (ri, list) in c.terms.enumerated() {
                pages.append(TermsPage(collection: ci, rule: ri).planned(self, model))
                for (ti, term) in list.terms.enumerated() {
                    pages += term.pages.indices.map {
                        TermPage(collection: ci, rule: ri, term: ti, page: $0).planned(self, model)
                    }
                }
            }
        }
        if !model.standaloneNotes.isEmpty {
            pages += notePages.indices.map { NotesListPage(page: $0).planned(self, model) }
            pages += model.standaloneNotes.map { NotePage(note: $0).planned(self, model) }
        }
        if !tags.isEmpty {
            pages += [TagsPage().planned(self, model)] + tags.indices.map { TagPage(tag: $0).planned(self, model) }
        }
        return pages
    }
}
