import SiteCore
import SiteRender

/// The render layer's edge: a page's typed view turned into the template value its template
/// renders — the one place views become template values. Objects hold exactly the entries the
/// dictionaries sitegen rendered before held (so `count`, `sorted` and output stay the same).
struct TemplateEncoding: Sendable {
    let names: TemplateNames
    let site: SiteView
    let items: [[ItemView]]
    /// Each collection's items converted once, shared by every page showing them (nil: each
    /// showing converts them again, as the differential tests' reference needs).
    let shared: [SharedTemplateValues]?

    /// An object of the entries `fill` sets, keyed by the view's `Key`.
    @inline(__always)
    func object<K: RawRepresentable>(_: K.Type, capacity: Int = 8, _ fill: (inout Entries<K>) -> Void) -> TemplateValue where K.RawValue == String {
        var e = Entries<K>(builder: TemplateObjectBuilder(names: names, capacity: capacity))
        fill(&e)
        return e.builder.build()
    }

    struct Entries<K: RawRepresentable> where K.RawValue == String {
        var builder: TemplateObjectBuilder
        mutating func set(_ key: K, _ value: @autoclosure () -> TemplateValue) { builder.set(key.rawValue, value()) }
        mutating func set(_ key: K, _ value: String?) { if let value { builder.set(key.rawValue, .string(value)) } }
        mutating func set(_ key: K, _ value: Int?) { if let value { builder.set(key.rawValue, .int(value)) } }
        mutating func set(_ key: K, _ value: Bool) { builder.set(key.rawValue, .bool(value)) }
    }

    static func list(_ items: [TemplateValue]) -> TemplateValue { .list(TemplateList(items)) }

    // MARK: - Pages

    func page(_ p: PageContent) -> TemplateValue {
        object(PageContent.Key.self) { o in
            o.set(.site, site(sections: p.sections))
            o.set(.page, meta(p.page))
            switch p.body {
            case .home(let collections, let notes):
                o.set(.collections, Self.list(collections.map(collection)))
                o.set(.notes, Self.list(notes.map(note)))
            case .notFound:
                break
            case .list(let c, let items, let pagination, let layout):
                o.set(.collection, collection(c))
                o.set(.items, Self.list(items.map(item)))
                o.set(.pagination, self.pagination(pagination))
                o.set(.layout, self.layout(layout))
            case .item(let c, let shown, let notes, let prev, let next):
                o.set(.collection, collection(c))
                o.set(.item, item(shown))
                o.set(.notes, Self.list(notes.map(note)))
                if let prev { o.set(.prev, item(prev)) }
                if let next { o.set(.next, item(next)) }
            case .data(let collections):
                o.set(.data, data(collections))
            case .notesList(let c, let notes, let pagination):
                o.set(.collection, collection(c))
                o.set(.items, Self.list(notes.map(note)))
                o.set(.pagination, self.pagination(pagination))
            case .note(let n):
                o.set(.note, note(n))
            case .tags(let tags):
                o.set(.tags, Self.list(tags.map(tag)))
            case .tag(let t, let notes):
                o.set(.tag, tag(t))
                o.set(.items, Self.list(notes.map(note)))
            }
        }
    }

    func site(sections: [SectionLink]) -> TemplateValue {
        let s = site
        return object(SiteView.Key.self, capacity: 20) { o in
            o.set(.title, s.title); o.set(.language, s.language); o.set(.root, s.root); o.set(.baseURL, s.baseURL)
            o.set(.generator, "sitegen"); o.set(.notesURL, s.notesURL); o.set(.notesTitle, s.notesTitle)
            o.set(.skipText, s.words.skipLink); o.set(.navLabel, s.words.navigation); o.set(.closeLabel, s.words.close)
            o.set(.pagesLabel, s.words.pagination); o.set(.emptyText, s.words.empty); o.set(.contentsLabel, s.words.contents)
            o.set(.description, s.description)
            o.set(.feed, s.feed)
            o.set(.asset, .lambda(s.asset))
            if let tags = s.tags {
                o.set(.tags, tags)
                o.set(.tagsTitle, s.words.tags)
            }
            o.set(.sections, Self.list(sections.map { l in
                object(SectionLink.Key.self) { e in e.set(.title, l.title); e.set(.url, l.url); e.set(.current, l.current) }
            }))
        }
    }

    func meta(_ m: PageMeta) -> TemplateValue {
        object(PageMeta.Key.self) { o in
            o.set(.title, m.title); o.set(.url, m.url); o.set(.canonical, m.canonical)
            o.set(.description, m.description); o.set(.image, m.image); o.set(.type, m.type)
            o.set(.codeStyles, m.codeStyles)
        }
    }

