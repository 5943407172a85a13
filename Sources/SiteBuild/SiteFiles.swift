import Foundation
import SiteCore
import SiteImages
import SiteLoad
import SiteRender
import SiteWrite

/// The files of the site besides its pages: content files copied as they are, the theme's and
/// the site's assets, search indexes and the sitemap.
enum SiteFiles {
    enum Kind: Hashable, Sendable {
        /// A file under `content/` (path relative to it).
        case content(String)
        /// A file under `templates/assets/` (path relative to it).
        case userAsset(String)
        /// A built-in theme asset the site does not override.
        case builtinAsset(String)
        /// The search index of a collection.
        case searchIndex(collection: String)
        /// The Atom feed of the notes.
        case notesFeed
        /// The Atom feed of a collection (`feed:` in site.yml).
        case collectionFeed(collection: String)
        /// `robots.txt` pointing at the sitemap (unless content/ has one).
        case robots
        /// A resized image, copied from the image cache (file name in it).
        case image(String)
    }

    struct File: Hashable, Sendable {
        /// Path in the output folder.
        var path: String
        var kind: Kind
        /// For messages.
        var source: String
    }

    /// Every file but the sitemap, in a stable order.
    static func list(_ model: SiteModel, source: URL) throws(Diagnostics) -> [File] {
        // Sources of resized images are published only through their copies (no GPS, no 10 MB
        // original on a phone).
        let replaced = model.inputs.images.sources
        var files = model.inputs.content.staticFiles.filter { !replaced.contains($0) }.map { File(path: $0, kind: .content($0), source: "content/\($0)") }
        var seen: Set<String> = []
        for (use, image) in model.inputs.images.images.sorted(by: { ($0.key.collection, $0.key.field, $0.key.source) < ($1.key.collection, $1.key.field, $1.key.source) }) {
            for v in image.processed.variants where image.original == nil && seen.insert(image.path(v)).inserted {
                files.append(File(path: image.path(v), kind: .image(model.imageCache.file(image.key, v).path), source: "content/\(use.source)"))
            }
        }
        let user = try userAssets(source)
        for path in BuiltinTheme.assets.keys.sorted() where !user.contains(path) {
            files.append(File(path: URLScheme.assetFile(path), kind: .builtinAsset(path), source: "(built-in theme)"))
            if let named = model.inputs.assetNames[path] { files.append(File(path: URLScheme.assetFile(named), kind: .builtinAsset(path), source: "(built-in theme)")) }
        }
        for path in user {
            files.append(File(path: URLScheme.assetFile(path), kind: .userAsset(path), source: "templates/assets/\(path)"))
            if let named = model.inputs.assetNames[path] { files.append(File(path: URLScheme.assetFile(named), kind: .userAsset(path), source: "templates/assets/\(path)")) }
        }
        if !model.feedNotes.isEmpty {
            files.append(File(path: URLScheme.file(ofSiteURL: model.config.notes.feedURL), kind: .notesFeed, source: "the notes' feed"))
        }
        if !model.inputs.content.staticFiles.contains("robots.txt") {
            files.append(File(path: "robots.txt", kind: .robots, source: "robots.txt"))
        }
        for c in model.collections {
            guard let rule = c.config.feed else { continue }
            files.append(File(path: URLScheme.file(ofSiteURL: rule.url), kind: .collectionFeed(collection: c.config.name), source: "feed of '\(c.config.name)'"))
        }
        for c in model.collections {
            guard let rule = c.config.search else { continue }
            files.append(File(path: URLScheme.file(ofSiteURL: rule.url), kind: .searchIndex(collection: c.config.name), source: "search index of '\(c.config.name)'"))
        }
        return files
    }

    /// The bytes of `file`.
    static func data(_ file: File, model: SiteModel, source: URL) throws(Diagnostic) -> Data {
        switch file.kind {
        case .content(let rel):
            return try readFile(model.inputs.content.root.appendingPathComponent(rel), source: file.source)
        case .userAsset(let rel):
            return try readFile(source.appendingPathComponent("templates/assets/\(rel)"), source: file.source)
        case .builtinAsset(let rel):
            return Data((BuiltinTheme.assets[rel] ?? "").utf8)
        case .image(let cached):
            do { return try Data(contentsOf: URL(fileURLWithPath: cached)) } catch {
                throw Diagnostic(file: file.source, "cannot read its resized copy \(cached) from the image cache: \(error.localizedDescription) (build again to make it anew)")
            }
        case .searchIndex(let name):
            guard let c = model.collections.first(where: { $0.config.name == name }), let rule = c.config.search else { return Data() }
            return Data(try SearchIndex.json(c, rule: rule, urls: model.urls).utf8)
        case .notesFeed:
            return Data(notesFeed(model).xml.utf8)
        case .collectionFeed(let name):
            guard let c = model.collections.first(where: { $0.config.name == name }), let rule = c.config.feed else { return Data() }
            return Data(collectionFeed(c, rule: rule, config: model.config).xml.utf8)
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
            return AtomFeed.Entry(url: urls.absolute(model.noteURLs[n]), title: note.title,
                                  updated: AtomFeed.timestamp(day: note.date.map(DateFormat.iso.format) ?? "1970-01-01"),
                                  summary: note.summary, html: note.html)
        }
        return AtomFeed(url: urls.absolute(urls.notesFeed),
                        pageURL: urls.absolute(urls.notesList(page: 1)),
                        base: config.baseURL.description, title: "\(config.notes.title) · \(config.title)",
                        author: config.author ?? config.title, language: config.language, entries: entries)
    }

