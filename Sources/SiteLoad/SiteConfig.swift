import SiteCore
import SiteMarkdown
import Yams

/// The site's base URL, split so that links can be written site-relative (`root` + path) and
/// absolute URLs (sitemap, feeds) made from it.
public struct BaseURL: Sendable, Hashable, CustomStringConvertible {
    /// `https://example.org`
    public var origin: String
    /// The path the site lives under, always starting and ending with "/": `/` or `/apps/`.
    public var root: String

    /// Accepts `http(s)://host[:port][/path]`.
    public init?(_ text: String) {
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return nil }
        let afterScheme = text.index(text.startIndex, offsetBy: lower.hasPrefix("https://") ? 8 : 7)
        let rest = text[afterScheme...]
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let host = rest[..<slash]
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "?" || $0 == "#" || $0 == "@" }) else { return nil }
        origin = String(text[..<slash])
        var path = String(rest[slash...])
        if path.contains("?") || path.contains("#") { return nil }
        if !path.hasPrefix("/") { path = "/" + path }
        if !path.hasSuffix("/") { path += "/" }
        root = path
    }

    public var description: String { origin + root }

    /// A site path (`/bounties/`) under the site's root (`/apps/bounties/`).
    public func path(_ sitePath: String) -> String { String(root.dropLast()) + sitePath }

    /// The absolute URL of a site path such as `/bounties/luffy/` (already percent-encoded).
    public func absolute(_ sitePath: String) -> String { origin + sitePath }
}

/// The type a dataset field must have.
public enum FieldType: String, Sendable, Hashable, CaseIterable {
    case string, integer, number, boolean, date, array, dictionary, any

    func accepts(_ v: Value) -> Bool {
        switch (self, v) {
        case (.any, _), (.string, .string), (.integer, .int), (.number, .int), (.number, .double), (.boolean, .bool),
             (.date, .date), (.date, .string), (.array, .array), (.dictionary, .dictionary): true
        default: false
        }
    }

    var phrase: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .number: "a number"
        case .boolean: "a boolean"
        case .date: "a date"
        case .array: "an array"
        case .dictionary: "a dictionary"
        case .any: "a value"
        }
    }
}

/// A declared field: its type, and whether an item may lack it (then `defaultValue`, if any).
public struct FieldSpec: Sendable, Hashable {
    public var type: FieldType
    public var required: Bool
    public var defaultValue: Value?
}

/// Where an item's slug (its URL segment) comes from.
public enum SlugRule: Sendable, Hashable {
    /// A field used as it is (it must be a safe URL segment).
    case field(String)
    /// A field turned into a slug: lowercased, punctuation and spaces folded into "-".
    case derived(from: String)

    var field: String {
        switch self {
        case .field(let f), .derived(let f): f
        }
    }
}

/// Which fields name images, and whether the images are files under `content/`.
public struct ImageRule: Sendable, Hashable {
    public var fields: [String]
    /// Remote images (URLs): not read; sizes come from `widthField`/`heightField` when given.
    public var external: Bool
    public var widthField: String?
    public var heightField: String?
    /// false: local files are published as they are (no resizing, no placeholder).
    public var resize: Bool = true
    /// The collection's output settings, and fields' own (see `output(_:)`).
    public var output = ImageOutput()
    public var perField: [String: ImageOutput] = [:]
    /// Keep EXIF/XMP/ICC in outputs (`metadata: keep`); default stripped.
    public var keepMetadata = false
    /// Sources with more pixels are refused before decoding.
    public var maxPixels = ImageRule.defaultMaxPixels

    public init(fields: [String], external: Bool, widthField: String?, heightField: String?, resize: Bool = true,
                output: ImageOutput = ImageOutput(), perField: [String: ImageOutput] = [:], keepMetadata: Bool = false,
                maxPixels: Int = ImageRule.defaultMaxPixels) {
        self.fields = fields
        self.external = external
        self.widthField = widthField
        self.heightField = heightField
        self.resize = resize
        self.output = output
        self.perField = perField
        self.keepMetadata = keepMetadata
        self.maxPixels = maxPixels
    }
}

/// How a collection's list page arranges its items.
public enum LayoutConfig: Sendable, Hashable {
    case grid(GridGeometry)
    case masonry(ResponsiveMasonry)
    case list
}

