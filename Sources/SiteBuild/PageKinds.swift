import SiteCore
import SiteLoad

// Everything about page kinds: what they are, which pages of each a site has and in what order,
// and for each its path, template, source, inputs and view. A new kind is added here (and its
// path in `URLScheme`).

/// A page's kind and its place in the model: its identity, which rebuilds compare.
enum PageID: Sendable, Hashable {
    case home, notFound
    case page(Int)
    case list(collection: Int, page: Int)
    case item(collection: Int, item: Int)
    case notesList(page: Int)
    case note(Int)
    case tags
    case tag(Int)
}

extension SitePlan {
    /// Every page, in the site's order (the sitemap's): home, 404, the pages of their own, each
    /// collection's list pages then its item pages (in display order), the notes' list pages,
    /// the notes, the tag index and the tags.
    func views(_ model: SiteModel) -> [PageID] {
        var views: [PageID] = [.home, .notFound] + model.config.pages.indices.map { PageID.page($0) }
        for (ci, c) in model.collections.enumerated() {
            views += c.pages.indices.map { PageID.list(collection: ci, page: $0) }
            if c.config.detailURL != nil { views += c.order.map { PageID.item(collection: ci, item: $0) } }
        }
        if !model.standaloneNotes.isEmpty {
            views += notePages.indices.map { PageID.notesList(page: $0) }
            views += model.standaloneNotes.map { PageID.note($0) }
        }
        if !tags.isEmpty { views += [.tags] + tags.indices.map { PageID.tag($0) } }
        return views
    }

    /// The one switch over page kinds: a kind is described here and nowhere else — where its
    /// page goes, what renders it, what it is made from (for messages), what its bytes depend on
    /// and what it shows. What it shows is a recipe run by the renderer (`PlannedPage.content`),
    /// so the plan holds no page's view.
    func page(_ view: PageID, _ model: SiteModel, _ config: SiteConfig, _ urls: URLScheme) -> PlannedPage {
        switch view {
        case .home: homePage(model, urls)
        case .notFound: notFoundPage(urls)
        case .page(let n): ownPage(n, config, urls)
        case .list(let ci, let p): listPage(ci, p, model)
        case .item(let ci, let i): itemPage(ci, i, model)
        case .notesList(let p): notesListPage(p, model, config, urls)
        case .note(let n): notePage(n, model, config)
        case .tags: tagsPage(urls)
        case .tag(let t): tagPage(t, urls)
        }
    }

    private func homePage(_ model: SiteModel, _ urls: URLScheme) -> PlannedPage {
        let path = urls.home
        return PlannedPage(
            .home, path, "home", "home page",
        ) { v in
            let tiles = v.collectionIndices.filter { v.collection($0).config.menu }.map { ci in
                var tile = v.collectionView(ci)
                tile.countText = v.countText(v.collection(ci).loaded.items.count)
                return tile
            }
            return v.page(
                title: v.config.title, path: path, section: nil,
                .home(
                    collections: tiles,
                    notes: v.standaloneNotes.prefix(Self.homeNotes).map { v.noteView($0, html: false) }))
        }
    }

    private func notFoundPage(_ urls: URLScheme) -> PlannedPage {
        let path = urls.notFound
        var p = PlannedPage(.notFound, path, "404", "404 page") { v in
            var content = v.page(title: "404", path: path, section: nil, .notFound)
            content.page.description = nil
            return content
        }
        p.inSitemap = false
        return p
    }

    private func ownPage(_ pageIndex: Int, _ config: SiteConfig, _ urls: URLScheme) -> PlannedPage {
        let page = config.pages[pageIndex], path = urls.page(page)
        return PlannedPage(
            .page(pageIndex), path, page.template, "page '\(page.name)'"
        ) { v in
            let page = v.config.pages[pageIndex]
            var content = v.page(
                title: page.title, path: path, section: page.section,
                .data(
                    v.collectionsShown(byTemplate: page.template).map { ci in
                        var c = v.collectionView(ci)
                        c.items = v.collection(ci).order
                        return c
                    }))
            if let d = page.description { content.page.description = d }
            return content
        }
    }

