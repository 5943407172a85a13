import SiteCore
import SiteImages
import SiteRender

// What a page shows, as typed values: the renderer makes them, `TemplateEncoding` alone turns
// them into what templates see. Each view names its template keys in a `Key` enum, so the names
// a template may use (`PageViews.names`) come from these types and nothing else.

/// What `{{#site.asset}}photos.css{{/site.asset}}` prints: the file's fingerprinted URL (its
/// plain one for other files). A value, not a function, so that `SiteView` hashes like the rest.
struct AssetLinks: Sendable, Hashable, Encodable {
    /// Stylesheets and scripts by their fingerprinted names.
    var names: [String: String]
    /// The site's root path (`URLScheme.root`).
    var root: String

    func url(_ path: String) -> String { URLScheme.asset(names[path] ?? path, root: root) }
}

/// What every page's `site` holds, made once per build (the navigation is the page's own).
struct SiteView: Sendable, Hashable, Encodable {
    enum Key: String, TemplateKey {
        case title, language, root, baseURL, generator, notesURL, notesTitle, skipText, navLabel, closeLabel,
            pagesLabel, emptyText
        case description, feed, asset, tags, tagsTitle, sections, contentsLabel

        var holds: [any TemplateKey.Type] { self == .sections ? [SectionLink.Key.self] : [] }
    }
    var title: String
    var language: String
    var root: String
    var baseURL: String
    var notesURL: String
    var notesTitle: String
    /// The configuration's interface words (its language's table with `words:` applied).
    var words: InterfaceWords
    var description: String?
    var feed: String?
    /// `{{#site.asset}}photos.css{{/site.asset}}`: the file's fingerprinted URL.
    var asset: AssetLinks
    /// The tag index, when notes have tags.
    var tags: String?
}

extension SiteView {
    /// `site` as one page sees it: the site-wide values and the page's navigation.
    struct Page: TemplateView {
        typealias Key = SiteView.Key
        var site: SiteView
        var sections: [SectionLink]

        func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding) {
            let s = site
            switch key {
            case .title: o.put(s.title)
            case .language: o.put(s.language)
            case .root: o.put(s.root)
            case .baseURL: o.put(s.baseURL)
            case .generator: o.put("sitegen")
            case .notesURL: o.put(s.notesURL)
            case .notesTitle: o.put(s.notesTitle)
            case .skipText: o.put(s.words.skipLink)
            case .navLabel: o.put(s.words.navigation)
            case .closeLabel: o.put(s.words.close)
            case .pagesLabel: o.put(s.words.pagination)
            case .emptyText: o.put(s.words.empty)
            case .contentsLabel: o.put(s.words.contents)
            case .description: o.put(s.description)
            case .feed: o.put(s.feed)
            case .asset:
                let assets = s.asset
                o.put(.lambda(TemplateLibrary.helper { assets.url($0) }))
            case .tags: o.put(s.tags)
            case .tagsTitle: if s.tags != nil { o.put(s.words.tags) }
            case .sections: o.put(TemplateEncoding.list(sections.map { e.object($0) }))
            }
        }
    }
}

/// A navigation entry.
struct SectionLink: Sendable, Hashable, Encodable {
    enum Key: String, TemplateKey {
        case title, url, current
        var holds: [any TemplateKey.Type] { [] }
    }
    var title: String
    var url: String
    var current: Bool
}

extension SectionLink: TemplateView {
    func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding) {
        switch key {
        case .title: o.put(title)
        case .url: o.put(url)
        case .current: o.put(current)
        }
    }
}

/// The page's own `page`: title, URLs and what social cards show.
struct PageMeta: Sendable, Hashable {
    enum Key: String, TemplateKey {
        case title, url, canonical, description, image, type, codeStyles
        var holds: [any TemplateKey.Type] { [] }
    }
    var title: String
    var url: String
    var canonical: String
    var description: String?
    var image: String? = nil
    var type: String? = nil
    /// The stylesheet of highlighted code, on pages that show code.
    var codeStyles: String? = nil
}

extension PageMeta: TemplateView {
    func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding) {
        switch key {
        case .title: o.put(title)
        case .url: o.put(url)
        case .canonical: o.put(canonical)
        case .description: o.put(description)
        case .image: o.put(image)
        case .type: o.put(type)
        case .codeStyles: o.put(codeStyles)
        }
    }
}

/// A collection as pages show it (`collection`, the home page's tiles, `data.<name>`).
struct CollectionView: Sendable, Hashable {
    enum Key: String, TemplateKey {
        case name, title, url, count, description, meta, search, feed, icon, countText, items