/// A collection-wide value from outside the item list (e.g. the date a ranking is for).
public enum MetaRule: Sendable {
    /// A key path into the collection's first data file.
    case path([PathComponent])
    /// Computed from the meta values before it.
    case derived(Derivation)
}

/// Records from other files attached to each item by a shared key (e.g. movie details by `movieCd`).
public struct JoinRule: Sendable {
    /// The item field that receives the matching record.
    public var name: String
    /// Files relative to `content/`; `*` matches within one path segment.
    public var dataFiles: [String]
    /// Where the record (or a list of records) sits inside each file.
    public var itemsPath: [PathComponent]
    /// The joined records' key field.
    public var key: String
    /// The item field matched against `key`.
    public var on: String
}

/// One collection: a dataset turned into a list page (paginated) and a page per item.
public struct CollectionConfig: Sendable {
    public var name: String
    public var title: String
    public var description: String?
    /// Dataset files relative to `content/`; their item lists are concatenated.
    public var dataFiles: [String]
    /// Where the item list sits inside each file (empty: the file is the list).
    public var itemsPath: [PathComponent]
    public var rename: [String: String]
    public var fields: [String: FieldSpec]
    public var slug: SlugRule
    public var sort: [SortKey]
    /// Where each of `sort`'s keys is written in site.yml.
    public var sortSources: [SourceLocation] = []
    public var pageSize: Int?
    /// Computed fields, in declaration order (a derivation may use an earlier one).
    public var derived: [(name: String, derivation: Derivation)]
    /// Values from outside the item list, in declaration order.
    public var meta: [(name: String, rule: MetaRule)] = []
    /// Records joined into each item before its fields are checked and derived.
    public var joins: [JoinRule] = []
    public var images: ImageRule?
    public var layout: LayoutConfig
    public var listTemplate: String
    /// Site path of the first list page, e.g. `/bounties/`; page n is `<url>page/<n>/`.
    public var listURL: String
    public var detailTemplate: String?
    /// Pattern of item pages, e.g. `/bounties/{slug}/`; nil: no item pages.
    public var detailURL: String?
    /// Which fields a card shows as its title, subtitle and image (the built-in theme's cards).
    public var card: CardFields
    /// Lists of other collections' items attached to each item.
    public var related: [RelatedRule] = []
    /// The static search index written for this collection, if any.
    public var search: SearchRule?
    /// The Atom feed of this collection, if any.
    public var feed: FeedRule?
    /// An image (relative to `content/`) for the collection's tile on the home page.
    public var icon: String?
    /// false: left out of the navigation and the home page (a collection reached from other pages).
    public var menu: Bool = true

    /// The image a card shows: `card.image`, else the first image field.
    public var cardImageField: String? { card.image ?? images?.fields.first }
}

/// The fields a card shows; nil picks a default (`title` or `name`, no subtitle, the first image field).
public struct CardFields: Sendable, Hashable {
    public var title: String?
    public var subtitle: String?
    public var image: String?
}

/// Notes: Markdown files with front matter anywhere under `content/`.
public struct NotesConfig: Sendable {
    /// The collection a bare `item: slug` refers to.
    public var collection: String?
    public var template: String
    /// Pattern of standalone note pages, e.g. `/notes/{slug}/`.
    public var url: String
    public var listTemplate: String
    public var listURL: String
    public var title: String
    /// The Atom feed of the notes (an `.xml` path).
    public var feedURL = "/feed.xml"
    /// The index of the notes' tags; each tag's page is below it (`/tags/swift/`).
    public var tagsURL = "/tags/"
}

/// The site configuration (`site.yml` at the root of the source folder).
public struct SiteConfig: Sendable {
    public var title: String
    public var baseURL: BaseURL
    public var language: String
    public var description: String?
    /// Who the feed names as its author (default: the site's title).
    public var author: String?
    public var collections: [CollectionConfig]
    public var notes: NotesConfig
    /// Pages of their own, rendered from templates with every collection at hand.
    public var pages: [PageConfig] = []

    public static let fileName = "site.yml"