    func collection(_ c: CollectionView) -> TemplateValue {
        object(CollectionView.Key.self, capacity: 12) { o in
            o.set(.name, c.name); o.set(.title, c.title); o.set(.url, c.url); o.set(.count, c.count)
            o.set(.description, c.description)
            if let meta = c.meta { o.set(.meta, fields(meta)) }
            o.set(.search, c.search); o.set(.feed, c.feed)
            if let icon = c.icon { o.set(.icon, image(icon)) }
            o.set(.countText, c.countText)
            if let items = c.items, let ci = c.index { o.set(.items, Self.list(items.map { item(ItemRef(collection: ci, item: $0)) })) }
        }
    }

    /// `data`: every collection by name.
    func data(_ collections: [CollectionView]) -> TemplateValue {
        var b = TemplateObjectBuilder(names: names, capacity: collections.count)
        for c in collections { b.set(c.name, collection(c)) }
        return b.build()
    }

    func pagination(_ p: PaginationView) -> TemplateValue {
        let count = p.urls.count
        return object(PaginationView.Key.self) { o in
            o.set(.number, p.number); o.set(.count, count)
            o.set(.isFirst, p.number == 1); o.set(.isLast, p.number == count); o.set(.many, count > 1)
            o.set(.pages, Self.list(p.urls.enumerated().map { k, url in
                object(PaginationView.PageKey.self) { e in e.set(.number, k + 1); e.set(.url, url); e.set(.current, k + 1 == p.number) }
            }))
            if p.number > 1 { o.set(.prev, p.urls[p.number - 2]) }
            if p.number < count { o.set(.next, p.urls[p.number]) }
        }
    }

    func layout(_ l: LayoutView) -> TemplateValue {
        object(LayoutView.Key.self) { o in o.set(.kind, l.kind); o.set(.css, l.css); o.set(.style, l.style) }
    }

    // MARK: - Items, notes, tags, images

    /// An item as shown: shared when it carries nothing of the page's own.
    func item(_ r: ItemRef) -> TemplateValue {
        if r.layoutStyle == nil, let shared {
            return shared[r.collection].value(r.item) { item(items[r.collection][r.item], related: true, layoutStyle: nil) }
        }
        return item(items[r.collection][r.item], related: true, layoutStyle: r.layoutStyle)
    }

    /// An item's object: its non-null fields, each image field as its image, and sitegen's
    /// names (which win over data fields of the same name); a related list shows the other
    /// collection's items without their own related lists (so lists cannot nest without end).
    func item(_ v: ItemView, related: Bool, layoutStyle: String?) -> TemplateValue {
        var b = TemplateObjectBuilder(names: names, capacity: v.fields.count + 6)
        for (k, value) in v.fields where v.images[k] == nil && !isOwnName(k, v, layoutStyle: layoutStyle) {
            if let t = Self.value(value, names) { b.set(k, t) }
        }
        for (k, img) in v.images where !isOwnName(k, v, layoutStyle: layoutStyle) { b.set(k, image(img)) }
        var o = Entries<ItemView.Key>(builder: b)
        o.set(.slug, v.slug)
        o.set(.url, v.url.map(TemplateValue.string) ?? .bool(false))
        o.set(.card, object(CardView.Key.self) { c in
            c.set(.title, v.card.title); c.set(.subtitle, v.card.subtitle)
            if let img = v.card.image { c.set(.image, image(img)) }
        })
        o.set(.fieldList, Self.list(v.fieldList.map { f in object(ItemView.FieldKey.self) { e in e.set(.name, f.name); e.set(.value, f.value) } }))
        if related, !v.related.isEmpty {
            var lists = TemplateObjectBuilder(names: names, capacity: v.related.count)
            for r in v.related { lists.set(r.name, Self.list(r.items.map { item(items[r.collection][$0], related: false, layoutStyle: nil) })) }
            o.set(.related, lists.build())
        }
        o.set(.layoutStyle, layoutStyle)
        return o.builder.build()
    }

    func isOwnName(_ k: String, _ v: ItemView, layoutStyle: String?) -> Bool {
        switch k {
        case "slug", "url", "card", "fieldList": true
        case "related": v.hasRelatedRules
        case "layoutStyle": layoutStyle != nil
        default: false
        }
    }

