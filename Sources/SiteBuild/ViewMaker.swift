import SiteCore
import SiteLoad

/// What page views are made from, and the pieces every kind shares (the navigation, a
/// collection's tile, a note as lists show it …): pure, made once per build and shared
/// read-only by the rendering threads. Each page kind's view is made in `SitePlan.page` (the one
/// switch over page kinds) from these.
struct ViewMaker: Sendable {
    let config: SiteConfig
    let collections: [SortedCollection]
    let notes: [Note]
    let standaloneNotes: [Int]
    let urls: URLScheme
    let noteURLs: [String]
    let noteHTML: [String]
    let tags: [SitePlan.Tag]
    let notePages: [PageSlice]
    /// Each tagged note's tag links, made once: a note is listed on many pages.
    let tagLinks: [Int: [TagLink]]
    let words: InterfaceWords
    /// The URL of the code's stylesheet, for the pages that show code (`SiteInputs.styleCode`).
    let codeStyles: String?
    /// The navigation with no section current, and the section each link is (made once: every
    /// page shows it).
    private let navigation: [(section: String, link: SectionLink)]

    init(model: SiteModel, plan: SitePlan) {
        config = model.config
        collections = model.collections
        notes = model.notes
        standaloneNotes = model.standaloneNotes
        urls = model.urls
        noteURLs = model.noteURLs
        noteHTML = model.noteHTML
        tags = plan.tags
        notePages = plan.notePages
        words = model.config.words
        codeStyles = model.assetNames[SiteInputs.codeStylesPath].map(model.urls.asset)
        let urls = self.urls
        var navigation = model.collections.filter(\.config.menu).map { c in
            (c.config.name, SectionLink(title: c.config.title, url: urls.list(c.config, page: 1), current: false))
        }
        if !model.standaloneNotes.isEmpty {
            let link = SectionLink(title: model.config.notes.title, url: urls.notesList(page: 1), current: false)
            navigation.append(("notes", link))
        }
        self.navigation = navigation
        var links: [Int: [TagLink]] = [:]
        // A tag's link is made once per name (its slug and URL), then shared by its notes.
        var linkOf: [String: TagLink?] = [:]
        let known = Set(plan.tags.map(\.slug))
        for n in model.standaloneNotes where !model.notes[n].tags.isEmpty {
            links[n] = model.notes[n].tags.compactMap { name in
                if let made = linkOf[name] { return made }
                let slug = plan.tagSlugs[name] ?? Slug.make(name)
                let link = known.contains(slug) ? TagLink(name: name, url: urls.tag(slug: slug)) : nil
                linkOf[name] = link
                return link
            }
        }
        tagLinks = links
    }

    /// The code's stylesheet URL when one of `shown` (notes, by index) has code.
    func codeStyles(for shown: [Int]) -> String? { shown.contains { notes[$0].hasCode } ? codeStyles : nil }

    func tagPath(_ tagIndex: Int) -> String { urls.tag(slug: tags[tagIndex].slug) }

    func notesListPath(_ number: Int) -> String { urls.notesList(page: number) }

    /// A page's view: the navigation with `section` current, its meta and its body.
    func page(title: String, path: String, section: String?, _ body: PageContent.Body) -> PageContent {
        PageContent(
            sections: sections(current: section),
            page: PageMeta(title: title, url: path, canonical: urls.absolute(path), description: config.description),
            body: body)
    }

    /// The navigation, with `current` set on the section shown.
    func sections(current section: String?) -> [SectionLink] {
        navigation.map { n in
            var link = n.link
            link.current = n.section == section
            return link
        }
    }

    func countText(_ count: Int) -> String {
        words.items.text(count, language: config.language)
    }

    func tagView(_ tagIndex: Int) -> TagView {
        TagView(
            name: tags[tagIndex].name, url: tagPath(tagIndex), count: tags[tagIndex].notes.count,
            countText: countText(tags[tagIndex].notes.count))
    }

    func collectionView(_ ci: Int) -> CollectionView {
        let c = collections[ci]
        return CollectionView(
            name: c.config.name, title: c.config.title, url: urls.list(c.config, page: 1), count: c.loaded.items.count,
            description: c.config.description, meta: c.loaded.meta.isEmpty ? nil : c.loaded.meta,
            search: urls.searchIndex(c.config), feed: urls.feed(c.config),
            icon: c.loaded.icon.map { ImageView.plain($0, urls: urls) }, index: ci)
    }

    func layoutView(_ collection: SortedCollection) -> LayoutView {
        switch collection.config.layout {
        case .list: LayoutView(kind: "list")
        case .grid(let g): LayoutView(kind: "grid", css: LayoutStyles.grid(g, collection: collection.config.name))
        case .masonry(let m):
            LayoutView(kind: "masonry", css: LayoutStyles.masonry(m, collection: collection.config.name))
        }
    }