    /// A collection's newest items by `rule.date`, newest first (ties in display order); items
    /// without a readable date are left out. An item without a page links to its list page.
    static func collectionFeed(_ c: CollectionPages, rule: FeedRule, config: SiteConfig) -> AtomFeed {
        let path = KeyPath.parse(rule.date) ?? []
        var dated: [(day: String, index: Int)] = []
        for i in c.order {
            let day: String?
            switch Value.dictionary(c.loaded.items[i].fields).value(at: path) {
            case .date(let d)?: day = DateFormat.iso.format(CalendarDate(d))
            case .string(let s)?: day = DateFormat.iso.parse(String(s.prefix(10))).map(DateFormat.iso.format)
            default: day = nil
            }
            if let day { dated.append((day, i)) }
        }
        // A stable sort: equal days keep the collection's display order.
        let newest = dated.enumerated().sorted { a, b in a.element.day != b.element.day ? a.element.day > b.element.day : a.offset < b.offset }
            .prefix(rule.limit).map(\.element)
        let urls = URLScheme(config)
        let listURL = urls.absolute(urls.list(c.config, page: 1))
        let entries = newest.map { entry -> AtomFeed.Entry in
            let item = c.loaded.items[entry.index]
            let texts = ViewMaker.cardTexts(c, item)
            let url = c.itemURLs[entry.index].map(urls.absolute) ?? urls.itemAnchor(c.config, slug: item.slug)
            return AtomFeed.Entry(url: url, title: texts.title, updated: AtomFeed.timestamp(day: entry.day), summary: texts.subtitle)
        }
        return AtomFeed(url: urls.absolute(urls.feed(c.config) ?? rule.url), pageURL: listURL, base: config.baseURL.description,
                        title: "\(c.config.title) · \(config.title)", author: config.author ?? config.title, language: config.language, entries: entries)
    }

    /// `sitemap.xml` (and numbered sitemaps past 50,000 URLs): output path → XML.
    static func sitemaps(_ plan: SitePlan, urls: URLScheme) -> [(path: String, data: Data)] {
        Sitemap.files(urls: plan.sitemapURLs(urls), indexBase: urls.baseURL.description).map { ($0.name, Data($0.xml.utf8)) }
    }

    /// Stylesheets and scripts (built-in and the site's) under names that hold their content's
    /// fingerprint, which templates reach with `{{#asset}}photos.css{{/asset}}`: asset path →
    /// fingerprinted path (`photos.css` → `photos.3f2a9c1e0b7d4a65.css`). A changed file gets a
    /// new name, so its URL can be cached for ever.
    static func fingerprintedAssets(_ source: URL) throws(Diagnostics) -> [String: String] {
        var names: [String: String] = [:]
        for (path, text) in BuiltinTheme.assets where isFingerprinted(path) {
            names[path] = ContentHash.fingerprinted(path, text.utf8)
        }
        for path in try userAssets(source) where isFingerprinted(path) {
            let data = try read(source.appendingPathComponent("templates/assets/\(path)"), source: "templates/assets/\(path)")
            names[path] = ContentHash.fingerprinted(path, data)
        }
        return names
    }

    static func isFingerprinted(_ path: String) -> Bool { path.hasSuffix(".css") || path.hasSuffix(".js") }

    /// Files under `templates/assets/` (hidden ones skipped), sorted.
    static func userAssets(_ source: URL) throws(Diagnostics) -> [String] {
        try SourceFolder.files(under: source.appendingPathComponent("templates/assets"), display: "templates/assets/")
    }

    static func read(_ url: URL, source: String) throws(Diagnostics) -> Data {
        do throws(Diagnostic) { return try readFile(url, source: source) } catch { throw Diagnostics([error]) }
    }

    static func readFile(_ url: URL, source: String) throws(Diagnostic) -> Data {
        do { return try Data(contentsOf: url) } catch { throw Diagnostic(file: source, "cannot read: \(error.localizedDescription)") }
    }
}