    func note(_ n: NoteView) -> TemplateValue {
        var b = TemplateObjectBuilder(names: names, capacity: n.fields.count + 7)
        for (k, value) in n.fields {
            switch k {
            case "title", "slug", "url", "tags", "tagLinks", "toc", "showToc", "hasCode": continue
            case "date" where n.date != nil: continue
            case "html" where n.html != nil: continue
            default: if let t = Self.value(value, names) { b.set(k, t) }
            }
        }
        var o = Entries<NoteView.Key>(builder: b)
        o.set(.title, n.title); o.set(.slug, n.slug); o.set(.url, n.url)
        o.set(.tags, .list(TemplateList(n.tags.map(TemplateValue.string), sortable: true)))
        o.set(.tagLinks, Self.list(n.tagLinks.map { l in object(TagLink.Key.self) { e in e.set(.name, l.name); e.set(.url, l.url) } }))
        o.set(.date, n.date)
        o.set(.html, n.html)
        if n.html != nil { o.set(.toc, Self.list(n.toc.map(tocEntry))) }
        o.set(.showToc, n.showToc)
        o.set(.hasCode, n.hasCode)
        return o.builder.build()
    }

    func tocEntry(_ t: TocEntry) -> TemplateValue {
        object(TocEntry.Key.self) { o in
            o.set(.level, t.level); o.set(.id, t.id); o.set(.text, t.text)
            o.set(.children, Self.list(t.children.map(tocEntry)))
        }
    }

    func tag(_ t: TagView) -> TemplateValue {
        object(TagView.Key.self) { o in o.set(.name, t.name); o.set(.url, t.url); o.set(.count, t.count); o.set(.countText, t.countText) }
    }

    func image(_ i: ImageView) -> TemplateValue {
        object(ImageView.Key.self, capacity: 11) { o in
            o.set(.src, i.src)
            o.set(.width, i.width); o.set(.height, i.height)
            o.set(.detail, imageVariant(i.detail, of: i))
            guard let r = i.resized else { return }
            o.set(.srcset, r.srcset); o.set(.sizes, r.sizes)
            for s in r.sources { o.builder.set(s.format, .string(s.srcset)) }
            o.set(.sources, Self.list(r.sources.map { s in object(ImageView.SourceKey.self) { e in e.set(.type, s.type); e.set(.srcset, s.srcset) } }))
            o.set(.placeholder, placeholder(r))
        }
    }

    /// A resized image's placeholder: its colour and preview, and both as a CSS background.
    func placeholder(_ r: ImageView.Resized) -> TemplateValue {
        object(ImageView.PlaceholderKey.self) { p in
            p.set(.color, r.color); p.set(.preview, r.preview)
            p.set(.style, "background-color:\(r.color);background-image:url(\(r.preview));background-size:cover")
        }
    }

    /// An image's `detail`: its variant's files with the image's placeholder, or (a file shown
    /// as it is) its `src`, `width` and `height`.
    func imageVariant(_ v: ImageView.Variant?, of i: ImageView) -> TemplateValue {
        object(ImageView.Key.self, capacity: 9) { o in
            guard let v else {
                o.set(.src, i.src); o.set(.width, i.width); o.set(.height, i.height)
                return
            }
            o.set(.src, v.src); o.set(.width, v.width); o.set(.height, v.height)
            o.set(.srcset, v.srcset); o.set(.sizes, v.sizes)
            for s in v.sources { o.builder.set(s.format, .string(s.srcset)) }
            o.set(.sources, Self.list(v.sources.map { s in object(ImageView.SourceKey.self) { e in e.set(.type, s.type); e.set(.srcset, s.srcset) } }))
            if let r = i.resized {
                o.set(.placeholder, placeholder(r))
            }
        }
    }

    /// Data fields: every non-null value.
    func fields(_ d: [String: Value]) -> TemplateValue {
        var b = TemplateObjectBuilder(names: names, capacity: d.count)
        for (k, v) in d { if let t = Self.value(v, names) { b.set(k, t) } }
        return b.build()
    }

    /// A loaded value as templates print it (nil for null: the key is absent). Numbers print
    /// without separators; dates as ISO days.
    static func value(_ v: Value, _ names: TemplateNames) -> TemplateValue? {
        switch v {
        case .null: return nil
        case .bool(let b): return .bool(b)
        // Data integers were Int64 values, which the old conversion printed as text (so `0` is
        // a non-empty text to sections, as before).
        case .int(let i): return .string(String(i))
        case .double(let d): return .string(TemplateText.plain(.double(d)))
        case .string(let s): return .string(s)
        case .date(let d): return .string(DateFormat.iso.format(CalendarDate(d)))
        case .array(let a): return .list(TemplateList(a.compactMap { value($0, names) }))
        case .dictionary(let d):
            var b = TemplateObjectBuilder(names: names, capacity: d.count)
            for (k, v) in d { if let t = value(v, names) { b.set(k, t) } }
            return b.build()
        }
    }
}
