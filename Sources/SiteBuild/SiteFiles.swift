import Foundation
import SiteCore
import SiteImages
import SiteLoad
import SiteRender
import SiteWrite

/// The bytes of the files the plan lists besides its pages (`PlannedFile`): content files and
/// assets read as they are, resized images from the cache, feeds, search indexes, robots.txt
/// and the sitemap made from the model.
enum SiteFiles {
    /// The bytes of `file`.
    static func data(_ file: PlannedFile, model: SiteModel, source: URL) throws(Diagnostic) -> Data {
        switch file.kind {
        case .content(let rel):
            return try readFile(model.content.root.appendingPathComponent(rel), source: file.source)
        case .userAsset(let rel):
            return try readFile(source.appendingPathComponent(SourceLayout.assetFile(rel)), source: file.source)
        case .builtinAsset(let rel):
            return Data((BuiltinTheme.assets[rel] ?? "").utf8)
        case .image(let cached):
            do { return try Data(contentsOf: URL(fileURLWithPath: cached)) } catch {
                throw Diagnostic(
                    file: file.source,
                    "cannot read its resized copy \(cached) from the image cache: \(error.localizedDescription) "
                        + "(build again to make it anew)"
                )
            }
        case .searchIndex(let name):
            guard let c = model.collections.first(where: { $0.config.name == name }), let rule = c.config.search else {
                return Data()
            }
            return Data(try SearchIndex.json(c, rule: rule, urls: model.urls).utf8)
        case .notesFeed:
            return Data(notesFeed(model).xml.utf8)
        case .collectionFeed(let name):
            guard let c = model.collections.first(where: { $0.config.name == name }), let rule = c.config.feed else {
                return Data()
            }
            return Data(collectionFeed(c, rule: rule, config: model.config, urls: model.urls).xml.utf8)
        case .codeStyles:
            return Data((model.codeStyles ?? "").utf8)
        case .robots:
            // Crawlers read robots.txt only at a host's root: under a sub-path the host's own
            // file has to name the sitemap.
            return Data("User-agent: *\nAllow: /\n\nSitemap: \(model.urls.absolute(model.urls.sitemap))\n".utf8)
        }
    }

    /// The newest dated notes as an Atom feed.
    static func notesFeed(_ model: SiteModel) -> AtomFeed {
        let config = model.config, urls = model.urls
        let entries = model.feedNotes.map { n -> AtomFeed.Entry in
            let note = model.notes[n]
            return AtomFeed.Entry(
                url: urls.absolute(model.noteURLs[n]), title: note.title,
                updated: AtomFeed.timestamp(day: note.date.map(DateFormat.iso.format) ?? "1970-01-01"),
                summary: note.summary, html: model.noteHTML[n])
        }
        return AtomFeed(
            url: urls.absolute(urls.notesFeed),
            pageURL: urls.absolute(urls.notesList(page: 1)),
            base: config.baseURL.description, title: "\(config.notes.title) · \(config.title)",
            author: config.author ?? config.title, language: config.language, entries: entries)
    }

    /// A collection's newest items by `rule.date`, newest first (ties in display order); items
    /// without a readable date are left out. An item links to its planned page, or to its list
    /// page when it has none (`URLScheme.itemLink`).
    static func collectionFeed(
        _ collection: SortedCollection, rule: FeedRule, config: SiteConfig,
        urls: URLScheme
    ) -> AtomFeed {
        let path = KeyPath.parse(rule.date) ?? []
        var dated: [(day: String, index: Int)] = []
        for i in collection.order {
            let day: String?
            switch Value.dictionary(collection.loaded.items[i].fields).value(at: path) {
            case .date(let d)?: day = DateFormat.iso.format(CalendarDate(d))
            case .string(let s)?: day = DateFormat.iso.parse(String(s.prefix(10))).map(DateFormat.iso.format)
            default: day = nil
            }
            if let day { dated.append((day, i)) }
        }
        // A stable sort: equal days keep the collection's display order.
        let newest = dated.enumerated().sorted { a, b in
            a.element.day != b.element.day ? a.element.day > b.element.day : a.offset < b.offset
        }
        .prefix(rule.limit).map(\.element)
        let listURL = urls.absolute(urls.list(collection.config, page: 1))
        let entries = newest.map { entry -> AtomFeed.Entry in
            let item = collection.loaded.items[entry.index]
            let texts = ViewMaker.cardTexts(collection, item)
            let url = urls.itemLink(collection.config, page: collection.itemURLs[entry.index], slug: item.slug)
            return AtomFeed.Entry(
                url: url, title: texts.title, updated: AtomFeed.timestamp(day: entry.day), summary: texts.subtitle)
        }
        return AtomFeed(
            url: urls.absolute(urls.feed(collection.config) ?? rule.url), pageURL: listURL,
            base: config.baseURL.description,
            title: "\(collection.config.title) · \(config.title)", author: config.author ?? config.title,
            language: config.language, entries: entries)
    }

    /// `sitemap.xml` (and numbered sitemaps past 50,000 URLs): output path → XML.
    static func sitemaps(_ plan: SitePlan, urls: URLScheme) -> [(path: String, data: Data)] {
        Sitemap.files(urls: plan.sitemapURLs(urls), indexBase: urls.baseURL.description).map {
            ($0.name, Data($0.xml.utf8))
        }
    }

    /// A content file or asset to publish, once whole (`ContentTree.settledContents`: not while
    /// a program rewrites it in place); a FIFO or a device is said to be one, never read.
    static func readFile(_ url: URL, source: String) throws(Diagnostic) -> Data {
        switch ContentTree.settledContents(atPath: url.path) {
        case .success(let data): return data
        case .failure(let reason): throw Diagnostic(file: source, "cannot read file: \(reason.text)")
        }
    }
}
