import SiteCore
import SiteLoad
import SiteRender

// A collection's terms' page kinds (`terms:`): the index of a rule's terms and each term's
// list pages, laid out as the collection's own list.

/// The index of a collection's terms of one rule: each term with its count.
struct TermsPage: PageKind {
    var collection: Int
    /// The rule's index in the collection's `terms`.
    var rule: Int
    static let builtin: (name: String, text: String)? = ("terms", BuiltinTheme.terms)
    static let inSitemap = true
    var id: PageID { .terms(self) }

    struct Body: PageBody {
        enum Key: String, TemplateKey {
            case collection, terms
            var holds: [any TemplateKey.Type] {
                switch self {
                case .collection: [CollectionView.Key.self]
                case .terms: [TagView.Key.self]
                }
            }
        }
        var collection: CollectionView
        var terms: [TagView]
        func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding, _ reads: PageReads) {
            switch key {
            case .collection: o.put(e.collection(collection, reads))
            case .terms: o.put(TemplateEncoding.list(terms.map { e.object($0) }))
            }
        }
    }

    func path(_ plan: SitePlan, _ model: SiteModel) -> String {
        model.urls.terms(model.collections[collection].terms[rule].rule)
    }
    func template(_ config: SiteConfig) -> String { Self.builtinName }
    func source(_ plan: SitePlan, _ model: SiteModel) -> String {
        let c = model.collections[collection]
        return "collection '\(c.config.name)' terms '\(c.terms[rule].rule.name)'"
    }
    func lastModified(_ model: SiteModel) -> CalendarDate? { nil }
    func origin(_ plan: SitePlan, _ model: SiteModel) -> (at: SourceLocation, what: String)? {
        configuredPageOrigin(plan, model)
    }

    func content(_ v: ViewReader, at path: String) -> PageContent<Body> {
        let c = v.collection(collection), list = c.terms[rule]
        return v.page(
            title: list.rule.title, path: path, section: c.config.name,
            Body(collection: v.collectionView(collection), terms: list.terms.map(v.termView)))
    }
}

/// One page of a term's items, in the collection's order and layout.
struct TermPage: PageKind {
    var collection: Int
    var rule: Int
    var term: Int
    /// From 0.
    var page: Int
    static let builtin: (name: String, text: String)? = ("term", BuiltinTheme.term)
    static let inSitemap = true
    var id: PageID { .term(self) }

    struct Body: PageBody {
        enum Key: String, TemplateKey {
            case collection, terms, term, items, pagination, layout
            var holds: [any TemplateKey.Type] {
                switch self {
                case .collection: [CollectionView.Key.self]
                case .terms: [TermsView.Key.self]
                case .term: [TagView.Key.self]
                case .items: [ItemView.Key.self]
                case .pagination: [PaginationView.Key.self]
                case .layout: [LayoutView.Key.self]
                }
            }
        }
        var collection: CollectionView
        var terms: TermsView
        var term: TagView
        var items: [ItemRef]
        var pagination: PaginationView
        var layout: LayoutView
        func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding, _ reads: PageReads) {
            switch key {
            case .collection: o.put(e.collection(collection, reads))
            case .terms: o.put(e.object(terms))
            case .term: o.put(e.object(term))
            case .items: o.put(TemplateEncoding.list(items.map { e.item($0, reads) }))
            case .pagination: o.put(e.object(pagination))
            case .layout: o.put(e.object(layout))
            }
        }
    }

    private func shown(_ model: SiteModel) -> TermList.Term { model.collections[collection].terms[rule].terms[term] }
    func path(_ plan: SitePlan, _ model: SiteModel) -> String { shown(model).paths[page] }
    func template(_ config: SiteConfig) -> String { Self.builtinName }
    func source(_ plan: SitePlan, _ model: SiteModel) -> String {
        let c = model.collections[collection]
        return "collection '\(c.config.name)' term '\(shown(model).name)' page \(page + 1)"
    }
    func lastModified(_ model: SiteModel) -> CalendarDate? { nil }

    /// The first item with the term.
    func origin(_ plan: SitePlan, _ model: SiteModel) -> (at: SourceLocation, what: String)? {
        let c = model.collections[collection]
        guard let i = shown(model).items.first else { return nil }
        return (c.loaded.items[i].source, "the term '\(shown(model).name)' of the field '\(c.terms[rule].rule.field)'")
    }

    func content(_ v: ViewReader, at path: String) -> PageContent<Body> {
        let c = v.collection(collection), list = c.terms[rule], shown = list.terms[term]
        let slice = shown.pages[page]
        let (items, layout) = v.cards(collection, shown.items[slice.range])
        return v.page(
            title: "\(list.rule.title): \(shown.name)", path: path, section: c.config.name,
            Body(
                collection: v.collectionView(collection),
                terms: TermsView(title: list.rule.title, url: v.urls.terms(list.rule)), term: v.termView(shown),
                items: items, pagination: PaginationView(number: slice.number, urls: shown.paths), layout: layout))
    }
}

/// The index a term page belongs to: its title and URL.
struct TermsView: Sendable, Hashable {
    enum Key: String, TemplateKey {
        case title, url
        var holds: [any TemplateKey.Type] { [] }
    }
    var title: String
    var url: String
}

extension TermsView: TemplateView {
    func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding) {
        switch key {
        case .title: o.put(title)
        case .url: o.put(url)
        }
    }
}

extension ViewReader {
    /// A term as its index and its items' pages show it.
    func termView(_ term: TermList.Term) -> TagView {
        TagView(name: term.name, url: term.paths[0], count: term.items.count, countText: countText(term.items.count))
    }

    /// The cards of `shown` (items of collection `ci`, in display order) and their layout: a
    /// masonry places each card.
    func cards(_ ci: Int, _ shown: ArraySlice<Int>) -> (items: [ItemRef], layout: LayoutView) {
        let c = collection(ci)
        var layout = layoutView(c)
        var items = shown.map { ItemRef(collection: ci, item: $0) }
        if case .masonry(let m) = c.config.layout {
            let styles = LayoutStyles.masonryPage(m, cards: shown.map { masonryCard(c, $0) })
            layout.style = styles.list
            for k in items.indices { items[k].layoutStyle = styles.cards[k] }
        }
        return (items, layout)
    }
}