        var holds: [any TemplateKey.Type] {
            switch self {
            case .icon: [ImageView.Key.self]
            case .items: [ItemView.Key.self]
            case .name, .title, .url, .count, .description, .meta, .search, .feed, .countText: []
            }
        }
        static var openNames: OpenNames { .dataFields }
    }
    var name: String
    var title: String
    var url: String
    /// How many items (nil for the notes' list, which shows no count).
    var count: Int? = nil
    var description: String? = nil
    var meta: [String: Value]? = nil
    var search: String? = nil
    var feed: String? = nil
    var icon: ImageView? = nil
    var countText: String? = nil
    /// Every item in display order (`data.<name>.items`), by index.
    var items: [Int]? = nil
    /// The collection's index in the model (for its items).
    var index: Int? = nil
}

/// A list page's place among its pages.
struct PaginationView: Sendable, Hashable {
    enum Key: String, TemplateKey {
        case number, count, isFirst, isLast, many, pages, prev, next
        var holds: [any TemplateKey.Type] { self == .pages ? [PageKey.self] : [] }
    }
    enum PageKey: String, TemplateKey {
        case number, url, current
        var holds: [any TemplateKey.Type] { [] }
    }
    var number: Int
    /// Each page's URL, from page 1.
    var urls: [String]
}

extension PaginationView: TemplateView {
    func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding) {
        let count = urls.count
        switch key {
        case .number: o.put(number)
        case .count: o.put(count)
        case .isFirst: o.put(number == 1)
        case .isLast: o.put(number == count)
        case .many: o.put(count > 1)
        case .pages:
            o.put(
                TemplateEncoding.list(
                    urls.enumerated().map { k, url in
                        e.object(PageKey.self) { key, p in
                            switch key {
                            case .number: p.put(k + 1)
                            case .url: p.put(url)
                            case .current: p.put(k + 1 == number)
                            }
                        }
                    }))
        case .prev: if number > 1 { o.put(urls[number - 2]) }
        case .next: if number < count { o.put(urls[number]) }
        }
    }
}

/// How a list lays its cards out.
struct LayoutView: Sendable, Hashable {
    enum Key: String, TemplateKey {
        case kind, css, style
        var holds: [any TemplateKey.Type] { [] }
    }
    var kind: String
    var css: String? = nil
    /// A masonry page's placement.
    var style: String? = nil
}

extension LayoutView: TemplateView {
    func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding) {
        switch key {
        case .kind: o.put(kind)
        case .css: o.put(css)
        case .style: o.put(style)
        }
    }
}

/// An item as every page shows it (its page, its neighbours', its list's), made once: its data
/// fields (as loaded) and the names sitegen adds.
struct ItemView: Sendable, Hashable, Encodable {
    enum Key: String, TemplateKey {
        case slug, url, card, fieldList, related, terms, termLists, layoutStyle

        /// `related` holds the related lists by their names (the configuration's), `terms` the
        /// item's terms by their rules' names.
        var holds: [any TemplateKey.Type] {
            switch self {
            case .card: [CardView.Key.self]
            case .fieldList: [FieldKey.self]
            case .terms: [TagView.Key.self]
            case .termLists: [TermsKey.self]
            case .slug, .url, .related, .layoutStyle: []
            }
        }
        static var openNames: OpenNames { .dataFields }
    }
    enum FieldKey: String, TemplateKey {
        case name, value
        var holds: [any TemplateKey.Type] { [] }
    }
    /// One rule's terms in `termLists` (the built-in item page lists them all).
    enum TermsKey: String, TemplateKey {
        case title, url, terms
        var holds: [any TemplateKey.Type] { self == .terms ? [TagView.Key.self] : [] }
    }
    var fields: [String: Value]
    var images: [String: ImageView]
    var slug: String
    var url: String?
    var card: CardView
    /// The plain fields by name, sorted (`{{#fieldList}}{{name}}: {{value}}{{/fieldList}}`).
    var fieldList: [Field]
    /// Related lists by rule name: indices into the collection `collection`, in its order.
    var related: [Related] = []
    /// Whether the collection has related rules (then `related` is sitegen's name, not a field's).
    var hasRelatedRules = false
    /// The item's terms of each of the collection's rules, in their order (`item.terms.<name>`);
    /// empty when the collection has no rules (then `terms` may be a field's name).
    var terms: [Terms] = []

    struct Terms: Sendable, Hashable, Encodable {
        var name: String
        /// The index's title and URL.
        var title: String
        var url: String
        var links: [TagView]
    }

    struct Field: Sendable, Hashable, Encodable {
        var name: String
        var value: String
    }

