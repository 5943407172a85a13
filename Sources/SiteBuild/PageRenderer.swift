import Foundation
import SiteCore
import SiteLoad
import SiteRender
import SiteWrite

/// Renders every page of the plan and writes each as soon as it is rendered, so memory holds
/// the data model, never the rendered site. Everything here is immutable once made, shared
/// read-only by the rendering threads.
final class PageRenderer: Sendable {
    let config: SiteConfig
    let templates: TemplateLibrary
    /// Threads for rendering (`BuildOptions.threads`).
    let threads: Int
    let collections: [CollectionPages]
    let notes: [Note]
    let standaloneNotes: [Int]
    let urls: URLScheme
    let noteURLs: [String]
    /// Every page of the site.
    let plan: SitePlan
    var tags: [SitePlan.Tag] { plan.tags }
    let assetNames: [String: String]
    /// Each tagged note's tag links, made once: a note is listed on many pages.
    let tagLinks: [Int: [TagLink]]
    let words: InterfaceWords
    /// Views into template values (the render layer's edge).
    let encoding: TemplateEncoding

    /// `sharesItemValues` false: every page converts the items it shows anew, and objects keep
    /// every entry with its name (what the differential tests' swift-mustache reference needs).
    init(model: SiteModel, plan: SitePlan, sharesItemValues: Bool = true) {
        self.plan = plan
        config = model.config
        templates = model.inputs.templates
        threads = model.inputs.threads
        collections = model.collections
        notes = model.notes
        standaloneNotes = model.standaloneNotes
        urls = model.urls
        noteURLs = model.noteURLs
        assetNames = model.inputs.assetNames
        words = model.config.words
        let urls = self.urls, tags = plan.tags
        var links: [Int: [TagLink]] = [:]
        // A tag's link is made once per name (its slug and URL), then shared by its notes.
        var linkOf: [String: TagLink?] = [:]
        let known = Set(tags.map(\.slug))
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
        // `{{#site.asset}}photos.css{{/site.asset}}`: the file's fingerprinted URL (its plain one
        // for other files).
        let names = assetNames
        let site = SiteView(title: config.title, language: config.language, root: urls.root, baseURL: config.baseURL.description,
                            notesURL: urls.notesList(page: 1), notesTitle: config.notes.title, words: words, description: config.description,
                            feed: model.feedNotes.isEmpty ? nil : urls.notesFeed,
                            asset: TemplateLibrary.templateFunction { path in urls.asset(names[path] ?? path) },
                            tags: tags.isEmpty ? nil : urls.tags)
        let templateNames = sharesItemValues ? model.inputs.templates.compiled.names : model.inputs.templates.compiled.names.keepingAllEntries
        encoding = TemplateEncoding(names: templateNames, site: site, items: model.collections.map(\.itemViews),
                                    shared: sharesItemValues ? model.collections.map { SharedTemplateValues(count: $0.itemViews.count, names: templateNames) } : nil)
    }

    func tagPath(_ t: Int) -> String { urls.tag(slug: tags[t].slug) }
    var tagsPath: String { urls.tags }
    var notePages: [PageSlice] { plan.notePages }

    /// Renders and writes all pages; returns how many.
    func renderAll(to sink: some SiteSink) throws(Diagnostics) -> Int {
        try render(plan.pages, to: sink)
        return plan.pages.count
    }

    /// Renders `pages` in parallel, writing each page as soon as it is rendered.
    func render(_ pages: [PlannedPage], to sink: some SiteSink) throws(Diagnostics) {
        let results: [Result<Void, Diagnostic>] = pages.parallelMap(threads: threads, minimumCount: 32) { page in
            Result { () throws(Diagnostic) in
                let html = self.templates.renderBytes(page.template, self.templateValue(page.view))
                try sink.write(Data(html), to: self.urls.file(ofPagePath: page.path), source: page.source)
            }
        }
        let problems = results.compactMap { r -> Diagnostic? in if case .failure(let d) = r { return d }; return nil }
        if !problems.isEmpty { throw Diagnostics(problems) }
    }

    /// What the template of a page renders.
    func templateValue(_ view: PageView) -> TemplateValue { encoding.page(content(view)) }