    /// Parses and checks the configuration text. Every problem is reported, each at its line.
    public static func parse(_ text: String, file: String, baseURLOverride: String? = nil) throws(Diagnostics) -> SiteConfig {
        var problems: [Diagnostic] = []
        let root: Node
        do {
            guard let parsed = try YAMLDocument.compose(text, file: file, what: "site configuration") else {
                throw Diagnostics([Diagnostic(file: file, line: 1, "the site configuration is empty; it needs at least 'title' and 'baseURL'")])
            }
            root = parsed
        } catch let d as Diagnostic {
            throw Diagnostics([d])
        } catch let d as Diagnostics {
            throw d
        } catch {
            throw Diagnostics([Diagnostic(file: file, "\(error)")])
        }
        func attempt<T>(_ body: () throws(Diagnostic) -> T) -> T? {
            do { return try body() } catch { problems.append(error); return nil }
        }
        guard let top = attempt({ () throws(Diagnostic) in try ConfigNode(root, file: file, path: "") }) else { throw Diagnostics(problems) }
        problems += top.unknownKeys(["title", "baseURL", "language", "description", "author", "collections", "notes", "pages"])

        let title = attempt { () throws(Diagnostic) in try top.requiredString("title") } ?? ""
        var base: BaseURL? = nil
        if let override = baseURLOverride {
            base = BaseURL(override)
            if base == nil { problems.append(Diagnostic(file: "--base-url", "'\(override)' is not an absolute http(s) URL")) }
        } else if let text = attempt({ () throws(Diagnostic) in try top.requiredString("baseURL") }) {
            base = BaseURL(text)
            if base == nil, let n = top.raw("baseURL") {
                problems.append(top.error(n, "'baseURL' must be an absolute http(s) URL such as https://example.org/ (found '\(text)')"))
            }
        }
        let language = (attempt { () throws(Diagnostic) in try top.string("language") } ?? nil) ?? "en"
        let description = attempt { () throws(Diagnostic) in try top.string("description") } ?? nil
        let author = attempt { () throws(Diagnostic) in try top.string("author") } ?? nil

        var collections: [CollectionConfig] = []
        if let entries = attempt({ () throws(Diagnostic) in try top.entries("collections") }) {
            for (name, node) in entries {
                do {
                    let (c, more) = try parseCollection(name: name, node: node, file: file)
                    problems += more
                    if let c { collections.append(c) }
                } catch {
                    problems.append(error)
                }
            }
        }
        let pages = parsePages(top, problems: &problems)
        problems += checkLinks(collections: collections, pages: pages, file: file)

        var notes = NotesConfig(collection: nil, template: "note", url: "/notes/{slug}/", listTemplate: "notes", listURL: "/notes/", title: "Notes")
        if let n = attempt({ () throws(Diagnostic) in try top.child("notes") }), let n {
            problems += n.unknownKeys(["collection", "template", "url", "list", "title", "feed", "tags"])
            if let u = attempt({ () throws(Diagnostic) in try n.string("feed") }), let u {
                if let p = fileURLProblem(u, ext: ".xml") { problems.append(n.error(n.raw("feed") ?? n.node, "'notes.feed' \(p)")) } else { notes.feedURL = u }
            }
            if let u = attempt({ () throws(Diagnostic) in try n.string("tags") }), let u {
                if let p = urlProblem(u, needsSlug: false) { problems.append(n.error(n.raw("tags") ?? n.node, "'notes.tags' \(p)")) } else { notes.tagsURL = u }
            }
            notes.collection = attempt { () throws(Diagnostic) in try n.string("collection") } ?? nil
            notes.template = (attempt { () throws(Diagnostic) in try n.string("template") } ?? nil) ?? notes.template
            notes.title = (attempt { () throws(Diagnostic) in try n.string("title") } ?? nil) ?? notes.title
            if let u = attempt({ () throws(Diagnostic) in try n.string("url") }), let u {
                if let p = urlProblem(u, needsSlug: true) { problems.append(n.error(n.raw("url") ?? n.node, "'notes.url' \(p)")) } else { notes.url = u }
            }
            if let l = attempt({ () throws(Diagnostic) in try n.child("list") }), let l {
                problems += l.unknownKeys(["template", "url"])
                notes.listTemplate = (attempt { () throws(Diagnostic) in try l.string("template") } ?? nil) ?? notes.listTemplate
                if let u = attempt({ () throws(Diagnostic) in try l.string("url") }), let u {
                    if let p = urlProblem(u, needsSlug: false) { problems.append(l.error(l.raw("url") ?? l.node, "'notes.list.url' \(p)")) } else { notes.listURL = u }
                }
            }
            if let c = notes.collection, !collections.contains(where: { $0.name == c }) {
                problems.append(n.error(n.raw("collection") ?? n.node, "'notes.collection' names '\(c)', which is not a collection"))
            }
        }

        if !problems.isEmpty { throw Diagnostics(problems) }
        guard let base else { throw Diagnostics([Diagnostic(file: file, "missing baseURL")]) }
        var config = SiteConfig(title: title, baseURL: base, language: language, description: description, collections: collections, notes: notes)
        config.pages = pages
        config.author = author
        return config
    }