    /// What the masonry needs of an item: its card image's height ÷ width and its card text.
    func masonryCard(_ collection: SortedCollection, _ index: Int) -> MasonryCard {
        let item = collection.loaded.items[index]
        var aspect = 0.0
        if let f = collection.config.cardImageField, let info = item.images[f],
            let w = info.width, let h = info.height, w > 0
        {
            aspect = Double(h) / Double(w)
        }
        let text = collection.config.card.subtitle.flatMap { item.fields[$0] }.map(TemplateText.plain) ?? ""
        return MasonryCard(aspect: aspect, text: text)
    }

    func noteView(_ noteIndex: Int, html: Bool) -> NoteView {
        let note = notes[noteIndex]
        var view = NoteView(
            fields: note.fields, title: note.title, slug: note.slug, url: noteURLs[noteIndex],
            tags: note.tags,
            tagLinks: tagLinks[noteIndex] ?? [], date: note.date.map(DateFormat.iso.format),
            html: html ? noteHTML[noteIndex] : nil)
        view.hasCode = !note.codeLanguages.isEmpty
        if html {
            view.toc = TocEntry.tree(note.headings.map { ($0.level, $0.id, $0.text) })
            view.showToc = note.showsContents && !note.headings.isEmpty
        }
        return view
    }

    /// For each item of `collection`, its related lists (rule name, collection index, item indices), in
    /// rule order; a later rule of the same name replaces an earlier one.
    static func relatedLists(_ collection: SortedCollection, in all: [SortedCollection])
        -> [[(name: String, collection: Int, items: [Int])]]
    {
        var lists = [[(name: String, collection: Int, items: [Int])]](
            repeating: [],
            count: collection.loaded.items.count)
        for rule in collection.config.related {
            guard let oi = all.firstIndex(where: { $0.config.name == rule.collection }) else { continue }
            let other = all[oi]
            var byKey: [String: [Int]] = [:]
            for i in other.order {
                for k in Self.keys(rule.via, of: other.loaded.items[i]) { byKey[k, default: []].append(i) }
            }
            for (i, item) in collection.loaded.items.enumerated() {
                let matches = Self.keys(rule.key, of: item).flatMap { byKey[$0] ?? [] }
                guard !matches.isEmpty else { continue }
                lists[i].removeAll { $0.name == rule.name }
                lists[i].append((rule.name, oi, matches))
            }
        }
        return lists
    }

    /// The texts an item holds at `path`: one for a value, one per element for a list.
    static func keys(_ path: String, of item: Item) -> [String] {
        if path == "slug" { return [item.slug] }
        switch Derivation.lookup(path, in: item.fields) {
        case nil, .null?, .dictionary?: return []
        case .array(let a)?: return a.compactMap { v in v == .null ? nil : TemplateText.plain(v) }
        case let v?: return [TemplateText.plain(v)]
        }
    }

    /// A card's title (the configured field, else `title`, else `name`, else the slug) and subtitle.
    static func cardTexts(_ collection: SortedCollection, _ item: Item) -> (title: String, subtitle: String?) {
        let titleField = collection.config.card.title ?? (item.fields["title"] != nil ? "title" : "name")
        let subtitle = collection.config.card.subtitle.flatMap { item.fields[$0] }
            .flatMap { $0 == .null ? nil : TemplateText.plain($0) }
        return (TemplateText.plain(item.fields[titleField] ?? .string(item.slug)), subtitle)
    }

    /// An item's view: its fields, images, URL, card and field list (related lists are added
    /// by the model).
    static func itemView(_ collection: SortedCollection, _ index: Int, urls: URLScheme) -> ItemView {
        let item = collection.loaded.items[index]
        var images: [String: ImageView] = [:]
        for (field, info) in item.images {
            images[field] =
                collection.published(field, info)?.view(root: urls.root)
                ?? ImageView.plain(info, urls: urls)
        }
        let texts = cardTexts(collection, item)
        let card = CardView(
            title: texts.title, subtitle: texts.subtitle,
            image: collection.config.cardImageField.flatMap { images[$0] })
        let fieldList = item.fields.keys.sorted().compactMap { k -> (name: String, value: String)? in
            guard images[k] == nil, let v = item.fields[k] else { return nil }
            switch v {
            case .string, .int, .double, .bool, .date: return (k, TemplateText.plain(v))
            default: return nil
            }
        }
        return ItemView(
            fields: item.fields, images: images, slug: item.slug, url: collection.itemURLs[index],
            card: card, fieldList: fieldList,
            hasRelatedRules: !collection.config.related.isEmpty)
    }
}

extension ImageView {
    /// A file shown as it is: its URL, and its size when known.
    static func plain(_ info: ImageInfo, urls: URLScheme) -> ImageView {
        var v = ImageView(src: info.isExternal ? info.source : urls.content(info.source))
        if let w = info.width, let h = info.height {
            v.width = w
            v.height = h
        }
        return v
    }
}