    private func listPage(_ ci: Int, _ pageIndex: Int, _ model: SiteModel) -> PlannedPage {
        let config = model.collections[ci].config
        return PlannedPage(
            .list(collection: ci, page: pageIndex), model.collections[ci].listPaths[pageIndex],
            config.listTemplate,
            "collection '\(config.name)' page \(pageIndex + 1)"
        ) { v in
            let c = v.collection(ci)
            let slice = c.pages[pageIndex]
            var layout = v.layoutView(c)
            var items = c.order[slice.range].map { ItemRef(collection: ci, item: $0) }
            if case .masonry(let m) = c.config.layout {
                let styles = LayoutStyles.masonryPage(m, cards: c.order[slice.range].map { v.masonryCard(c, $0) })
                layout.style = styles.list
                for k in items.indices { items[k].layoutStyle = styles.cards[k] }
            }
            return v.page(
                title: c.config.title, path: c.listPaths[pageIndex], section: c.config.name,
                .list(
                    collection: v.collectionView(ci), items: items,
                    pagination: PaginationView(number: slice.number, urls: c.listPaths), layout: layout))
        }
    }

    private func itemPage(_ ci: Int, _ itemIndex: Int, _ model: SiteModel) -> PlannedPage {
        // Read in place: an item page is planned for every item of every edit.
        PlannedPage(
            .item(collection: ci, item: itemIndex), model.collections[ci].itemURLs[itemIndex] ?? "",
            model.collections[ci].config.detailTemplate ?? "detail",
            model.collections[ci].itemSources[itemIndex]
        ) { v in
            let c = v.collection(ci), urls = v.urls
            let item = c.loaded.items[itemIndex]
            let pos = c.position[itemIndex]
            var content = v.page(
                title: TemplateText.plain(
                    item.fields[c.config.card.title ?? "title"]
                        ?? .string(item.slug)),
                path: c.itemURLs[itemIndex] ?? "", section: c.config.name,
                .item(
                    collection: v.collectionView(ci), item: ItemRef(collection: ci, item: itemIndex),
                    notes: c.notesByItem[itemIndex].map { v.noteView($0, html: true) },
                    prev: pos > 0 ? ItemRef(collection: ci, item: c.order[pos - 1]) : nil,
                    next: pos + 1 < c.order.count ? ItemRef(collection: ci, item: c.order[pos + 1]) : nil))
            if let f = c.config.cardImageField, let info = item.images[f] {
                content.page.image =
                    info.isExternal
                    ? info.source : urls.absolute(c.itemViews[itemIndex].images[f]?.src ?? urls.content(info.source))
            }
            content.page.type = "article"
            content.page.codeStyles = v.codeStyles(for: c.notesByItem[itemIndex])
            return content
        }
    }

    private func notesListPage(
        _ pageIndex: Int, _ model: SiteModel, _ config: SiteConfig,
        _ urls: URLScheme
    ) -> PlannedPage {
        PlannedPage(
            .notesList(page: pageIndex), urls.notesList(page: pageIndex + 1), config.notes.listTemplate,
            "notes page \(pageIndex + 1)"
        ) { v in
            let slice = v.notePages[pageIndex]
            let notesCollection = CollectionView(name: "notes", title: v.config.notes.title, url: v.notesListPath(1))
            return v.page(
                title: v.config.notes.title, path: v.notesListPath(slice.number), section: "notes",
                .notesList(
                    collection: notesCollection,
                    items: v.standaloneNotes[slice.range].map { v.noteView($0, html: false) },
                    pagination: PaginationView(
                        number: slice.number, urls: v.notePages.map { v.notesListPath($0.number) })))
        }
    }

    private func notePage(_ noteIndex: Int, _ model: SiteModel, _ config: SiteConfig) -> PlannedPage {
        var p = PlannedPage(
            .note(noteIndex), model.noteURLs[noteIndex], config.notes.template, model.notes[noteIndex].file
        ) { v in
            let note = v.note(noteIndex)
            var content = v.page(
                title: note.title, path: v.noteURL(noteIndex), section: "notes",
                .note(v.noteView(noteIndex, html: true)))
            content.page.description = note.summary ?? v.config.description
            content.page.type = "article"
            content.page.codeStyles = v.codeStyles(for: [noteIndex])
            return content
        }
        p.lastModified = model.notes[noteIndex].date
        return p
    }

    private func tagsPage(_ urls: URLScheme) -> PlannedPage {
        PlannedPage(.tags, urls.tags, "tags", "tag index") { v in
            v.page(title: v.words.tags, path: v.urls.tags, section: "notes", .tags(v.tags.indices.map(v.tagView)))
        }
    }

    private func tagPage(_ tagIndex: Int, _ urls: URLScheme) -> PlannedPage {
        PlannedPage(
            .tag(tagIndex), urls.tag(slug: tags[tagIndex].slug), "tag", "tag '\(tags[tagIndex].name)'"
        ) { v in
            v.page(
                title: "\(v.words.tags): \(v.tags[tagIndex].name)", path: v.tagPath(tagIndex), section: "notes",
                .tag(v.tagView(tagIndex), items: v.tags[tagIndex].notes.map { v.noteView($0, html: false) }))
        }
    }
}
