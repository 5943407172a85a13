import Foundation
import SiteCore
import SiteLoad
import SiteRender
import SiteWrite

/// Renders every page and writes each as soon as it is rendered, so memory holds the data
/// model, never the rendered site.
final class PageRenderer: @unchecked Sendable {
    // Immutable after init; shared read-only by the rendering threads.
    let config: SiteConfig
    let templates: TemplateLibrary
    /// Threads for rendering (`BuildOptions.threads`).
    let threads: Int
    let collections: [CollectionPages]
    let notes: [Note]
    let standaloneNotes: [Int]
    let urls: URLScheme
    let noteURLs: [String]
    let siteContext: [String: Any]
    /// Every page of the site.
    let plan: SitePlan
    var tags: [SitePlan.Tag] { plan.tags }
    let assetNames: [String: String]
    /// Each tagged note's tag links (`name`, `url`), made once: a note is listed on many pages.
    let tagLinks: [Int: [[String: Any]]]
    /// Each collection's item records as template values, converted once (nil: pages hold the
    /// `[String: Any]` records, as the differential tests' swift-mustache reference needs).
    let itemValues: [SharedTemplateValues]?

    init(model: SiteModel, plan: SitePlan, sharesItemValues: Bool = true) {
        self.plan = plan
        itemValues = sharesItemValues
            ? model.collections.map { SharedTemplateValues(count: $0.itemContexts.count, names: model.inputs.templates.compiled.names) } : nil
        config = model.config
        templates = model.inputs.templates
        threads = model.inputs.threads
        collections = model.collections
        notes = model.notes
        standaloneNotes = model.standaloneNotes
        urls = model.urls
        noteURLs = model.noteURLs
        let urls = self.urls
        let tags = plan.tags
        assetNames = model.inputs.assetNames
        var links: [Int: [[String: Any]]] = [:]
        let known = Set(tags.map(\.slug))
        for n in model.standaloneNotes where !model.notes[n].tags.isEmpty {
            links[n] = model.notes[n].tags.compactMap { name -> [String: Any]? in
                let slug = Slug.make(name)
                return known.contains(slug) ? ["name": name, "url": urls.tag(slug: slug)] : nil
            }
        }
        tagLinks = links
        var site = Self.siteContext(config, notesURL: urls.notesList(page: 1),
                                    feedURL: model.feedNotes.isEmpty ? nil : urls.notesFeed)
        // `{{#site.asset}}photos.css{{/site.asset}}`: the file's fingerprinted URL (its plain one
        // for other files).
        let names = assetNames
        site["asset"] = TemplateLibrary.function { path in urls.asset(names[path] ?? path) }
        if !tags.isEmpty {
            site["tags"] = urls.tags
            site["tagsTitle"] = config.language.hasPrefix("ko") ? "태그" : "Tags"
        }
        siteContext = site
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
                let html = self.templates.renderBytes(page.template, self.context(page.view))
                try sink.write(Data(html), to: self.urls.file(ofPagePath: page.path), source: page.source)
            }
        }
        let problems = results.compactMap { r -> Diagnostic? in if case .failure(let d) = r { return d }; return nil }
        if !problems.isEmpty { throw Diagnostics(problems) }
    }

    func notesListPath(_ number: Int) -> String { urls.notesList(page: number) }

    // MARK: - Contexts

    /// The template values of a page's view.
    func context(_ view: PageView) -> [String: Any] {
        switch view {
        case .home:
            let cols: [[String: Any]] = collections.filter(\.config.menu).map { c in
                var d = collectionContext(c)
                d["countText"] = countText(c.loaded.items.count)
                return d
            }
            var ctx = base(title: config.title, path: urls.home, section: nil)
            ctx["collections"] = cols
            ctx["notes"] = standaloneNotes.prefix(SitePlan.homeNotes).map(noteSummary)
            return ctx
        case .notFound:
            var ctx = base(title: "404", path: urls.notFound, section: nil)
            ctx["page"] = ["title": "404", "url": urls.notFound, "canonical": urls.absolute(urls.notFound)]
            return ctx
        case .list(let ci, let p):
            let c = collections[ci]
            let slice = c.pages[p]
            let path = c.listPaths[p]
            var ctx = base(title: c.config.title, path: path, section: c.config.name)
            ctx["collection"] = collectionContext(c)
            var layout = layoutContext(c)
            if case .masonry(let m) = c.config.layout {
                var items = c.order[slice.range].map { c.itemContexts[$0] }
                let styles = LayoutStyles.masonryPage(m, cards: c.order[slice.range].map { masonryCard(c, $0) })
                layout["style"] = styles.list
                for k in items.indices { items[k]["layoutStyle"] = styles.cards[k] }
                ctx["items"] = items
            } else {
                ctx["items"] = c.order[slice.range].map { itemRecord(ci, $0) }
            }
            ctx["pagination"] = pagination(slice, paths: c.listPaths)
            ctx["layout"] = layout
            return ctx
        case .item(let ci, let i):
            let c = collections[ci]
            let item = c.loaded.items[i]
            let path = c.itemURLs[i] ?? ""
            var ctx = base(title: TemplateText.plain(item.fields[c.config.card.title ?? "title"] ?? .string(item.slug)), path: path, section: c.config.name)
            ctx["collection"] = collectionContext(c)
            ctx["item"] = itemRecord(ci, i)
            if var page = ctx["page"] as? [String: Any] {
                if let f = c.config.cardImageField, let info = item.images[f] {
                    page["image"] = info.isExternal ? info.source : urls.absolute(c.published(f, info)?.context(root: urls.root)["src"] as? String ?? urls.content(info.source))
                }
                page["type"] = "article"
                ctx["page"] = page
            }
            ctx["notes"] = c.notesByItem[i].map { n -> [String: Any] in
                var d = noteSummary(n)
                d["html"] = notes[n].html
                return d
            }
            let pos = c.position[i]
            if pos > 0 { ctx["prev"] = itemRecord(ci, c.order[pos - 1]) }
            if pos + 1 < c.order.count { ctx["next"] = itemRecord(ci, c.order[pos + 1]) }
            return ctx
        case .page(let n):
            let p = config.pages[n]
            let path = urls.page(p)
            var ctx = base(title: p.title, path: path, section: p.section)
            if let d = p.description { ctx["page"] = pageContext(title: p.title, path: path, description: d) }
            ctx["data"] = Dictionary(uniqueKeysWithValues: collections.enumerated().map { ci, c in
                var d = collectionContext(c)
                d["items"] = c.order.map { itemRecord(ci, $0) }
                return (c.config.name, d as Any)
            })
            return ctx
        case .notesList(let p):
            let slice = notePages[p]
            let path = notesListPath(slice.number)
            var ctx = base(title: config.notes.title, path: path, section: "notes")
            ctx["collection"] = ["name": "notes", "title": config.notes.title, "url": notesListPath(1)]
            ctx["items"] = standaloneNotes[slice.range].map(noteSummary)
            ctx["pagination"] = pagination(slice, paths: notePages.map { notesListPath($0.number) })
            return ctx
        case .note(let n):
            let note = notes[n]
            let path = noteURLs[n]
            var ctx = base(title: note.title, path: path, section: "notes")
            var d = noteSummary(n)
            d["html"] = note.html
            ctx["note"] = d
            var page = pageContext(title: note.title, path: path, description: note.summary ?? config.description)
            page["type"] = "article"
            ctx["page"] = page
            return ctx
        case .tags:
            var ctx = base(title: tagsTitle, path: tagsPath, section: "notes")
            ctx["tags"] = tags.indices.map { tagSummary($0) }
            return ctx
        case .tag(let t):
            var ctx = base(title: "\(tagsTitle): \(tags[t].name)", path: tagPath(t), section: "notes")
            ctx["tag"] = tagSummary(t)
            ctx["items"] = tags[t].notes.map(noteSummary)
            return ctx
        }
    }

    /// Item `i` of collection `ci` as a page context holds it: converted once, or its record.
    func itemRecord(_ ci: Int, _ i: Int) -> Any {
        guard let itemValues else { return collections[ci].itemContexts[i] }
        return itemValues[ci].value(i) { collections[ci].itemContexts[i] }
    }

    var tagsTitle: String { siteContext["tagsTitle"] as? String ?? "Tags" }

    func tagSummary(_ t: Int) -> [String: Any] {
        ["name": tags[t].name, "url": tagPath(t), "count": tags[t].notes.count, "countText": countText(tags[t].notes.count)]
    }

    func base(title: String, path: String, section: String?) -> [String: Any] {
        var site = siteContext
        site["sections"] = sections(current: section)
        return ["site": site, "page": pageContext(title: title, path: path, description: config.description)]
    }

    /// The navigation, with `current` set on the section shown.
    func sections(current section: String?) -> [[String: Any]] {
        var sections: [[String: Any]] = collections.filter(\.config.menu).map { c in
            ["title": c.config.title, "url": urls.list(c.config, page: 1), "current": c.config.name == section]
        }
        if !standaloneNotes.isEmpty {
            sections.append(["title": config.notes.title, "url": notesListPath(1), "current": section == "notes"])
        }
        return sections
    }

    /// What every page's `site` holds but the navigation (built once, not per page).
    static func siteContext(_ config: SiteConfig, notesURL: String, feedURL: String?) -> [String: Any] {
        let ko = config.language.hasPrefix("ko")
        var site: [String: Any] = [
            "title": config.title, "language": config.language, "root": config.baseURL.root, "baseURL": config.baseURL.description,
            "generator": "sitegen", "notesURL": notesURL, "notesTitle": config.notes.title,
            "skipText": ko ? "본문 바로가기" : "Skip to content", "navLabel": ko ? "주요 메뉴" : "Main",
            "closeLabel": ko ? "닫기" : "Close", "pagesLabel": ko ? "페이지" : "Pages", "emptyText": ko ? "아직 항목이 없습니다." : "Nothing here yet.",
        ]
        if let d = config.description { site["description"] = d }
        if let feedURL { site["feed"] = feedURL }
        return site
    }

    func pageContext(title: String, path: String, description: String?) -> [String: Any] {
        var p: [String: Any] = ["title": title, "url": path, "canonical": urls.absolute(path)]
        if let description { p["description"] = description }
        return p
    }

    func countText(_ n: Int) -> String {
        let number = NumberFormat.grouped(Int64(n), language: config.language)
        return config.language.hasPrefix("ko") ? "\(number)개" : (n == 1 ? "1 item" : "\(number) items")
    }

    func collectionContext(_ c: CollectionPages) -> [String: Any] {
        var d: [String: Any] = ["name": c.config.name, "title": c.config.title, "url": urls.list(c.config, page: 1),
                                "count": c.loaded.items.count]
        if let desc = c.config.description { d["description"] = desc }
        if !c.loaded.meta.isEmpty { d["meta"] = c.loaded.meta.compactMapValues(PageContext.mustache) }
        if let s = urls.searchIndex(c.config) { d["search"] = s }
        if let f = urls.feed(c.config) { d["feed"] = f }
        if let icon = c.loaded.icon { d["icon"] = PageContext.image(icon, urls: urls) }
        return d
    }

    func pagination(_ slice: PageSlice, paths: [String]) -> [String: Any] {
        var d: [String: Any] = [
            "number": slice.number, "count": slice.count, "isFirst": slice.isFirst, "isLast": slice.isLast, "many": slice.count > 1,
            "pages": paths.enumerated().map { ["number": $0.offset + 1, "url": $0.element, "current": $0.offset + 1 == slice.number] },
        ]
        if !slice.isFirst { d["prev"] = paths[slice.number - 2] }
        if !slice.isLast { d["next"] = paths[slice.number] }
        return d
    }

    func layoutContext(_ c: CollectionPages) -> [String: Any] {
        switch c.config.layout {
        case .list: ["kind": "list"]
        case .grid(let g): ["kind": "grid", "css": LayoutStyles.grid(g, collection: c.config.name)]
        case .masonry(let m): ["kind": "masonry", "css": LayoutStyles.masonry(m, collection: c.config.name)]
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

    func noteSummary(_ n: Int) -> [String: Any] {
        let note = notes[n]
        var d = note.fields.compactMapValues(PageContext.mustache)
        d["title"] = note.title
        d["slug"] = note.slug
        d["url"] = noteURLs[n]
        d["tags"] = note.tags
        d["tagLinks"] = tagLinks[n] ?? []
        if let date = note.date { d["date"] = DateFormat.iso.format(date) }
        return d
    }

    /// For each item of `c`, its related lists by rule name (empty when no rule matches anything).
    static func relatedLists(_ c: CollectionPages, in all: [CollectionPages]) -> [[String: Any]] {
        var lists = [[String: Any]](repeating: [:], count: c.loaded.items.count)
        for rule in c.config.related {
            guard let other = all.first(where: { $0.config.name == rule.collection }) else { continue }
            var byKey: [String: [Int]] = [:]
            for i in other.order {
                for k in Self.keys(rule.via, of: other.loaded.items[i]) { byKey[k, default: []].append(i) }
            }
            for (i, item) in c.loaded.items.enumerated() {
                let matches = Self.keys(rule.key, of: item).flatMap { byKey[$0] ?? [] }
                if !matches.isEmpty { lists[i][rule.name] = matches.map { other.itemContexts[$0] } }
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

    static func itemContext(_ c: CollectionPages, _ i: Int, urls: URLScheme) -> [String: Any] {
        let item = c.loaded.items[i]
        var d = item.fields.compactMapValues(PageContext.mustache)
        var images: [String: [String: Any]] = [:]
        for (field, info) in item.images {
            let img = c.published(field, info)?.context(root: urls.root) ?? PageContext.image(info, urls: urls)
            images[field] = img
            d[field] = img
        }
        // The item's own names win over data fields of the same name (a dataset's `url` column
        // must not turn into a link to a page that does not exist).
        d["slug"] = item.slug
        d["url"] = c.itemURLs[i] ?? false
        let texts = cardTexts(c, item)
        var card: [String: Any] = ["title": texts.title]
        if let s = texts.subtitle { card["subtitle"] = s }
        if let f = c.config.cardImageField, let img = images[f] { card["image"] = img }
        d["card"] = card
        d["fieldList"] = item.fields.keys.sorted().compactMap { k -> [String: Any]? in
            guard images[k] == nil, let v = item.fields[k] else { return nil }
            switch v {
            case .string, .int, .double, .bool, .date: return ["name": k, "value": TemplateText.plain(v)]
            default: return nil
            }
        }
        return d
    }
}