    /// The typed view of a page: the one place a page kind's content is chosen.
    func content(_ view: PageView) -> PageContent {
        switch view {
        case .home:
            let cols = collections.enumerated().filter(\.element.config.menu).map { ci, c in
                var v = collectionView(c, ci)
                v.countText = countText(c.loaded.items.count)
                return v
            }
            return page(title: config.title, path: urls.home, section: nil,
                        .home(collections: cols, notes: standaloneNotes.prefix(SitePlan.homeNotes).map { noteView($0, html: false) }))
        case .notFound:
            var p = page(title: "404", path: urls.notFound, section: nil, .notFound)
            p.page.description = nil
            return p
        case .list(let ci, let p):
            let c = collections[ci]
            let slice = c.pages[p]
            var layout = layoutView(c)
            var items = c.order[slice.range].map { ItemRef(collection: ci, item: $0) }
            if case .masonry(let m) = c.config.layout {
                let styles = LayoutStyles.masonryPage(m, cards: c.order[slice.range].map { masonryCard(c, $0) })
                layout.style = styles.list
                for k in items.indices { items[k].layoutStyle = styles.cards[k] }
            }
            return page(title: c.config.title, path: c.listPaths[p], section: c.config.name,
                        .list(collection: collectionView(c, ci), items: items, pagination: PaginationView(number: slice.number, urls: c.listPaths), layout: layout))
        case .item(let ci, let i):
            let c = collections[ci]
            let item = c.loaded.items[i]
            let pos = c.position[i]
            var p = page(title: TemplateText.plain(item.fields[c.config.card.title ?? "title"] ?? .string(item.slug)), path: c.itemURLs[i] ?? "", section: c.config.name,
                         .item(collection: collectionView(c, ci), item: ItemRef(collection: ci, item: i), notes: c.notesByItem[i].map { noteView($0, html: true) },
                               prev: pos > 0 ? ItemRef(collection: ci, item: c.order[pos - 1]) : nil,
                               next: pos + 1 < c.order.count ? ItemRef(collection: ci, item: c.order[pos + 1]) : nil))
            if let f = c.config.cardImageField, let info = item.images[f] {
                p.page.image = info.isExternal ? info.source : urls.absolute(c.itemViews[i].images[f]?.src ?? urls.content(info.source))
            }
            p.page.type = "article"
            return p
        case .page(let n):
            let pc = config.pages[n]
            var p = page(title: pc.title, path: urls.page(pc), section: pc.section,
                         .data(collections.enumerated().map { ci, c in
                             var v = collectionView(c, ci)
                             v.items = c.order
                             return v
                         }))
            if let d = pc.description { p.page.description = d }
            return p
        case .notesList(let p):
            let slice = notePages[p]
            let notesCollection = CollectionView(name: "notes", title: config.notes.title, url: notesListPath(1))
            return page(title: config.notes.title, path: notesListPath(slice.number), section: "notes",
                        .notesList(collection: notesCollection, items: standaloneNotes[slice.range].map { noteView($0, html: false) },
                                   pagination: PaginationView(number: slice.number, urls: notePages.map { notesListPath($0.number) })))
        case .note(let n):
            let note = notes[n]
            var p = page(title: note.title, path: noteURLs[n], section: "notes", .note(noteView(n, html: true)))
            p.page.description = note.summary ?? config.description
            p.page.type = "article"
            return p
        case .tags:
            return page(title: words.tags, path: tagsPath, section: "notes", .tags(tags.indices.map(tagView)))
        case .tag(let t):
            return page(title: "\(words.tags): \(tags[t].name)", path: tagPath(t), section: "notes",
                        .tag(tagView(t), items: tags[t].notes.map { noteView($0, html: false) }))
        }
    }

    func notesListPath(_ number: Int) -> String { urls.notesList(page: number) }

    /// A page's view: the navigation with `section` current, its meta and its body.
    func page(title: String, path: String, section: String?, _ body: PageContent.Body) -> PageContent {
        PageContent(sections: sections(current: section),
                    page: PageMeta(title: title, url: path, canonical: urls.absolute(path), description: config.description), body: body)
    }

    /// The navigation, with `current` set on the section shown.
    func sections(current section: String?) -> [SectionLink] {
        var sections = collections.filter(\.config.menu).map { c in
            SectionLink(title: c.config.title, url: urls.list(c.config, page: 1), current: c.config.name == section)
        }
        if !standaloneNotes.isEmpty {
            sections.append(SectionLink(title: config.notes.title, url: notesListPath(1), current: section == "notes"))
        }
        return sections
    }

    func countText(_ n: Int) -> String {
        words.items.text(n, language: config.language)
    }

