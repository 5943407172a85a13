import SiteCore
import SiteLoad
import SiteRender

// A collection's page kinds: its list pages and its items' pages.

/// One of a collection's list pages: a page of its cards, laid out.
struct ListPage: PageKind {
    var collection: Int
    /// From 0.
    var page: Int
    static let builtin: (name: String, text: String)? = ("list", BuiltinTheme.list)
    static let inSitemap = true
    var id: PageID { .list(self) }

    struct Body: PageBody {
        enum Key: String, TemplateKey {
            case collection, items, pagination, layout

            var holds: [any TemplateKey.Type] {
                switch self {
                case .collection: [CollectionView.Key.self]
                case .items: [ItemView.Key.self]
                case .pagination: [PaginationView.Key.self]
                case .layout: [LayoutView.Key.self]
                }
            }
        }
        var collection: CollectionView
        var items: [ItemRef]
        var pagination: PaginationView
        var layout: LayoutView

        func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding, _ reads: PageReads) {
            switch key {
            case .collection: o.put(e.collection(collection, reads))
            case .items: o.put(TemplateEncoding.list(items.map { e.item($0, reads) }))
            case .pagination: o.put(e.object(pagination))
            case .layout: o.put(e.object(layout))
            }
        }
    }

    func path(_ plan: SitePlan, _ model: SiteModel) -> String { model.collections[collection].listPaths[page] }
    func template(_ config: SiteConfig) -> String {
        config.collections[collection].listTemplate ?? Self.builtinName
    }
    func source(_ plan: SitePlan, _ model: SiteModel) -> String {
        "collection '\(model.collections[collection].config.name)' page \(page + 1)"
    }
    func lastModified(_ model: SiteModel) -> CalendarDate? { nil }

    func origin(_ plan: SitePlan, _ model: SiteModel) -> (at: SourceLocation, what: String)? {
        configuredPageOrigin(plan, model)
    }

    func content(_ v: ViewReader, at path: String) -> PageContent<Body> {
        let ci = collection, c = v.collection(ci)
        let slice = c.pages[page]
        let (items, layout) = v.cards(ci, c.order[slice.range])
        return v.page(
            title: c.config.title, path: path, section: c.config.name,
            Body(
                collection: v.collectionView(ci), items: items,
                pagination: PaginationView(number: slice.number, urls: c.listPaths), layout: layout))
    }
}

/// An item's page: the item, its attached notes and its neighbours in display order.
struct ItemPage: PageKind {
    var collection: Int
    var item: Int
    static let builtin: (name: String, text: String)? = ("detail", BuiltinTheme.detail)
    static let inSitemap = true
    var id: PageID { .item(self) }

    struct Body: PageBody {
        enum Key: String, TemplateKey {
            case collection, item, notes, prev, next

            var holds: [any TemplateKey.Type] {
                switch self {
                case .collection: [CollectionView.Key.self]
                case .item, .prev, .next: [ItemView.Key.self]
                case .notes: NoteView.recordKeys
                }
            }
        }
        var collection: CollectionView
        var item: ItemRef
        var notes: [NoteView]
        var prev: ItemRef?
        var next: ItemRef?

        func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding, _ reads: PageReads) {
            switch key {
            case .collection: o.put(e.collection(collection, reads))
            case .item: o.put(e.item(item, reads))
            case .notes: o.put(TemplateEncoding.list(notes.map(e.note)))
            case .prev: if let prev { o.put(e.item(prev, reads)) }
            case .next: if let next { o.put(e.item(next, reads)) }
            }
        }
    }

    // Read in place: an item page is planned for every item of every edit.
    func path(_ plan: SitePlan, _ model: SiteModel) -> String { model.collections[collection].itemURLs[item] ?? "" }
    func template(_ config: SiteConfig) -> String {
        config.collections[collection].detailTemplate ?? Self.builtinName
    }
    func source(_ plan: SitePlan, _ model: SiteModel) -> String { model.collections[collection].itemSources[item] }
    func lastModified(_ model: SiteModel) -> CalendarDate? { nil }

    func origin(_ plan: SitePlan, _ model: SiteModel) -> (at: SourceLocation, what: String)? {
        let c = model.collections[collection]
        if case .derived(let field) = c.config.slug {
            return (c.loaded.items[item].source, "the item's slug (made from its '\(field)')")
        }
        return (c.loaded.items[item].source, "the item's slug")
    }

    func content(_ v: ViewReader, at path: String) -> PageContent<Body> {
        let ci = collection, c = v.collection(ci), urls = v.urls
        let shown = c.loaded.items[item]
        let pos = c.position[item]
        var content = v.page(
            title: TemplateText.plain(shown.fields[c.config.card.title ?? "title"] ?? .string(shown.slug)),
            path: path, section: c.config.name,
            Body(
                collection: v.collectionView(ci), item: ItemRef(collection: ci, item: item),
                notes: c.notesByItem[item].map { v.noteView($0, html: true) },
                prev: pos > 0 ? ItemRef(collection: ci, item: c.order[pos - 1]) : nil,
                next: pos + 1 < c.order.count ? ItemRef(collection: ci, item: c.order[pos + 1]) : nil))
        if let f = c.config.cardImageField, let info = shown.images[f] {
            content.page.image =
                info.isExternal
                ? info.source : urls.absolute(c.itemViews[item].images[f]?.src ?? urls.content(info.source))
        }
        content.page.type = "article"
        content.page.codeStyles = v.codeStyles(for: c.notesByItem[item])
        return content
    }
}
