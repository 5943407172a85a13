import SiteCore
import SiteLoad
import SiteRender

/// What page views are made from, and the pieces every kind shares (the navigation, a
/// collection's tile, a note as lists show it …): pure, made once per build and shared
/// read-only by the rendering threads. Its parts are private to this file: a page's view reads
/// them only through a `ViewReader`, which records each part it hands out (`ModelPart`), so
/// what a page depends on is what its view read, never a list kept by hand.
struct ViewMaker: Sendable {
    fileprivate let config: SiteConfig
    fileprivate let collections: [SortedCollection]
    fileprivate let notes: [Note]
    fileprivate let standaloneNotes: [Int]
    fileprivate let urls: URLScheme
    fileprivate let noteURLs: [String]
    fileprivate let noteHTML: [String]
    fileprivate let tags: [SitePlan.Tag]
    fileprivate let notePages: [PageSlice]
    /// Each tagged note's tag links, made once: a note is listed on many pages.
    fileprivate let tagLinks: [Int: [TagLink]]
    fileprivate let templates: TemplateLibrary
    /// What is the same on every page: `site`, the navigation, the code's stylesheet.
    let siteWide: SiteWide

    /// The site-wide part of every page. Hashable as a whole, so that its version
    /// (`PartVersions`) covers every value in it, including one added later.
    struct SiteWide: Sendable, Hashable, Encodable {
        /// What every page's `site` holds (its navigation is the page's own).
        var site: SiteView
        /// The navigation with no section current, and the section each link is (made once:
        /// every page shows it).
        var navigation: [Section]
        /// The URL of the code's stylesheet, for the pages that show code (`SiteInputs.styleCode`).
        var codeStyles: String?

        struct Section: Sendable, Hashable, Encodable {
            var section: String
            var link: SectionLink
        }
    }

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
        templates = model.templates
        let urls = self.urls, config = model.config
        var navigation = model.collections.filter(\.config.menu).map { c in
            SiteWide.Section(
                section: c.config.name,
                link: SectionLink(title: c.config.title, url: urls.list(c.config, page: 1), current: false))
        }
        if !model.standaloneNotes.isEmpty {
            let link = SectionLink(title: config.notes.title, url: urls.notesList(page: 1), current: false)
            navigation.append(SiteWide.Section(section: "notes", link: link))
        }
        let site = SiteView(
            title: config.title, language: config.language, root: urls.root, baseURL: config.baseURL.description,
            notesURL: urls.notesList(page: 1), notesTitle: config.notes.title, words: config.words,
            description: config.description,
            feed: model.feedNotes.isEmpty ? nil : urls.notesFeed,
            asset: AssetLinks(names: model.assetNames, root: urls.root),
            tags: plan.tags.isEmpty ? nil : urls.tags)
        siteWide = SiteWide(
            site: site, navigation: navigation,
            codeStyles: model.assetNames[SiteInputs.codeStylesPath].map(model.urls.asset))
        tagLinks = plan.tagLinks
    }

    /// The navigation, with `current` set on the section shown.
    func sections(current section: String?) -> [SectionLink] {
        siteWide.navigation.map { n in
            var link = n.link
            link.current = n.section == section
            return link
        }
    }
}

extension ViewMaker {
    /// Each part's version in this model: a `StableDigest` of everything the part holds, the
    /// same in every process, so a later build can compare it (`BuildRecord`). What was loaded
    /// (a collection's data, a note) is digested once when it is (`LoadedDigests`: a session
    /// digests again only what it loaded again); what the model adds to it is digested here, so
    /// this is the one place that must know what a part holds (`SiteWide` is digested whole).
    /// `change`: after `.bodies`, only those notes' versions are taken again, the others are
    /// `previous`'s (the model's other parts are those of the pass before).
    func versions(
        loaded: inout LoadedDigests, threads: Int, change: ModelChange = .remade, previous: PartVersions? = nil
    ) -> PartVersions {
        if case .bodies(let edited) = change, let previous {
            loaded.update(notes: notes, only: edited, threads: threads)
            var versions = previous
            versions.site = StableDigest.of(siteWide)
            for n in edited { versions.notes[self.notes[n].file] = noteVersion(n, loaded: loaded) }
            return versions
        }
        loaded.update(collections: collections.map(\.loaded), notes: notes, threads: threads)
        var collections: [String: UInt64] = [:]
        for c in self.collections {
            var d = StableDigest()
            d.combine(loaded.collections[c.config.name] ?? 0)
            for attached in c.notesByItem {
                d.combine(attached.count)
                for n in attached { d.combine(self.notes[n].file) }
            }
            d.combine(loaded.itemViews(of: c))
            collections[c.config.name] = d.value
        }
        var notes: [String: UInt64] = [:]
        notes.reserveCapacity(self.notes.count)
        for n in self.notes.indices { notes[self.notes[n].file] = noteVersion(n, loaded: loaded) }
        var standalone = StableDigest()
        standalone.combine(standaloneNotes.map { self.notes[$0].file })
        standalone.combine(notePages)
        return PartVersions(
            site: StableDigest.of(siteWide), collections: collections, notes: notes, standalone: standalone.value,
            tags: tagsDigest)
    }

