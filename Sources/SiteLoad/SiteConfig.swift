import SiteCore
import SiteFetch
import SiteMarkdown
import Yams

/// The site's base URL, split so that links can be written site-relative (`root` + path) and
/// absolute URLs (sitemap, feeds) made from it.
public struct BaseURL: Sendable, Hashable, CustomStringConvertible {
    /// `https://example.org`
    public var origin: String
    /// The path the site lives under, always starting and ending with "/": `/` or `/apps/`.
    public var root: String

    /// Accepts `http(s)://host[:port][/path]` without a character that markup would need
    /// escaped (`markupCharacter`): the base URL is printed into every page.
    public init?(_ text: String) {
        guard Self.markupCharacter(in: text) == nil else { return nil }
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return nil }
        let afterScheme = text.index(text.startIndex, offsetBy: lower.hasPrefix("https://") ? 8 : 7)
        let rest = text[afterScheme...]
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let host = rest[..<slash]
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "?" || $0 == "#" || $0 == "@" }) else {
            return nil
        }
        origin = String(text[..<slash])
        var path = String(rest[slash...])
        if path.contains("?") || path.contains("#") { return nil }
        if !path.hasPrefix("/") { path = "/" + path }
        if !path.hasSuffix("/") { path += "/" }
        root = path
    }

    public var description: String { origin + root }

    /// The first character of `text` that HTML would need escaped or that would end a URL in
    /// markup (`" ' < > \``, a space, a control character), with its percent-encoded form.
    public static func markupCharacter(in text: String) -> (character: Character, encoded: String)? {
        guard
            let c = text.unicodeScalars.first(where: {
                "\"'<>` \\".unicodeScalars.contains($0) || $0.properties.isWhitespace || $0.value < 0x20
                    || $0.value == 0x7F
            })
        else { return nil }
        return (Character(c), c.utf8.map { String(format: "%%%02X", $0) }.joined())
    }

    /// Why `text` is no base URL (nil when it is one), for `what` (`'baseURL'`, `--base-url`).
    public static func problem(_ text: String, what: String) -> String? {
        if let (c, encoded) = markupCharacter(in: text) {
            return
                "\(what) must not contain '\(c)', which would need escaping in HTML: percent-encode it as "
                + "\(encoded) (found '\(text)')"
        }
        return BaseURL(text) == nil
            ? "\(what) must be an absolute http(s) URL such as https://example.org/ (found '\(text)')" : nil
    }

    /// A site path (`/bounties/`) under the site's root (`/apps/bounties/`).
    public func path(_ sitePath: String) -> String { String(root.dropLast()) + sitePath }

    /// The absolute URL of a site path such as `/bounties/luffy/` (already percent-encoded).
    public func absolute(_ sitePath: String) -> String { origin + sitePath }
}

/// The type a dataset field must have.
public enum FieldType: String, Sendable, Hashable, CaseIterable {
    case string, integer, number, boolean, date, array, dictionary, any

