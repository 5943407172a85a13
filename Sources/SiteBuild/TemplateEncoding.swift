import SiteCore
import SiteRender

/// The render layer's edge: a page's typed view turned into the template value its template
/// renders — the one place views become template values. Objects hold exactly the entries the
/// dictionaries sitegen rendered before held (so `count`, `sorted` and output stay the same).
struct TemplateEncoding: Sendable {
    let names: TemplateNames
    let site: SiteView
    let items: [[ItemView]]
    /// Each collection's name, by index (what a related list's items record: `ModelPart`).
    let collectionNames: [String]
    /// Each collection's items converted once, shared by every page showing them (nil: each
    /// showing converts them again, as the differential tests' reference needs).
    let shared: [SharedTemplateValues]?
    /// The `site` object for each link of the navigation as the current one, and for none (the
    /// last slot), shared by every page (nil where `shared` is nil).
    let sites: SharedTemplateValues?

    /// An object of the entries `fill` sets, keyed by the view's `Key`.
    @inline(__always)
    func object<K: RawRepresentable>(_: K.Type, capacity: Int = 8, _ fill: (inout Entries<K>) -> Void) -> TemplateValue
    where K.RawValue == String {
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

    /// `reads`: the page's, which records the collections its items' related lists show.
    func page(_ content: PageContent, reads: PageReads) -> TemplateValue {
        object(PageContent.Key.self) { o in
            o.set(.site, sharedSite(sections: content.sections))
            o.set(.page, meta(content.page))
            switch content.body {
            case .home(let collections, let notes):
                o.set(.collections, Self.list(collections.map { collection($0, reads) }))
                o.set(.notes, Self.list(notes.map(note)))
            case .notFound:
                break
            case .list(let c, let items, let pagination, let layout):
                o.set(.collection, collection(c, reads))
                o.set(.items, Self.list(items.map { item($0, reads) }))
                o.set(.pagination, self.pagination(pagination))
                o.set(.layout, self.layout(layout))
            case .item(let c, let shown, let notes, let prev, let next):
                o.set(.collection, collection(c, reads))
                o.set(.item, item(shown, reads))
                o.set(.notes, Self.list(notes.map(note)))
                if let prev { o.set(.prev, item(prev, reads)) }
                if let next { o.set(.next, item(next, reads)) }
            case .data(let collections):
                o.set(.data, data(collections, reads))
            case .notesList(let c, let notes, let pagination):
                o.set(.collection, collection(c, reads))
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

    /// The `site` object, made once per current section: every page's sections are the one
    /// navigation of `ViewMaker` with at most one link current.
    func sharedSite(sections: [SectionLink]) -> TemplateValue {
        guard let sites else { return site(sections: sections) }
        return sites.value(sections.firstIndex(where: \.current) ?? sections.count) { site(sections: sections) }
    }

    func site(sections: [SectionLink]) -> TemplateValue {
        let s = site
        return object(SiteView.Key.self, capacity: 20) { o in
            o.set(.title, s.title); o.set(.language, s.language); o.set(.root, s.root); o.set(.baseURL, s.baseURL)
            o.set(.generator, "sitegen"); o.set(.notesURL, s.notesURL); o.set(.notesTitle, s.notesTitle)
            o.set(.skipText, s.words.skipLink); o.set(.navLabel, s.words.navigation); o.set(.closeLabel, s.words.close)
            o.set(.pagesLabel, s.words.pagination); o.set(.emptyText, s.words.empty);
            o.set(.contentsLabel, s.words.contents)
            o.set(.description, s.description)
            o.set(.feed, s.feed)
            let assets = s.asset
            o.set(.asset, .lambda(TemplateLibrary.helper { assets.url($0) }))
            if let tags = s.tags {
                o.set(.tags, tags)
                o.set(.tagsTitle, s.words.tags)
            }
            o.set(
                .sections,
                Self.list(
                    sections.map { l in
                        object(SectionLink.Key.self) { e in
                            e.set(.title, l.title); e.set(.url, l.url); e.set(.current, l.current)
                        }
                    }))
        }
    }

    func meta(_ pageMeta: PageMeta) -> TemplateValue {
        object(PageMeta.Key.self) { o in
            o.set(.title, pageMeta.title); o.set(.url, pageMeta.url); o.set(.canonical, pageMeta.canonical)
            o.set(.description, pageMeta.description); o.set(.image, pageMeta.image); o.set(.type, pageMeta.type)
            o.set(.codeStyles, pageMeta.codeStyles)
        }
    }

    func collection(_ view: CollectionView, _ reads: PageReads) -> TemplateValue {
        object(CollectionView.Key.self, capacity: 12) { o in
            o.set(.name, view.name); o.set(.title, view.title); o.set(.url, view.url); o.set(.count, view.count)
            o.set(.description, view.description)
            if let meta = view.meta { o.set(.meta, fields(meta)) }
            o.set(.search, view.search); o.set(.feed, view.feed)
            if let icon = view.icon { o.set(.icon, image(icon)) }
            o.set(.countText, view.countText)
            if let items = view.items, let ci = view.index {
                o.set(.items, Self.list(items.map { item(ItemRef(collection: ci, item: $0), reads) }))
            }
        }
    }

    /// `data`: every collection by name.
    func data(_ collections: [CollectionView], _ reads: PageReads) -> TemplateValue {
        var b = TemplateObjectBuilder(names: names, capacity: collections.count)
        for c in collections { b.set(c.name, collection(c, reads)) }
        return b.build()
    }

    func pagination(_ view: PaginationView) -> TemplateValue {
        let count = view.urls.count
        return object(PaginationView.Key.self) { o in
            o.set(.number, view.number); o.set(.count, count)
            o.set(.isFirst, view.number == 1); o.set(.isLast, view.number == count); o.set(.many, count > 1)
            o.set(
                .pages,
                Self.list(
                    view.urls.enumerated().map { k, url in
                        object(PaginationView.PageKey.self) { e in
                            e.set(.number, k + 1); e.set(.url, url); e.set(.current, k + 1 == view.number)
                        }
                    }))
            if view.number > 1 { o.set(.prev, view.urls[view.number - 2]) }
            if view.number < count { o.set(.next, view.urls[view.number]) }
        }
    }

    func layout(_ view: LayoutView) -> TemplateValue {
        object(LayoutView.Key.self) { o in
            o.set(.kind, view.kind); o.set(.css, view.css); o.set(.style, view.style)
        }
    }

    // MARK: - Items, notes, tags, images

    /// An item as shown: shared when it carries nothing of the page's own. Its related lists
    /// show other collections' items: the page reads those collections too.
    func item(_ ref: ItemRef, _ reads: PageReads) -> TemplateValue {
        for r in items[ref.collection][ref.item].related { reads.record(.collection(collectionNames[r.collection])) }
        if ref.layoutStyle == nil, let shared {
            return shared[ref.collection].value(ref.item) {
                item(items[ref.collection][ref.item], related: true, layoutStyle: nil)
            }
        }
        return item(items[ref.collection][ref.item], related: true, layoutStyle: ref.layoutStyle)
    }

    /// An item's object: its non-null fields, each image field as its image, and sitegen's
    /// names (which win over data fields of the same name); a related list shows the other
    /// collection's items without their own related lists (so lists cannot nest without end).
    func item(_ view: ItemView, related: Bool, layoutStyle: String?) -> TemplateValue {
        var b = TemplateObjectBuilder(names: names, capacity: view.fields.count + 6)
        for (k, value) in view.fields where view.images[k] == nil && !isOwnName(k, view, layoutStyle: layoutStyle) {
            if let t = Self.value(value, names) { b.set(k, t) }
        }
        for (k, img) in view.images where !isOwnName(k, view, layoutStyle: layoutStyle) { b.set(k, image(img)) }
        var o = Entries<ItemView.Key>(builder: b)
        o.set(.slug, view.slug)
        o.set(.url, view.url.map(TemplateValue.string) ?? .bool(false))
        o.set(
            .card,
            object(CardView.Key.self) { c in
                c.set(.title, view.card.title); c.set(.subtitle, view.card.subtitle)
                if let img = view.card.image { c.set(.image, image(img)) }
            })
        o.set(
            .fieldList,
            Self.list(
                view.fieldList.map { f in
                    object(ItemView.FieldKey.self) { e in
                        e.set(.name, f.name); e.set(.value, f.value)
                    }
                }))
        if related, !view.related.isEmpty {
            var lists = TemplateObjectBuilder(names: names, capacity: view.related.count)
            for r in view.related {
                lists.set(
                    r.name,
                    Self.list(
                        r.items.map {
                            item(items[r.collection][$0], related: false, layoutStyle: nil)
                        }))
            }
            o.set(.related, lists.build())
        }
        o.set(.layoutStyle, layoutStyle)
        return o.builder.build()
    }

    func isOwnName(_ key: String, _ view: ItemView, layoutStyle: String?) -> Bool {
        switch key {
        case "slug", "url", "card", "fieldList": true
        case "related": view.hasRelatedRules
        case "layoutStyle": layoutStyle != nil
        default: false
        }
    }

    func note(_ view: NoteView) -> TemplateValue {
        var b = TemplateObjectBuilder(names: names, capacity: view.fields.count + 7)
        for (k, value) in view.fields {
            switch k {
            case "title", "slug", "url", "tags", "tagLinks", "toc", "showToc", "hasCode": continue
            case "date" where view.date != nil: continue
            case "html" where view.html != nil: continue
            default: if let t = Self.value(value, names) { b.set(k, t) }
            }
        }
        var o = Entries<NoteView.Key>(builder: b)
        o.set(.title, view.title); o.set(.slug, view.slug); o.set(.url, view.url)
        o.set(.tags, .list(TemplateList(view.tags.map(TemplateValue.string), sortable: true)))
        o.set(
            .tagLinks,
            Self.list(
                view.tagLinks.map { l in
                    object(TagLink.Key.self) { e in
                        e.set(.name, l.name); e.set(.url, l.url)
                    }
                }))
        o.set(.date, view.date)
        o.set(.html, view.html)
        if view.html != nil { o.set(.toc, Self.list(view.toc.map(tocEntry))) }
        o.set(.showToc, view.showToc)
        o.set(.hasCode, view.hasCode)
        return o.builder.build()
    }

    func tocEntry(_ entry: TocEntry) -> TemplateValue {
        object(TocEntry.Key.self) { o in
            o.set(.level, entry.level); o.set(.id, entry.id); o.set(.text, entry.text)
            o.set(.children, Self.list(entry.children.map(tocEntry)))
        }
    }

    func tag(_ view: TagView) -> TemplateValue {
        object(TagView.Key.self) { o in
            o.set(.name, view.name); o.set(.url, view.url); o.set(.count, view.count); o.set(.countText, view.countText)
        }
    }

    func image(_ view: ImageView) -> TemplateValue {
        object(ImageView.Key.self, capacity: 11) { o in
            o.set(.src, view.src)
            o.set(.width, view.width); o.set(.height, view.height)
            o.set(.detail, imageVariant(view.detail, of: view))
            guard let r = view.resized else { return }
            o.set(.srcset, r.srcset); o.set(.sizes, r.sizes)
            for s in r.sources { o.builder.set(s.format, .string(s.srcset)) }
            o.set(
                .sources,
                Self.list(
                    r.sources.map { s in
                        object(ImageView.SourceKey.self) { e in
                            e.set(.type, s.type); e.set(.srcset, s.srcset)
                        }
                    }))
            o.set(.placeholder, placeholder(r))
        }
    }

    /// A resized image's placeholder: its colour and preview, and both as a CSS background.
    func placeholder(_ resized: ImageView.Resized) -> TemplateValue {
        object(ImageView.PlaceholderKey.self) { p in
            p.set(.color, resized.color); p.set(.preview, resized.preview)
            p.set(
                .style,
                "background-color:\(resized.color);"
                    + "background-image:url(\(resized.preview));background-size:cover")
        }
    }

    /// An image's `detail`: its variant's files with the image's placeholder, or (a file shown
    /// as it is) its `src`, `width` and `height`.
    func imageVariant(_ variant: ImageView.Variant?, of i: ImageView) -> TemplateValue {
        object(ImageView.Key.self, capacity: 9) { o in
            guard let variant else {
                o.set(.src, i.src); o.set(.width, i.width); o.set(.height, i.height)
                return
            }
            o.set(.src, variant.src); o.set(.width, variant.width); o.set(.height, variant.height)
            o.set(.srcset, variant.srcset); o.set(.sizes, variant.sizes)
            for s in variant.sources { o.builder.set(s.format, .string(s.srcset)) }
            o.set(
                .sources,
                Self.list(
                    variant.sources.map { s in
                        object(ImageView.SourceKey.self) { e in
                            e.set(.type, s.type); e.set(.srcset, s.srcset)
                        }
                    }))
            if let r = i.resized {
                o.set(.placeholder, placeholder(r))
            }
        }
    }

    /// Data fields: every non-null value.
    func fields(_ data: [String: Value]) -> TemplateValue {
        var b = TemplateObjectBuilder(names: names, capacity: data.count)
        for (k, v) in data { if let t = Self.value(v, names) { b.set(k, t) } }
        return b.build()
    }

    /// A loaded value as templates print it (nil for null: the key is absent). Numbers print
    /// without separators; dates as ISO days.
    static func value(_ loaded: Value, _ names: TemplateNames) -> TemplateValue? {
        switch loaded {
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