    /// Note `n`'s version: what was loaded, and what its views show besides: its URL, its tag
    /// links and, for one that links other notes or shows local images, its HTML with those
    /// resolved (which changes with them: a slug, a photo resized in the background).
    private func noteVersion(_ n: Int, loaded: LoadedDigests) -> UInt64 {
        var d = StableDigest()
        d.combine(loaded.notes[notes[n].file] ?? 0)
        d.combine(noteURLs[n])
        // A tag link's two fields directly (`LoadedDigestsTests` keeps this list whole):
        // thousands of tagged notes are digested on every pass of a session.
        for link in tagLinks[n] ?? [] {
            d.combine(link.name)
            d.combine(link.url)
        }
        if !notes[n].holes.isEmpty { d.combine(noteHTML[n]) }
        return d.value
    }

    /// The tags' digest: each one's name, slug and notes by file (which do not move when others
    /// come), directly (`LoadedDigestsTests` keeps the list of fields whole): a session takes it
    /// on every pass.
    private var tagsDigest: UInt64 {
        var d = StableDigest()
        d.combine(tags.count)
        for tag in tags {
            d.combine(tag.name)
            d.combine(tag.slug)
            d.combine(tag.notes.count)
            for n in tag.notes { d.combine(notes[n].file) }
        }
        return d.value
    }
}

/// The digests of what was loaded (`StableDigest`), by collection name and note file: made
/// once per load, kept by a session across its passes (it forgets those it loads again).
struct LoadedDigests: Sendable {
    var collections: [String: UInt64] = [:]
    var notes: [String: UInt64] = [:]
    /// Each collection's item views' digest, with the token of the views it is of.
    private var itemViewDigests: [String: (token: UInt64, digest: UInt64)] = [:]

    /// The digest of `c`'s item views, taken again only when they were made again.
    mutating func itemViews(of c: SortedCollection) -> UInt64 {
        if let kept = itemViewDigests[c.config.name], kept.token == c.itemViewsToken { return kept.digest }
        let digest = StableDigest.of(c.itemViews)
        itemViewDigests[c.config.name] = (c.itemViewsToken, digest)
        return digest
    }

    /// Digests what has none yet, on every core (10,000 notes' HTML).
    mutating func update(collections loaded: [LoadedCollection], notes: [Note], threads: Int) {
        for c in loaded where collections[c.config.name] == nil {
            collections[c.config.name] = StableDigest.of(LoadedData(c))
        }
        update(notes: notes, only: Array(notes.indices), threads: threads)
    }

    /// Digests the notes at `only` that have none yet.
    mutating func update(notes: [Note], only: [Int], threads: Int) {
        let missing = only.filter { self.notes[notes[$0].file] == nil }
        let made = missing.parallelMap(threads: threads, minimumCount: 64) { StableDigest.of(notes[$0]) }
        for (k, n) in missing.enumerated() { self.notes[notes[n].file] = made[k] }
    }

    /// What a collection loaded, without its configuration (which the record's settings and a
    /// session's generation cover). `LoadedDigestsTests` fails when `LoadedCollection` gains a
    /// property, so that this list is kept with it.
    struct LoadedData: Encodable {
        var items: [Item]
        var meta: [String: Value]
        var icon: ImageInfo?

        init(_ c: LoadedCollection) {
            items = c.items
            meta = c.meta
            icon = c.icon
        }
    }
}

/// What one page's view reads of the model: every accessor records the part it reads in the
/// page's `PageReads` (the page is rendered again when one of them changes).
struct ViewReader {
    fileprivate let maker: ViewMaker
    let reads: PageReads

    init(_ maker: ViewMaker, _ reads: PageReads) {
        self.maker = maker
        self.reads = reads
    }

    var config: SiteConfig { reads.record(.site); return maker.config }
    var urls: URLScheme { reads.record(.site); return maker.urls }
    var words: InterfaceWords { reads.record(.site); return maker.config.words }
    /// How many collections there are (the configuration's).
    var collectionIndices: Range<Int> { reads.record(.site); return maker.collections.indices }

    func collection(_ ci: Int) -> SortedCollection {
        let c = maker.collections[ci]
        reads.record(.collection(c.config.name))
        return c
    }

