import SiteCore
import SiteLoad
import SiteWrite

/// Every output path of a site, decided here and nowhere else: the pages (home, 404, pages of
/// their own, collection lists and their page N, item pages, the notes' list and pages, the tag
/// index and tag pages) and the other files (feeds, search indexes, sitemap, robots.txt, assets,
/// content files, resized images).
/// Page paths are URL paths under the base URL's root (`/apps/bounties/page/2/`), already
/// percent-encoded; `file(ofPagePath:)` turns one into the output file it is written to.
struct URLScheme: Sendable {
    let baseURL: BaseURL
    let notes: NotesConfig

    init(_ config: SiteConfig) {
        baseURL = config.baseURL
        notes = config.notes
    }

    /// The path the site lives under, `/` or `/apps/`.
    var root: String { baseURL.root }

    var home: String { root }
    var notFound: String { root + "404.html" }

    /// A page of its own (`pages:` in site.yml).
    func page(_ page: PageConfig) -> String { baseURL.path(page.url) }

    /// Page `number` (from 1) of a collection's list.
    func list(_ collection: CollectionConfig, page number: Int) -> String {
        baseURL.path(Self.numbered(collection.listURL, number))
    }

    /// An item's page, nil when its collection has none (`detail: false`).
    func item(_ collection: CollectionConfig, slug: String) -> String? {
        collection.detailURL.map { baseURL.path(SitePath.fill($0, slug: slug)) }
    }

    /// Where an item without a page is shown: its anchor on the first list page, as an absolute URL.
    func itemAnchor(_ collection: CollectionConfig, slug: String) -> String {
        absolute(list(collection, page: 1)) + "#" + SitePath.encodePath(slug)
    }

    /// How a feed links an item, as an absolute URL: its page (`page`, the item's planned page
    /// path), or its anchor on the first list page when it has none.
    func itemLink(_ collection: CollectionConfig, page: String?, slug: String) -> String {
        page.map(absolute) ?? itemAnchor(collection, slug: slug)
    }

    /// The index of a collection's terms of `rule` (`TermRule.indexURL`).
    func terms(_ rule: TermRule) -> String { baseURL.path(rule.indexURL) }

    /// Page `number` (from 1) of a term's list.
    func term(_ rule: TermRule, slug: String, page number: Int) -> String {
        baseURL.path(Self.numbered(SitePath.fill(rule.url, slug: slug), number))
    }

    /// Page `number` (from 1) of the standalone notes' list.
    func notesList(page number: Int) -> String { baseURL.path(Self.numbered(notes.listURL, number)) }

    /// A standalone note's page.
    func note(slug: String) -> String { baseURL.path(SitePath.fill(notes.url, slug: slug)) }

    /// The index of the notes' tags.
    var tags: String { baseURL.path(notes.tagsURL) }

    /// A tag's page, below the tag index.
    func tag(slug: String) -> String { baseURL.path(SitePath.fill(notes.tagsURL + "{slug}/", slug: slug)) }

    /// The notes' Atom feed.
    var notesFeed: String { baseURL.path(notes.feedURL) }

    /// A collection's Atom feed (`feed:`), if it has one.
    func feed(_ collection: CollectionConfig) -> String? { collection.feed.map { baseURL.path($0.url) } }

    /// A collection's search index (`search:`), if it has one.
    func searchIndex(_ collection: CollectionConfig) -> String? { collection.search.map { baseURL.path($0.url) } }

    /// The sitemap (an index of numbered sitemaps past 50,000 URLs, which sit beside it:
    /// `Sitemap.fileName` names them all, as the protocol's split is `Sitemap`'s).
    var sitemap: String { root + Sitemap.fileName(0) }

    /// `robots.txt`, at the output's top (unless `content/` has its own).
    static let robotsFile = "robots.txt"

    /// A file of the content folder, as published.
    func content(_ relativePath: String) -> String { Self.content(relativePath, root: root) }

    /// The URL of a file of the content folder of a site under `root`.
    static func content(_ relativePath: String, root: String) -> String { root + SitePath.encodePath(relativePath) }

    /// The output file of a file of the content folder: the same path under the output.
    static func contentFile(_ relativePath: String) -> String { relativePath }

    /// A stylesheet, script or other asset (by its fingerprinted name if it has one).
    func asset(_ name: String) -> String { Self.asset(name, root: root) }

    /// The URL of an asset of a site under `root` (what `site.asset` prints: `AssetLinks`).
    static func asset(_ name: String, root: String) -> String { root + "assets/" + SitePath.encodePath(name) }

    /// The output file of an asset (`asset(_:)` is its URL).
    static func assetFile(_ name: String) -> String { "assets/" + name }

    /// The output file of a resized image's variant: `key` names its source and recipe.
    static func imageFile(key: String, width: Int, fileExtension: String) -> String {
        assetFile("img/\(key)-\(width).\(fileExtension)")
    }

    /// The absolute URL of a page path.
    func absolute(_ path: String) -> String { baseURL.absolute(path) }

    /// The output file of a page path (the output folder is the base URL's root):
    /// `/apps/bounties/luffy/` → `bounties/luffy/index.html`.
    func file(ofPagePath path: String) -> String {
        SitePath.file(for: path.hasPrefix(root) ? "/" + path.dropFirst(root.count) : path)
    }

    /// The output file of a path that site.yml names from the site's root (`/search/photos.json`).
    static func file(ofSiteURL url: String) -> String { String(url.dropFirst()) }

    /// Page `number` of a list whose first page is `first`: `/bounties/`, `/bounties/page/2/`, ….
    static func numbered(_ first: String, _ number: Int) -> String { number == 1 ? first : "\(first)page/\(number)/" }
}