    func tagView(_ t: Int) -> TagView {
        TagView(name: tags[t].name, url: tagPath(t), count: tags[t].notes.count, countText: countText(tags[t].notes.count))
    }

    func collectionView(_ c: CollectionPages, _ ci: Int) -> CollectionView {
        CollectionView(name: c.config.name, title: c.config.title, url: urls.list(c.config, page: 1), count: c.loaded.items.count,
                       description: c.config.description, meta: c.loaded.meta.isEmpty ? nil : c.loaded.meta,
                       search: urls.searchIndex(c.config), feed: urls.feed(c.config),
                       icon: c.loaded.icon.map { ImageView.plain($0, urls: urls) }, index: ci)
    }

    func layoutView(_ c: CollectionPages) -> LayoutView {
        switch c.config.layout {
        case .list: LayoutView(kind: "list")
        case .grid(let g): LayoutView(kind: "grid", css: LayoutStyles.grid(g, collection: c.config.name))
        case .masonry(let m): LayoutView(kind: "masonry", css: LayoutStyles.masonry(m, collection: c.config.name))
        }
    }

    /// What the masonry needs of an item: its card image's height ÷ width and its card text.
    func masonryCard(_ c: CollectionPages, _ i: Int) -> MasonryCard {
        let item = c.loaded.items[i]
        var aspect = 0.0
        if let f = c.config.cardImageField, let info = item.images[f], let w = info.width, let h = info.height, w > 0 {
            aspect = Double(h) / Double(w)
        }
        let text = c.config.card.subtitle.flatMap { item.fields[$0] }.map(TemplateText.plain) ?? ""
        return MasonryCard(aspect: aspect, text: text)
    }

    func noteView(_ n: Int, html: Bool) -> NoteView {
        let note = notes[n]
        return NoteView(fields: note.fields, title: note.title, slug: note.slug, url: noteURLs[n], tags: note.tags,
                        tagLinks: tagLinks[n] ?? [], date: note.date.map(DateFormat.iso.format), html: html ? note.html : nil)
    }

    /// For each item of `c`, its related lists (rule name, collection index, item indices), in
    /// rule order; a later rule of the same name replaces an earlier one.
    static func relatedLists(_ c: CollectionPages, in all: [CollectionPages]) -> [[(name: String, collection: Int, items: [Int])]] {
        var lists = [[(name: String, collection: Int, items: [Int])]](repeating: [], count: c.loaded.items.count)
        for rule in c.config.related {
            guard let oi = all.firstIndex(where: { $0.config.name == rule.collection }) else { continue }
            let other = all[oi]
            var byKey: [String: [Int]] = [:]
            for i in other.order {
                for k in Self.keys(rule.via, of: other.loaded.items[i]) { byKey[k, default: []].append(i) }
            }
            for (i, item) in c.loaded.items.enumerated() {
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
    static func cardTexts(_ c: CollectionPages, _ item: Item) -> (title: String, subtitle: String?) {
        let titleField = c.config.card.title ?? (item.fields["title"] != nil ? "title" : "name")
        let subtitle = c.config.card.subtitle.flatMap { item.fields[$0] }.flatMap { $0 == .null ? nil : TemplateText.plain($0) }
        return (TemplateText.plain(item.fields[titleField] ?? .string(item.slug)), subtitle)
    }

    /// An item's view: its fields, images, URL, card and field list (related lists are added
    /// by the model).
    static func itemView(_ c: CollectionPages, _ i: Int, urls: URLScheme) -> ItemView {
        let item = c.loaded.items[i]
        var images: [String: ImageView] = [:]
        for (field, info) in item.images {
            images[field] = c.published(field, info)?.view(root: urls.root) ?? ImageView.plain(info, urls: urls)
        }
        let texts = cardTexts(c, item)
        let card = CardView(title: texts.title, subtitle: texts.subtitle, image: c.config.cardImageField.flatMap { images[$0] })
        let fieldList = item.fields.keys.sorted().compactMap { k -> (name: String, value: String)? in
            guard images[k] == nil, let v = item.fields[k] else { return nil }
            switch v {
            case .string, .int, .double, .bool, .date: return (k, TemplateText.plain(v))
            default: return nil
            }
        }
        return ItemView(fields: item.fields, images: images, slug: item.slug, url: c.itemURLs[i], card: card, fieldList: fieldList,
                        hasRelatedRules: !c.config.related.isEmpty)
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