    struct Related: Sendable, Hashable, Encodable {
        var name: String
        var collection: Int
        var items: [Int]
    }
}

/// What a card shows.
struct CardView: Sendable, Hashable, Encodable {
    enum Key: String, TemplateKey {
        case title, subtitle, image
        var holds: [any TemplateKey.Type] { self == .image ? [ImageView.Key.self] : [] }
    }
    var title: String
    var subtitle: String?
    var image: ImageView?
}

extension CardView: TemplateView {
    func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding) {
        switch key {
        case .title: o.put(title)
        case .subtitle: o.put(subtitle)
        case .image: if let image { o.put(e.image(image)) }
        }
    }
}

/// An image as a template shows it: a resized one with its variants, or a file as it is.
struct ImageView: Sendable, Hashable, Encodable {
    enum Key: String, TemplateKey {
        case src, width, height, srcset, sizes, sources, placeholder, detail
        /// Each format's `srcset` by the format's name.
        case avif, webp, jpeg, png

        /// The key of a format's `srcset`.
        init(format: ImageFormat) {
            switch format {
            case .avif: self = .avif
            case .webp: self = .webp
            case .jpeg: self = .jpeg
            case .png: self = .png
            }
        }

        var holds: [any TemplateKey.Type] {
            switch self {
            case .sources: [SourceKey.self]
            case .placeholder: [PlaceholderKey.self]
            case .detail: [ImageView.Key.self]
            case .src, .width, .height, .srcset, .sizes, .avif, .webp, .jpeg, .png: []
            }
        }
    }
    enum SourceKey: String, TemplateKey {
        case type, srcset
        var holds: [any TemplateKey.Type] { [] }
    }
    enum PlaceholderKey: String, TemplateKey {
        case color, preview, style
        var holds: [any TemplateKey.Type] { [] }
    }
    var src: String
    var width: Int? = nil
    var height: Int? = nil
    var resized: Resized? = nil
    /// The files for a detail page's column (`detail`: its own widths and `sizes`); nil: the
    /// image's own (a file shown as it is).
    var detail: Variant? = nil

    /// A modern format's files: `format` names its own key (`avif`), `type` its MIME type.
    struct Source: Sendable, Hashable, Encodable {
        var format: String
        var type: String
        var srcset: String
    }

    /// One set of an image's files: `src`, `width`, `height` (the widest fallback) and srcsets.
    struct Variant: Sendable, Hashable, Encodable {
        var src: String
        var width: Int?
        var height: Int?
        var srcset: String
        var sizes: String
        var sources: [Source]
    }

    struct Resized: Sendable, Hashable, Encodable {
        var srcset: String
        var sizes: String
        /// Each modern format's `type` and `srcset`, most preferred first (`avif`, `webp` keys too).
        var sources: [Source]
        var color: String
        var preview: String
    }
}

extension ImageView.Resized: TemplateView {
    typealias Key = ImageView.PlaceholderKey

    /// The image's placeholder: its colour and preview, and both as a CSS background.
    func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding) {
        switch key {
        case .color: o.put(color)
        case .preview: o.put(preview)
        case .style: o.put("background-color:\(color);background-image:url(\(preview));background-size:cover")
        }
    }
}

/// A note as lists and its page show it.
struct NoteView: Sendable, Hashable {
    enum Key: String, TemplateKey {
        case title, slug, url, tags, tagLinks, date, html, toc, showToc, hasCode

        var holds: [any TemplateKey.Type] {
            switch self {
            case .tagLinks: [TagLink.Key.self]
            case .toc: [TocEntry.Key.self]
            case .title, .slug, .url, .tags, .date, .html, .showToc, .hasCode: []
            }
        }
        static var openNames: OpenNames { .frontMatter }
    }
    /// The keys of a note's record, for the keys that hold notes (`TemplateKey.holds`).
    static var recordKeys: [any TemplateKey.Type] { [Key.self, FrontMatterKey.self] }
    /// Front matter sitegen reads, which templates may print even where no note has it.
    enum FrontMatterKey: String, TemplateKey {
        case summary
        var holds: [any TemplateKey.Type] { [] }
    }
    var fields: [String: Value]
    var title: String
    var slug: String
    var url: String
    var tags: [String]
    var tagLinks: [TagLink]
    var date: String?
    /// The body, on pages that show it.
    var html: String?
    /// The headings, nested (on pages that show the body).
    var toc: [TocEntry] = []
    /// Front matter `toc: true` and the note has headings.
    var showToc = false
    /// A code block names its language (a highlighter's stylesheet is needed).
    var hasCode = false
}