    /// The collections a page rendered with `template` can show through `data.<name>`
    /// (`TemplateLibrary.dataCollections`), by index; every one when it may show any (`data`
    /// as a whole, `count(data)`). Another entry of `data` prints nothing with any of them.
    func collectionsShown(byTemplate template: String) -> [Int] {
        let all = Array(collectionIndices)
        guard let names = maker.templates.dataCollections(of: template) else { return all }
        return all.filter { names.contains(maker.collections[$0].config.name) }
    }

    func note(_ n: Int) -> Note {
        reads.record(.note(maker.notes[n].file))
        return maker.notes[n]
    }

    func noteURL(_ n: Int) -> String {
        reads.record(.note(maker.notes[n].file))
        return maker.noteURLs[n]
    }

    /// The standalone notes in order, and their list pages.
    var standaloneNotes: [Int] { reads.record(.notes); return maker.standaloneNotes }
    var notePages: [PageSlice] { reads.record(.notes); return maker.notePages }
    var tags: [SitePlan.Tag] { reads.record(.tags); return maker.tags }

    /// The code's stylesheet URL when one of `shown` (notes, by index) has code.
    func codeStyles(for shown: [Int]) -> String? {
        shown.contains { note($0).hasCode } ? siteWide.codeStyles : nil
    }

    var siteWide: ViewMaker.SiteWide { reads.record(.site); return maker.siteWide }

    func tagPath(_ tagIndex: Int) -> String { urls.tag(slug: tags[tagIndex].slug) }

    func notesListPath(_ number: Int) -> String { urls.notesList(page: number) }

    /// A page's view: the navigation with `section` current, its meta and its body.
    func page<Body: PageBody>(title: String, path: String, section: String?, _ body: Body) -> PageContent<Body> {
        reads.record(.site)
        return PageContent(
            sections: maker.sections(current: section),
            page: PageMeta(
                title: title, url: path, canonical: maker.urls.absolute(path), description: maker.config.description),
            body: body)
    }

    func countText(_ count: Int) -> String {
        words.items.text(count, language: config.language)
    }

    func tagView(_ tagIndex: Int) -> TagView {
        let tag = tags[tagIndex]
        return TagView(
            name: tag.name, url: tagPath(tagIndex), count: tag.notes.count, countText: countText(tag.notes.count))
    }

    func collectionView(_ ci: Int) -> CollectionView {
        let c = collection(ci), urls = self.urls
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
        let note = self.note(noteIndex)
        var view = NoteView(
            fields: note.fields, title: note.title, slug: note.slug, url: maker.noteURLs[noteIndex],
            tags: note.tags,
            tagLinks: maker.tagLinks[noteIndex] ?? [], date: note.date.map(DateFormat.iso.format),
            html: html ? maker.noteHTML[noteIndex] : nil)
        view.hasCode = !note.codeLanguages.isEmpty
        if html {
            view.toc = TocEntry.tree(note.headings.map { ($0.level, $0.id, $0.text) })
            view.showToc = note.showsContents && !note.headings.isEmpty
        }
        return view
    }
}

extension ViewMaker {
    /// For each item of `collection`, its related lists (rule name, collection index, item indices), in
    /// rule order; a later rule of the same name replaces an earlier one.
    static func relatedLists(_ collection: SortedCollection, in all: [SortedCollection]) -> [[ItemView.Related]] {
        var lists = [[ItemView.Related]](
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
                lists[i].append(ItemView.Related(name: rule.name, collection: oi, items: matches))
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
    static func itemView(_ collection: SortedCollection, _ index: Int, urls: URLScheme, config: SiteConfig) -> ItemView
    {
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
        // A field of terms is shown as its terms' links (`termLists`), not as text.
        let terms = collection.config.terms
        let fieldList = item.fields.keys.sorted().compactMap { k -> ItemView.Field? in
            guard images[k] == nil, !terms.contains(where: { $0.field == k }), let v = item.fields[k] else {
                return nil
            }
            switch v {
            case .string, .int, .double, .bool, .date: return ItemView.Field(name: k, value: TemplateText.plain(v))
            default: return nil
            }
        }
        var view = ItemView(
            fields: item.fields, images: images, slug: item.slug, url: collection.itemURLs[index],
            card: card, fieldList: fieldList,
            hasRelatedRules: !collection.config.related.isEmpty)
        view.terms = collection.terms.map { list in
            ItemView.Terms(
                name: list.rule.name, title: list.rule.title, url: urls.terms(list.rule),
                links: list.ofItem[index].map { k in
                    let term = list.terms[k]
                    return TagView(
                        name: term.name, url: term.paths[0], count: term.items.count,
                        countText: config.words.items.text(term.items.count, language: config.language))
                })
        }
        return view
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