    /// nil when `url` is a usable site path pattern.
    static func urlProblem(_ url: String, needsSlug: Bool) -> String? {
        if !url.hasPrefix("/") || !url.hasSuffix("/") { return "must start and end with '/' (found '\(url)')" }
        if url.contains("..") || url.contains("//") { return "must not contain '..' or '//' (found '\(url)')" }
        if url.contains("%") { return "must not contain '%': write the path as it is, sitegen percent-encodes links itself (found '\(url)')" }
        if needsSlug != url.contains("{slug}") { return needsSlug ? "must contain {slug} (found '\(url)')" : "must not contain {slug} (found '\(url)')" }
        return nil
    }

    static func parseCollection(name: String, node: Node, file: String) throws(Diagnostic) -> (CollectionConfig?, [Diagnostic]) {
        let c = try ConfigNode(node, file: file, path: "collections.\(name)")
        var problems = c.unknownKeys(["title", "description", "data", "items", "rename", "fields", "slug", "sort", "pageSize",
                                      "derived", "meta", "join", "images", "layout", "list", "detail", "card",
                                      "related", "search", "feed", "icon", "menu"])
        func attempt<T>(_ body: () throws(Diagnostic) -> T) -> T? {
            do { return try body() } catch { problems.append(error); return nil }
        }
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }) else {
            throw c.error(node, "collection name '\(name)' may use only ASCII letters, digits, '-' and '_'")
        }
        let data = attempt { () throws(Diagnostic) in try c.strings("data") } ?? nil
        if data == nil || data?.isEmpty == true { problems.append(c.error(node, "missing required key '\(c.key("data"))' (the dataset file, relative to content/)")) }
        let itemsText = (attempt { () throws(Diagnostic) in try c.string("items") } ?? nil) ?? ""
        let itemsPath = KeyPath.parse(itemsText)
        if itemsPath == nil, let n = c.raw("items") { problems.append(c.error(n, "'\(c.key("items"))' is not a key path like 'boxOfficeResult.dailyBoxOfficeList'")) }

        var rename: [String: String] = [:]
        for (from, n) in attempt({ () throws(Diagnostic) in try c.entries("rename") }) ?? [] {
            guard case .scalar(let s) = n, !s.string.isEmpty else { problems.append(c.error(n, "'\(c.key("rename")).\(from)' must be the new field name")); continue }
            rename[from] = s.string
        }

        var fields: [String: FieldSpec] = [:]
        for (fname, n) in attempt({ () throws(Diagnostic) in try c.entries("fields") }) ?? [] {
            if let spec = attempt({ () throws(Diagnostic) in try parseField(n, key: "\(c.key("fields")).\(fname)", file: file) }) { fields[fname] = spec }
        }

        var slug: SlugRule? = nil
        if let n = c.raw("slug") {
            switch n {
            case .scalar(let s): slug = .field(s.string)
            case .mapping:
                if let s = attempt({ () throws(Diagnostic) in try ConfigNode(n, file: file, path: c.key("slug")) }) {
                    problems += s.unknownKeys(["from"])
                    if let f = attempt({ () throws(Diagnostic) in try s.requiredString("from") }) { slug = .derived(from: f) }
                }
            default: problems.append(c.error(n, "'\(c.key("slug"))' must be a field name or { from: field }"))
            }
        } else {
            problems.append(c.error(node, "missing required key '\(c.key("slug"))' (the field that names each item's page, or { from: field })"))
        }

        var sort: [SortKey] = []
        var sortSources: [SourceLocation] = []
        if let n = c.raw("sort") {
            let list: [Node]
            if case .sequence(let seq) = n { list = Array(seq) } else { list = [n] }
            for item in list {
                if let key = attempt({ () throws(Diagnostic) in try parseSortKey(item, key: c.key("sort"), file: file) }) {
                    sort.append(key)
                    sortSources.append(c.error(item, "").location)
                }
            }
        }

        let pageSize = attempt { () throws(Diagnostic) in try c.int("pageSize") } ?? nil
        if let p = pageSize, p < 1 { problems.append(c.error(c.raw("pageSize") ?? node, "'\(c.key("pageSize"))' must be at least 1")) }

        var derived: [(String, Derivation)] = []
        for (dname, n) in attempt({ () throws(Diagnostic) in try c.entries("derived") }) ?? [] {
            if let d = attempt({ () throws(Diagnostic) in try parseDerivation(n, key: "\(c.key("derived")).\(dname)", file: file) }) { derived.append((dname, d)) }
        }

        var meta: [(String, MetaRule)] = []
        for (mname, n) in attempt({ () throws(Diagnostic) in try c.entries("meta") }) ?? [] {
            let key = "\(c.key("meta")).\(mname)"
            if case .scalar(let s) = n {
                if let path = KeyPath.parse(s.string), !path.isEmpty { meta.append((mname, .path(path))) } else {
                    problems.append(c.error(n, "'\(key)' must be a key path into the data file, like boxOfficeResult.showRange, or a derivation"))
                }
            } else if let d = attempt({ () throws(Diagnostic) in try parseDerivation(n, key: key, file: file) }) {
                meta.append((mname, .derived(d)))
            }
        }

        var joins: [JoinRule] = []
        for (jname, n) in attempt({ () throws(Diagnostic) in try c.entries("join") }) ?? [] {
            guard let j = attempt({ () throws(Diagnostic) in try ConfigNode(n, file: file, path: "\(c.key("join")).\(jname)") }) else { continue }
            problems += j.unknownKeys(["data", "items", "key", "on"])
            let files = (attempt { () throws(Diagnostic) in try j.strings("data") } ?? nil) ?? []
            if files.isEmpty { problems.append(j.error(n, "missing required key '\(j.key("data"))' (the files to join, relative to content/; * matches within a folder)")) }
            let pathText = (attempt { () throws(Diagnostic) in try j.string("items") } ?? nil) ?? ""
            guard let path = KeyPath.parse(pathText) else { problems.append(j.error(j.raw("items") ?? n, "'\(j.key("items"))' is not a key path like 'movieInfoResult.movieInfo'")); continue }
            guard let key = attempt({ () throws(Diagnostic) in try j.requiredString("key") }) else { continue }
            let on = (attempt { () throws(Diagnostic) in try j.string("on") } ?? nil) ?? key
            joins.append(JoinRule(name: jname, dataFiles: files, itemsPath: path, key: key, on: on))
        }

        var images: ImageRule? = nil
        if let i = attempt({ () throws(Diagnostic) in try c.child("images") }), let i {
            images = parseImages(i, problems: &problems)
        }

        var card = CardFields(title: nil, subtitle: nil, image: nil)
        if let k = attempt({ () throws(Diagnostic) in try c.child("card") }), let k {
            problems += k.unknownKeys(["title", "subtitle", "image"])
            card = CardFields(title: attempt { () throws(Diagnostic) in try k.string("title") } ?? nil,
                              subtitle: attempt { () throws(Diagnostic) in try k.string("subtitle") } ?? nil,
                              image: attempt { () throws(Diagnostic) in try k.string("image") } ?? nil)
        }
        if let k = try? c.child("card"), let field = card.image, !(images?.fields.contains(field) ?? false) {
            problems.append(k.error(k.raw("image") ?? k.node, "'\(k.key("image"))' is '\(field)', which is not an image field, so no card would show it: list it in '\(c.key("images"))', e.g. images: { fields: [\(field)] }"))
        }
        var layout = LayoutConfig.list
        if let l = attempt({ () throws(Diagnostic) in try c.child("layout") }), let l {
            let hasImage = card.image ?? images?.fields.first != nil
            if let parsed = attempt({ () throws(Diagnostic) in try parseLayout(l, subtitle: card.subtitle != nil, image: hasImage) }) { layout = parsed }
        }

        var listTemplate = "list", listURL = "/\(name)/"
        if let l = attempt({ () throws(Diagnostic) in try c.child("list") }), let l {
            problems += l.unknownKeys(["template", "url"])
            listTemplate = (attempt { () throws(Diagnostic) in try l.string("template") } ?? nil) ?? listTemplate
            if let u = attempt({ () throws(Diagnostic) in try l.string("url") }), let u {
                if let p = urlProblem(u, needsSlug: false) { problems.append(l.error(l.raw("url") ?? l.node, "'\(l.key("url"))' \(p)")) } else { listURL = u }
            }
        }
        var detailTemplate: String? = "detail", detailURL: String? = "/\(name)/{slug}/"
        if let n = c.raw("detail") {
            if case .scalar(let s) = n, Bool.construct(from: s) == false {
                detailTemplate = nil
                detailURL = nil
            } else if let d = attempt({ () throws(Diagnostic) in try ConfigNode(n, file: file, path: c.key("detail")) }) {
                problems += d.unknownKeys(["template", "url"])
                detailTemplate = (attempt { () throws(Diagnostic) in try d.string("template") } ?? nil) ?? detailTemplate
                if let u = attempt({ () throws(Diagnostic) in try d.string("url") }), let u {
                    if let p = urlProblem(u, needsSlug: true) { problems.append(d.error(d.raw("url") ?? d.node, "'\(d.key("url"))' \(p)")) } else { detailURL = u }
                }
            }
        }

        guard let data, let itemsPath, let slug else { return (nil, problems) }
        var collection = CollectionConfig(
            name: name, title: (attempt { () throws(Diagnostic) in try c.string("title") } ?? nil) ?? name,
            description: attempt { () throws(Diagnostic) in try c.string("description") } ?? nil,
            dataFiles: data, itemsPath: itemsPath, rename: rename, fields: fields, slug: slug, sort: sort,
            pageSize: pageSize, derived: derived, images: images, layout: layout,
            listTemplate: listTemplate, listURL: listURL, detailTemplate: detailTemplate, detailURL: detailURL, card: card)
        collection.sortSources = sortSources
        collection.meta = meta
        collection.joins = joins
        collection.related = parseRelated(c, problems: &problems)
        collection.search = parseSearch(c, problems: &problems)
        collection.feed = parseFeed(c, listURL: listURL, problems: &problems)
        collection.icon = attempt { () throws(Diagnostic) in try c.string("icon") } ?? nil
        collection.menu = (attempt { () throws(Diagnostic) in try c.bool("menu") } ?? nil) ?? true
        return (collection, problems)
    }

    static func parseField(_ n: Node, key: String, file: String) throws(Diagnostic) -> FieldSpec {
        func type(_ text: String, _ at: Node) throws(Diagnostic) -> (FieldType, Bool) {
            let optional = text.hasSuffix("?")
            let name = optional ? String(text.dropLast()) : text
            guard let t = FieldType(rawValue: name) else {
                throw ConfigNode.error(at, file: file, "'\(key)' has unknown type '\(text)' (expected one of: \(FieldType.allCases.map(\.rawValue).joined(separator: ", ")), with '?' for optional)")
            }
            return (t, optional)
        }
        if case .scalar(let s) = n {
            let (t, optional) = try type(s.string, n)
            return FieldSpec(type: t, required: !optional, defaultValue: nil)
        }
        let m = try ConfigNode(n, file: file, path: key)
        if let bad = m.unknownKeys(["type", "default"]).first { throw bad }
        let (t, optional) = try type(m.requiredString("type"), m.raw("type") ?? n)
        var def: Value? = nil
        if let d = m.raw("default") { def = try YAMLValue.value(from: d, file: file) }
        return FieldSpec(type: t, required: !optional && def == nil, defaultValue: def)
    }

    static func parseSortKey(_ n: Node, key: String, file: String) throws(Diagnostic) -> SortKey {
        let m = try ConfigNode(n, file: file, path: key)
        if let bad = m.unknownKeys(["field", "order", "compare", "format"]).first { throw bad }
        let field = try m.requiredString("field")
        let orderText = try m.string("order") ?? "ascending"
        guard let direction = SortDirection(rawValue: orderText) ?? (orderText == "asc" ? .ascending : orderText == "desc" ? .descending : nil) else {
            throw m.error(m.raw("order") ?? n, "'\(key).order' must be ascending or descending (found '\(orderText)')")
        }
        let compare = try m.string("compare") ?? "text"
        let comparison: SortComparison
        switch compare {
        case "number": comparison = .number
        case "text": comparison = .text
        case "date":
            let format = DateFormat(try m.string("format") ?? "YYYY-MM-DD")
            guard format.canParse else { throw m.error(m.raw("format") ?? n, "'\(key).format' must name YYYY, MM and DD (found '\(format)')") }
            comparison = .date(format)
        default:
            throw m.error(m.raw("compare") ?? n, "'\(key).compare' must be number, text or date (found '\(compare)')")
        }
        return SortKey(field: field, direction: direction, comparison: comparison)
    }

    static func parseDerivation(_ n: Node, key: String, file: String) throws(Diagnostic) -> Derivation {
        let m = try ConfigNode(n, file: file, path: key)
        if let bad = m.unknownKeys(["from", "format", "template", "input", "output", "separator", "equals", "field"]).first { throw bad }
        if let t = try m.string("template") {
            guard m.raw("from") == nil, m.raw("format") == nil else { throw m.error(n, "'\(key)' takes either 'template' or 'from' with 'format'") }
            return .template(t)
        }
        let from = try m.requiredString("from")
        if let value = try m.string("equals") {
            guard m.raw("format") == nil else { throw m.error(n, "'\(key)' takes either 'equals' or 'format'") }
            return .equals(from: from, value: value)
        }
        guard let format = try m.string("format") else { return .copy(from: from) }
        switch format {
        case "thousands": return .thousands(from: from)
        case "abs": return .absolute(from: from)
        case "sign": return .sign(from: from)
        case "slug": return .slug(from: from)
        case "list": return .list(from: from, separator: try m.string("separator") ?? ",")
        case "join": return .join(from: from, field: try m.string("field"), separator: try m.string("separator") ?? ", ")
        case "date":
            let input = DateFormat(try m.string("input") ?? "YYYY-MM-DD")
            let output = DateFormat(try m.string("output") ?? "YYYY-MM-DD")
            guard input.canParse else { throw m.error(m.raw("input") ?? n, "'\(key).input' must name YYYY, MM and DD (found '\(input)')") }
            return .date(from: from, input: input, output: output)
        default:
            throw m.error(m.raw("format") ?? n, "'\(key).format' must be one of thousands, date, abs, sign, list, join, slug (found '\(format)')")
        }
    }

    /// `subtitle` and `image`: whether the collection's cards show them, for defaults that keep a
    /// card visible and for settings that would leave it empty.
    static func parseLayout(_ l: ConfigNode, subtitle: Bool, image: Bool) throws(Diagnostic) -> LayoutConfig {
        let kind = try l.string("kind") ?? "list"
        switch kind {
        case "list":
            if let bad = l.unknownKeys(["kind"]).first { throw bad }
            return .list
        case "grid":
            if let bad = l.unknownKeys(["kind", "columns", "spacing", "mediaAspect", "textHeight"]).first { throw bad }
            let aspectText = try l.string("mediaAspect") ?? "1:1"
            let parts = aspectText.split(separator: ":").compactMap { Double(String($0).trimmingWhitespace()) }
            guard parts.count == 2, parts[0] > 0, parts[1] > 0 else {
                throw l.error(l.raw("mediaAspect") ?? l.node, "'\(l.key("mediaAspect"))' must be width:height such as 7:10 (found '\(aspectText)')")
            }
            let textHeight = try nonNegative(l, "textHeight") ?? GridGeometry.defaultTextHeight(subtitle: subtitle)
            if textHeight == 0, !image {
                throw l.error(l.raw("textHeight") ?? l.node, "'\(l.key("textHeight"))' is 0 and the cards have no image, so every card would be empty: leave it out (the default fits the title and subtitle) or give the cards an image")
            }
            return .grid(GridGeometry(breakpoints: try parseColumns(l), spacing: try nonNegative(l, "spacing") ?? 10,
                                      mediaAspect: (parts[0], parts[1]), textHeight: textHeight))
        case "masonry":
            if let bad = l.unknownKeys(["kind", "policy", "columns", "gap", "insets", "maxWidth", "text"]).first { throw bad }
            let policyText = try l.string("policy") ?? MasonryPolicy.roundRobin.rawValue
            guard let policy = MasonryPolicy(rawValue: policyText) else {
                throw l.error(l.raw("policy") ?? l.node, "'\(l.key("policy"))' must be round-robin or shortest (found '\(policyText)')")
            }
            var insets = EdgeInsets()
            if let i = try l.child("insets") {
                if let bad = i.unknownKeys(["top", "left", "bottom", "right"]).first { throw bad }
                insets = EdgeInsets(top: try nonNegative(i, "top") ?? 0, left: try nonNegative(i, "left") ?? 0,
                                    bottom: try nonNegative(i, "bottom") ?? 0, right: try nonNegative(i, "right") ?? 0)
            }
            var text = CardTextMetrics()
            if case .scalar(let s)? = l.raw("text"), Bool.construct(from: s) == false {
                guard image else {
                    throw l.error(l.raw("text") ?? l.node, "'\(l.key("text"))' is false and the cards have no image, so every card would be empty: leave it out or give the cards an image")
                }
                text = .none
            } else if let t = try l.child("text") {
                if let bad = t.unknownKeys(["padding", "inset", "titleSize", "titleLineHeight", "size", "lineHeight", "maxLines"]).first { throw bad }
                text.padding = try nonNegative(t, "padding") ?? text.padding
                text.inset = try nonNegative(t, "inset") ?? text.inset
                text.titleSize = try positive(t, "titleSize") ?? text.titleSize
                text.titleLineHeight = try positive(t, "titleLineHeight") ?? text.titleLineHeight
                text.size = try positive(t, "size") ?? text.size
                text.lineHeight = try positive(t, "lineHeight") ?? text.lineHeight
                if let n = try t.int("maxLines") {
                    guard (1...50).contains(n) else { throw t.error(t.raw("maxLines") ?? t.node, "'\(t.key("maxLines"))' must be from 1 to 50 (found \(n))") }
                    text.maxLines = n
                }
            }
            return .masonry(ResponsiveMasonry(policy: policy, breakpoints: try parseColumns(l), gap: try nonNegative(l, "gap") ?? 12,
                                              insets: insets, text: text, maxWidth: try positive(l, "maxWidth") ?? 1240))
        default:
            throw l.error(l.raw("kind") ?? l.node, "'\(l.key("kind"))' must be grid, masonry or list (found '\(kind)')")
        }
    }

    /// `columns`: minimum viewport width in px → column count; default 2 columns everywhere.
    static func parseColumns(_ l: ConfigNode) throws(Diagnostic) -> [ColumnBreakpoint] {
        var breakpoints: [ColumnBreakpoint] = []
        for (width, n) in try l.entries("columns", expecting: "a mapping of minimum viewport widths in px to column counts (e.g. { 0: 2, 1024: 4 })") {
            guard let w = Int(width), (0...100_000).contains(w), case .scalar(let s) = n, let cols = Int(s.string), (1...12).contains(cols) else {
                throw l.error(n, "'\(l.key("columns"))' maps a minimum viewport width in px (0 to 100000) to a column count from 1 to 12 (e.g. 0: 2, 1024: 4)")
            }
            breakpoints.append(ColumnBreakpoint(minWidth: w, columns: cols))
        }
        return breakpoints.isEmpty ? [ColumnBreakpoint(minWidth: 0, columns: 2)] : breakpoints
    }

    static func nonNegative(_ n: ConfigNode, _ key: String) throws(Diagnostic) -> Double? {
        guard let v = try n.double(key) else { return nil }
        guard v >= 0, v <= 100_000 else { throw n.error(n.raw(key) ?? n.node, "'\(n.key(key))' must be a length in px from 0 to 100000 (found \(TemplateText.plain(.double(v))))") }
        return v
    }

    static func positive(_ n: ConfigNode, _ key: String) throws(Diagnostic) -> Double? {
        guard let v = try n.double(key) else { return nil }
        guard v > 0, v <= 100_000 else { throw n.error(n.raw(key) ?? n.node, "'\(n.key(key))' must be a length in px above 0 and at most 100000 (found \(TemplateText.plain(.double(v))))") }
        return v
    }
}

/// Key paths such as `boxOfficeResult.dailyBoxOfficeList` or `data[0].items`.
public enum KeyPath {
    /// nil when the text is not a key path; "" is the empty path (the file itself).
    public static func parse(_ text: String) -> [PathComponent]? {
        var out: [PathComponent] = []
        if text.isEmpty { return out }
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(part)
            guard !rest.isEmpty else { return nil }
            if let open = rest.firstIndex(of: "[") {
                let name = rest[..<open]
                if !name.isEmpty { out.append(.key(String(name))) }
                rest = rest[open...]
                while rest.first == "[" {
                    guard let close = rest.firstIndex(of: "]"), let i = Int(rest[rest.index(after: rest.startIndex)..<close]), i >= 0 else { return nil }
                    out.append(.index(i))
                    rest = rest[rest.index(after: close)...]
                }
                if !rest.isEmpty { return nil }
            } else {
                out.append(.key(String(rest)))
            }
        }
        return out
    }
}