extension NoteView: TemplateView {
    /// sitegen's names; the front matter's fields are the object's other entries
    /// (`TemplateEncoding.note`).
    func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding) {
        switch key {
        case .title: o.put(title)
        case .slug: o.put(slug)
        case .url: o.put(url)
        case .tags: o.put(.list(TemplateList(tags.map(TemplateValue.string), sortable: true)))
        case .tagLinks: o.put(TemplateEncoding.list(tagLinks.map { e.object($0) }))
        case .date: o.put(date)
        case .html: o.put(html)
        case .toc: if html != nil { o.put(TemplateEncoding.list(toc.map { e.object($0) })) }
        case .showToc: o.put(showToc)
        case .hasCode: o.put(hasCode)
        }
    }
}

/// One heading of a note's table of contents, with the headings under it.
struct TocEntry: Sendable, Hashable {
    enum Key: String, TemplateKey {
        case level, id, text, children
        var holds: [any TemplateKey.Type] { self == .children ? [TocEntry.Key.self] : [] }
    }
    var level: Int
    var id: String
    var text: String
    var children: [TocEntry]

    /// `headings` in order nested by level: a heading holds the deeper ones that follow it.
    static func tree(_ headings: [(level: Int, id: String, text: String)]) -> [TocEntry] {
        var index = 0
        return entries(headings, &index, above: 0)
    }

    private static func entries(
        _ headings: [(level: Int, id: String, text: String)], _ index: inout Int, above level: Int
    ) -> [TocEntry] {
        var out: [TocEntry] = []
        while index < headings.count, headings[index].level > level {
            let h = headings[index]
            index += 1
            out.append(
                TocEntry(level: h.level, id: h.id, text: h.text, children: entries(headings, &index, above: h.level)))
        }
        return out
    }
}

extension TocEntry: TemplateView {
    func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding) {
        switch key {
        case .level: o.put(level)
        case .id: o.put(id)
        case .text: o.put(text)
        case .children: o.put(TemplateEncoding.list(children.map { e.object($0) }))
        }
    }
}

struct TagLink: Sendable, Hashable, Encodable {
    enum Key: String, TemplateKey {
        case name, url
        var holds: [any TemplateKey.Type] { [] }
    }
    var name: String
    var url: String
}

extension TagLink: TemplateView {
    func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding) {
        switch key {
        case .name: o.put(name)
        case .url: o.put(url)
        }
    }
}

struct TagView: Sendable, Hashable, Encodable {
    enum Key: String, TemplateKey {
        case name, url, count, countText
        var holds: [any TemplateKey.Type] { [] }
    }
    var name: String
    var url: String
    var count: Int
    var countText: String
}

extension TagView: TemplateView {
    func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding) {
        switch key {
        case .name: o.put(name)
        case .url: o.put(url)
        case .count: o.put(count)
        case .countText: o.put(countText)
        }
    }
}

/// An item shown on a page, by its place in the model; a masonry card carries its placement.
struct ItemRef: Sendable, Hashable {
    var collection: Int
    var item: Int
    var layoutStyle: String?
}

/// A view's template keys: an enum whose cases are the names a template may use, each encoded
/// by an exhaustive `switch` (`TemplateEncoding.object`), so a key cannot go unencoded.
protocol TemplateKey: RawRepresentable, CaseIterable where RawValue == String {
    /// The keys of the record the key's value is, or lists ([] for text, a number, a flag, a list
    /// of text, or an object named by the configuration): what the template check knows of the
    /// names under it derives from these, from `site`, `page` and each kind's body down.
    var holds: [any TemplateKey.Type] { get }
    /// The names a record of these keys holds besides them.
    static var openNames: OpenNames { get }
}

/// Names a record holds besides its keys.
enum OpenNames {
    case none
    /// The data's fields (an item's, a collection's `meta`).
    case dataFields
    /// A note's front matter.
    case frontMatter
}

extension TemplateKey {
    static var openNames: OpenNames { .none }
}

/// No keys: a view that holds nothing of its own (the 404 page's body).
enum NoKeys: TemplateKey {
    init?(rawValue: String) { nil }
    var rawValue: String {
        switch self {}
    }
    var holds: [any TemplateKey.Type] {
        switch self {}
    }
    static var allCases: [NoKeys] { [] }
}

/// A value templates see as an object: its keys (an enum) and each key's value, put by an
/// exhaustive `switch` beside the type, so a key cannot go unencoded.
protocol TemplateView {
    associatedtype Key: TemplateKey
    /// Puts the value of `key` (nothing: the key is absent).
    func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding)
}