    func accepts(_ value: Value) -> Bool {
        switch (self, value) {
        case (.any, _), (.string, .string), (.integer, .int), (.number, .int), (.number, .double), (.boolean, .bool),
            (.date, .date), (.date, .string), (.array, .array), (.dictionary, .dictionary):
            true
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

    public init(
        fields: [String], external: Bool, widthField: String?, heightField: String?, resize: Bool = true,
        output: ImageOutput = ImageOutput(), perField: [String: ImageOutput] = [:], keepMetadata: Bool = false,
        maxPixels: Int = ImageRule.defaultMaxPixels
    ) {
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
    /// Instead of files: a URL, fetched once per distinct URL its items' fields make.
    public var remote: RemoteSource?
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
    /// Instead of files: an http(s) URL whose answer is the dataset.
    public var remote: RemoteSource?
    /// Where the item list sits inside each file (empty: the file is the list).
    public var itemsPath: [PathComponent]
    public var rename: [String: String]
    public var fields: [String: FieldSpec]
    public var slug: SlugRule
    public var sort: [SortKey]
    /// Where each of `sort`'s keys is written in site.yml.
    public var sortSources: [SourceLocation] = []
    public var pageSize: Int?
    /// The page sizes allowed (a list page of more items is one page of them all: leave it out).
    public static let pageSizes = 1...1_000_000
    /// Computed fields, in declaration order (a derivation may use an earlier one).
    public var derived: [(name: String, derivation: Derivation)]
    /// Values from outside the item list, in declaration order.
    public var meta: [(name: String, rule: MetaRule)] = []
    /// Records joined into each item before its fields are checked and derived.
    public var joins: [JoinRule] = []
    public var images: ImageRule?
    public var layout: LayoutConfig
    /// The list pages' template (nil: the page kind's own).
    public var listTemplate: String?
    /// Site path of the first list page, e.g. `/bounties/`; page n is `<url>page/<n>/`.
    public var listURL: String
    /// The item pages' template (nil: the page kind's own).
    public var detailTemplate: String?
    /// Pattern of item pages, e.g. `/bounties/{slug}/`; nil: no item pages.
    public var detailURL: String?
    /// Which fields a card shows as its title, subtitle and image (the built-in theme's cards).
    public var card: CardFields
    /// Lists of other collections' items attached to each item.
    public var related: [RelatedRule] = []
    /// Fields to browse the items by, each with an index page and a page per value (`TermRule`).
    public var terms: [TermRule] = []
    /// The static search index written for this collection, if any.
    public var search: SearchRule?
    /// The Atom feed of this collection, if any.
    public var feed: FeedRule?
    /// An image (relative to `content/`) for the collection's tile on the home page.
    public var icon: String?
    /// false: left out of the navigation and the home page (a collection reached from other pages).
    public var menu: Bool = true

    /// Whether its data or a join's is a URL.
    public var readsHTTP: Bool { remote != nil || joins.contains { $0.remote != nil } }

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
    /// The note pages' template (nil: the page kind's own).
    public var template: String?
    /// Pattern of standalone note pages, e.g. `/notes/{slug}/`.
    public var url: String
    /// The list pages' template (nil: the page kind's own).
    public var listTemplate: String?
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
    /// The words sitegen writes into pages: `language`'s table with `words:` applied.
    public var words = InterfaceWords.english
    /// How collections read from HTTP APIs are fetched (`fetch:`).
    public var fetch = FetchSettings()
    /// How notes are read (`markdown:`): GFM's extensions, smart punctuation, raw HTML.
    public var markdown = MarkdownOptions()
    /// The themes of highlighted code (`highlight:`); nil: code blocks as escaped text.
    public var highlight: HighlightConfig? = .standard

    public static let fileName = SourceLayout.configuration
    /// The digest of the text it was parsed from, with the base URL given instead of its own:
    /// another configuration, another site (`BuildRecord`).
    public var digest: UInt64 = 0

    /// Parses and checks the configuration text. Every problem is reported, each at its line.
    public static func parse(_ text: String, file: String, baseURLOverride: String? = nil) throws(Diagnostics)
        -> SiteConfig
    {
        var problems: [Diagnostic] = []
        let root = try compose(text, file: file)
        guard let top = attempt(&problems, { () throws(Diagnostic) in try ConfigNode(root, file: file, path: "") })
        else { throw Diagnostics(problems) }

        let title = attempt(&problems) { () throws(Diagnostic) in try top.requiredString("title") } ?? ""
        var base: BaseURL? = nil
        if let override = baseURLOverride {
            top.declare("baseURL")
            base = BaseURL(override)
            if let p = BaseURL.problem(override, what: "the base URL") {
                problems.append(Diagnostic(file: "--base-url", p))
            }
        } else if let text = attempt(&problems, { () throws(Diagnostic) in try top.requiredString("baseURL") }) {
            base = BaseURL(text)
            if let p = BaseURL.problem(text, what: "'baseURL'"), let n = top.raw("baseURL") {
                problems.append(top.error(n, p))
            }
        }
        let language = (attempt(&problems) { () throws(Diagnostic) in try top.string("language") } ?? nil) ?? "en"
        let description = attempt(&problems) { () throws(Diagnostic) in try top.string("description") } ?? nil
        let author = attempt(&problems) { () throws(Diagnostic) in try top.string("author") } ?? nil

        var collections: [CollectionConfig] = []
        for (name, key, node) in attempt(&problems, { () throws(Diagnostic) in try top.keyedEntries("collections") })
            ?? []
        {
            do {
                let (c, more) = try parseCollection(name: name, key: key, node: node, file: file)
                problems += more
                if let c { collections.append(c) }
            } catch {
                problems.append(error)
            }
        }
        let pages = parsePages(top, problems: &problems)
        problems += checkLinks(collections: collections, pages: pages, file: file)
        let notes = parseNotes(top, collections: collections, problems: &problems)
        let words = parseWords(top, language: language, problems: &problems)
        let fetch = parseFetch(top, problems: &problems)
        let markdown = parseMarkdown(top, problems: &problems)
        let highlight = parseHighlight(top, problems: &problems)
        top.reportUnknownKeys(into: &problems, at: 0)

        if !problems.isEmpty { throw Diagnostics(problems) }
        guard let base else { throw Diagnostics([Diagnostic(file: file, "missing baseURL")]) }
        var config = SiteConfig(
            title: title, baseURL: base, language: language, description: description, collections: collections,
            notes: notes)
        config.pages = pages
        config.author = author
        config.words = words
        config.fetch = fetch
        config.markdown = markdown
        config.highlight = highlight
        var digest = StableDigest()
        digest.combine(text)
        digest.combine(baseURLOverride ?? "")
        config.digest = digest.value
        return config
    }

    /// The configuration's YAML tree; an empty file or a syntax error is the only problem reported.
    static func compose(_ text: String, file: String) throws(Diagnostics) -> Node {
        do {
            guard let parsed = try YAMLDocument.compose(text, file: file, what: "site configuration") else {
                throw Diagnostics([
                    Diagnostic(
                        file: file, line: 1, "the site configuration is empty; it needs at least 'title' and 'baseURL'")
                ])
            }
            return parsed
        } catch let d as Diagnostic {
            throw Diagnostics([d])
        } catch let d as Diagnostics {
            throw d
        } catch {
            throw Diagnostics([Diagnostic(file: file, "\(error)")])
        }
    }

    /// `body`'s value, or nil with its error added to `problems`: readers go on past a bad value
    /// so that one run reports every problem.
    static func attempt<T>(_ problems: inout [Diagnostic], _ body: () throws(Diagnostic) -> T) -> T? {
        do { return try body() } catch { problems.append(error); return nil }
    }

    /// `notes:`; `collections` for the check that `notes.collection` names one.
    static func parseNotes(_ top: ConfigNode, collections: [CollectionConfig], problems: inout [Diagnostic])
        -> NotesConfig
    {
        var notes = NotesConfig(
            collection: nil, template: nil, url: "/notes/{slug}/", listTemplate: nil, listURL: "/notes/",
            title: "Notes")
        guard let n = attempt(&problems, { () throws(Diagnostic) in try top.child("notes") }), let n else {
            return notes
        }
        let start = problems.count
        if let u = attempt(&problems, { () throws(Diagnostic) in try n.string("feed") }), let u {
            if let p = fileURLProblem(u, ext: ".xml") {
                problems.append(n.error(n.raw("feed") ?? n.node, "'notes.feed' \(p)"))
            } else {
                notes.feedURL = u
            }
        }
        if let u = attempt(&problems, { () throws(Diagnostic) in try n.string("tags") }), let u {
            if let p = urlProblem(u, needsSlug: false) {
                problems.append(n.error(n.raw("tags") ?? n.node, "'notes.tags' \(p)"))
            } else {
                notes.tagsURL = u
            }
        }
        notes.collection = attempt(&problems) { () throws(Diagnostic) in try n.string("collection") } ?? nil
        notes.template =
            (attempt(&problems) { () throws(Diagnostic) in try n.string("template") } ?? nil) ?? notes.template
        notes.title = (attempt(&problems) { () throws(Diagnostic) in try n.string("title") } ?? nil) ?? notes.title
        if let u = attempt(&problems, { () throws(Diagnostic) in try n.string("url") }), let u {
            if let p = urlProblem(u, needsSlug: true) {
                problems.append(n.error(n.raw("url") ?? n.node, "'notes.url' \(p)"))
            } else {
                notes.url = u
            }
        }
        if let l = attempt(&problems, { () throws(Diagnostic) in try n.child("list") }), let l {
            (notes.listTemplate, notes.listURL) = parsePageOptions(
                l, template: notes.listTemplate, url: notes.listURL, needsSlug: false, problems: &problems)
        }
        if let c = notes.collection, !collections.contains(where: { $0.name == c }) {
            problems.append(
                n.error(n.raw("collection") ?? n.node, "'notes.collection' names '\(c)', which is not a collection"))
        }
        n.reportUnknownKeys(into: &problems, at: start)
        return notes
    }

    /// `template` and `url` of a list or detail page (`options`), defaulting to `template` and `url`.
    static func parsePageOptions(
        _ options: ConfigNode, template: String?, url: String, needsSlug: Bool,
        problems: inout [Diagnostic]
    ) -> (String?, String) {
        let start = problems.count
        let template =
            (attempt(&problems) { () throws(Diagnostic) in try options.string("template") } ?? nil)
            ?? template
        var url = url
        if let u = attempt(&problems, { () throws(Diagnostic) in try options.string("url") }), let u {
            if let p = urlProblem(u, needsSlug: needsSlug) {
                problems.append(options.error(options.raw("url") ?? options.node, "'\(options.key("url"))' \(p)"))
            } else {
                url = u
            }
        }
        options.reportUnknownKeys(into: &problems, at: start)
        return (template, url)
    }

    /// nil when `url` is a usable site path pattern.
    static func urlProblem(_ url: String, needsSlug: Bool) -> String? {
        if !url.hasPrefix("/") || !url.hasSuffix("/") { return "must start and end with '/' (found '\(url)')" }
        if url.contains("..") || url.contains("//") { return "must not contain '..' or '//' (found '\(url)')" }
        if url.contains("%") {
            return
                "must not contain '%': write the path as it is, sitegen percent-encodes links itself (found '\(url)')"
        }
        if needsSlug != url.contains("{slug}") {
            return needsSlug ? "must contain {slug} (found '\(url)')" : "must not contain {slug} (found '\(url)')"
        }
        return overlongProblem(url)
    }

    /// `subtitle` and `image`: whether the collection's cards show them, for defaults that keep a
    /// card visible and for settings that would leave it empty.
    static func parseLayout(_ layout: ConfigNode, subtitle: Bool, image: Bool) throws(Diagnostic) -> LayoutConfig {
        let kind = try layout.string("kind") ?? "list"
        switch kind {
        case "list":
            try layout.rejectUnknownKeys()
            return .list
        case "grid": return try parseGrid(layout, subtitle: subtitle, image: image)
        case "masonry": return try parseMasonry(layout, image: image)
        default:
            throw layout.error(
                layout.raw("kind") ?? layout.node,
                "'\(layout.key("kind"))' must be grid, masonry or list (found '\(kind)')")
        }
    }

    static func parseGrid(_ layout: ConfigNode, subtitle: Bool, image: Bool) throws(Diagnostic) -> LayoutConfig {
        let aspectGiven = layout.soft { () throws(Diagnostic) in try layout.string("mediaAspect") }
        let aspectText = aspectGiven ?? "1:1"
        let textHeight =
            layout.soft { () throws(Diagnostic) in try nonNegative(layout, "textHeight") }
            ?? GridGeometry.defaultTextHeight(subtitle: subtitle)
        let breakpoints =
            layout.raw("columns") == nil
            ? GridGeometry.defaultBreakpoints : layout.soft { () throws(Diagnostic) in try parseColumns(layout) } ?? []
        let spacing = layout.soft { () throws(Diagnostic) in try nonNegative(layout, "spacing") } ?? 10
        let inset =
            layout.soft { () throws(Diagnostic) in try nonNegative(layout, "inset") }
            ?? GridGeometry.defaultInset
        try layout.rejectUnknownKeys()
        let parts = aspectText.split(separator: ":").compactMap { Double(String($0).trimmingWhitespace()) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else {
            throw layout.error(
                layout.raw("mediaAspect") ?? layout.node,
                "'\(layout.key("mediaAspect"))' must be"
                    + " width:height such as 7:10 (found '\(aspectText)')")
        }
        if textHeight == 0, !image {
            throw layout.error(
                layout.raw("textHeight") ?? layout.node,
                "'\(layout.key("textHeight"))' is 0 and the cards have no image, so every card would"
                    + " be empty: leave it out (the default fits the title and subtitle) or give the cards"
                    + " an image")
        }
        return .grid(
            GridGeometry(
                breakpoints: breakpoints, spacing: spacing, mediaAspect: (parts[0], parts[1]), textHeight: textHeight,
                inset: inset,
                aspectFromImages: aspectGiven == nil && layout.raw("mediaAspect") == nil))
    }

    static func parseMasonry(_ layout: ConfigNode, image: Bool) throws(Diagnostic) -> LayoutConfig {
        let policyText =
            layout.soft { () throws(Diagnostic) in try layout.string("policy") }
            ?? MasonryPolicy.roundRobin.rawValue
        let insets = layout.soft { () throws(Diagnostic) in try parseInsets(layout) } ?? EdgeInsets()
        let text = layout.soft { () throws(Diagnostic) in try parseCardText(layout, image: image) } ?? CardTextMetrics()
        let breakpoints = layout.soft { () throws(Diagnostic) in try parseColumns(layout) } ?? []
        let gap = layout.soft { () throws(Diagnostic) in try nonNegative(layout, "gap") } ?? 12
        let maxWidth = layout.soft { () throws(Diagnostic) in try positive(layout, "maxWidth") } ?? 1240
        try layout.rejectUnknownKeys()
        guard let policy = MasonryPolicy(rawValue: policyText) else {
            throw layout.error(
                layout.raw("policy") ?? layout.node,
                "'\(layout.key("policy"))' must be round-robin or shortest (found '\(policyText)')")
        }
        return .masonry(
            ResponsiveMasonry(
                policy: policy, breakpoints: breakpoints, gap: gap, insets: insets, text: text, maxWidth: maxWidth))
    }

    static func parseInsets(_ layout: ConfigNode) throws(Diagnostic) -> EdgeInsets {
        guard let i = try layout.child("insets") else { return EdgeInsets() }
        func length(_ name: String) -> Double { i.soft { () throws(Diagnostic) in try nonNegative(i, name) } ?? 0 }
        let insets = EdgeInsets(
            top: length("top"), left: length("left"), bottom: length("bottom"), right: length("right"))
        try i.rejectUnknownKeys()
        return insets
    }

    /// A masonry layout's `text`: `false` (image-only cards) or the card text's metrics.
    static func parseCardText(_ layout: ConfigNode, image: Bool) throws(Diagnostic) -> CardTextMetrics {
        var text = CardTextMetrics()
        if case .scalar(let s)? = layout.raw("text"), Bool.construct(from: s) == false {
            guard image else {
                throw layout.error(
                    layout.raw("text") ?? layout.node,
                    "'\(layout.key("text"))' is false and the cards have no image, so every card"
                        + " would be empty: leave it out or give the cards an image")
            }
            return .none
        }
        guard let t = try layout.child("text") else { return text }
        func length(_ name: String, positive: Bool) -> Double? {
            t.soft { () throws(Diagnostic) in try positive ? Self.positive(t, name) : nonNegative(t, name) }
        }
        text.padding = length("padding", positive: false) ?? text.padding
        text.inset = length("inset", positive: false) ?? text.inset
        text.titleSize = length("titleSize", positive: true) ?? text.titleSize
        text.titleLineHeight = length("titleLineHeight", positive: true) ?? text.titleLineHeight
        text.size = length("size", positive: true) ?? text.size
        text.lineHeight = length("lineHeight", positive: true) ?? text.lineHeight
        let maxLines = t.soft { () throws(Diagnostic) in try t.int("maxLines") }
        try t.rejectUnknownKeys()
        if let n = maxLines {
            guard (1...50).contains(n) else {
                throw t.error(t.raw("maxLines") ?? t.node, "'\(t.key("maxLines"))' must be from 1 to 50 (found \(n))")
            }
            text.maxLines = n
        }
        return text
    }

    /// `columns`: minimum viewport width in px → column count; default 2 columns everywhere.
    static func parseColumns(_ layout: ConfigNode) throws(Diagnostic) -> [ColumnBreakpoint] {
        var breakpoints: [ColumnBreakpoint] = []
        for (width, n) in try layout.entries(
            "columns",
            expecting: "a mapping of minimum viewport widths in px"
                + " to column counts (e.g. { 0: 2, 1024: 4 })")
        {
            guard let w = Int(width), (0...100_000).contains(w), case .scalar(let s) = n, let cols = Int(s.string),
                (1...12).contains(cols)
            else {
                throw layout.error(
                    n,
                    "'\(layout.key("columns"))' maps a minimum viewport width in px (0 to 100000)"
                        + " to a column count from 1 to 12 (e.g. 0: 2, 1024: 4)")
            }
            breakpoints.append(ColumnBreakpoint(minWidth: w, columns: cols))
        }
        return breakpoints.isEmpty ? [ColumnBreakpoint(minWidth: 0, columns: 2)] : breakpoints
    }

    static func nonNegative(_ node: ConfigNode, _ key: String) throws(Diagnostic) -> Double? {
        guard let v = try node.double(key) else { return nil }
        guard v >= 0, v <= 100_000 else {
            throw node.error(
                node.raw(key) ?? node.node,
                "'\(node.key(key))' must be a length in px from 0 to 100000"
                    + " (found \(TemplateText.plain(.double(v))))")
        }
        return v
    }

    static func positive(_ node: ConfigNode, _ key: String) throws(Diagnostic) -> Double? {
        guard let v = try node.double(key) else { return nil }
        guard v > 0, v <= 100_000 else {
            throw node.error(
                node.raw(key) ?? node.node,
                "'\(node.key(key))' must be a length in px above 0 and at most 100000"
                    + " (found \(TemplateText.plain(.double(v))))")
        }
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
                    guard let close = rest.firstIndex(of: "]"),
                        let i = Int(rest[rest.index(after: rest.startIndex)..<close]), i >= 0
                    else { return nil }
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