/// What a page kind's template sees beside `site` and `page`.
protocol PageBody: Sendable {
    associatedtype Key: TemplateKey
    /// Puts the value of `key` (nothing: the key is absent).
    func encode(_ key: Key, into o: inout TemplateEncoding.Entry, _ e: TemplateEncoding, _ reads: PageReads)
}

/// The keys every page holds at its top level.
enum PageKey: String, TemplateKey {
    case site, page

    var holds: [any TemplateKey.Type] {
        switch self {
        case .site: [SiteView.Key.self]
        case .page: [PageMeta.Key.self]
        }
    }
}

/// One page's view: `site`, `page` and what its kind shows.
struct PageContent<Body: PageBody>: Sendable {
    var sections: [SectionLink]
    var page: PageMeta
    var body: Body
}

/// A page's view of any kind, as the renderer hands it to the encoder.
protocol EncodablePage: Sendable {
    func encoded(by encoding: TemplateEncoding, reads: PageReads) -> TemplateValue
}

extension PageContent: EncodablePage {
    func encoded(by encoding: TemplateEncoding, reads: PageReads) -> TemplateValue { encoding.page(self, reads: reads) }
}

enum PageViews {
    /// Every name a template may use besides data fields and the configuration's names: the
    /// keys of every record a page holds (`TemplateKey.holds`, from `site`, `page` and each
    /// kind's body down) and the names the engine gives list elements.
    static let names: Set<String> = Set(keyTypes.flatMap { cases(of: $0).map { $0.name } })
        .union(["first", "last", "index", "even", "odd"])

    /// The key types of the records a page holds, each once, from its top level down.
    static var keyTypes: [any TemplateKey.Type] {
        var seen: Set<ObjectIdentifier> = [], found: [any TemplateKey.Type] = []
        var queue = topLevelKeys
        while let type = queue.popLast() {
            guard seen.insert(ObjectIdentifier(type)).inserted else { continue }
            found.append(type)
            queue += cases(of: type).flatMap { $0.holds }
        }
        return found
    }

    /// The keys of a page's top level: `site`, `page` and each kind's body keys.
    static var topLevelKeys: [any TemplateKey.Type] {
        [PageKey.self] + PageID.Kind.allCases.map { $0.declaration.bodyKey }
    }

    /// The names a page holds at its top level.
    static let topLevelNames: Set<String> = Set(topLevelKeys.flatMap { cases(of: $0).map { $0.name } })

    static func cases<K: TemplateKey>(of _: K.Type) -> [(name: String, holds: [any TemplateKey.Type])] {
        K.allCases.map { ($0.rawValue, $0.holds) }
    }

    static func openNames<K: TemplateKey>(of _: K.Type) -> OpenNames { K.openNames }

    /// The names each top-level record of a page holds (with the data's names, `dataNames`,
    /// where its records hold data fields), for `topLevelPart`. A name whose record holds a
    /// note's front matter in some kind has none: any name may be a note's.
    static func records(dataNames: Set<String>) -> [String: Set<String>] {
        var records: [String: Set<String>] = [:], open: Set<String> = []
        for top in topLevelKeys {
            for key in cases(of: top) where !key.holds.isEmpty {
                var held: Set<String> = []
                for type in key.holds {
                    held.formUnion(cases(of: type).map { $0.name })
                    switch openNames(of: type) {
                    case .none: break
                    case .dataFields: held.formUnion(dataNames)
                    case .frontMatter: open.insert(key.name)
                    }
                }
                records[key.name, default: []].formUnion(held)
            }
        }
        for name in open { records[name] = nil }
        return records
    }

    /// For each name that is not top-level, the top-level names whose records hold it, in the
    /// order pages hold them (`related`: `item`, `prev`, `next`).
    static func nestedIn(records: [String: Set<String>]) -> [String: [String]] {
        var seen: Set<String> = []
        let order = topLevelKeys.flatMap { cases(of: $0).map { $0.name } }.filter { seen.insert($0).inserted }
        var nested: [String: [String]] = [:]
        for top in order {
            for name in records[top] ?? [] where !topLevelNames.contains(name) { nested[name, default: []].append(top) }
        }
        return nested
    }

    /// In a dotted name (`item.prev.title`), the index of its second part when that is a
    /// top-level name the record before it never holds (`prev` is the page's, not the item's).
    static func topLevelPart(of parts: [String], records: [String: Set<String>]) -> Int? {
        guard parts.count > 1, let held = records[parts[0]], topLevelNames.contains(parts[1]),
            !held.contains(parts[1])
        else { return nil }
        return 1
    }
}
