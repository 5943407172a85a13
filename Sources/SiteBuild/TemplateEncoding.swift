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

    /// An object of a view's keys: `fill` puts the value of each key in turn (nothing: absent).
    /// `fill` switches over the key, so a key cannot go unencoded. `start`: entries put before
    /// (an item's data fields).
    @inline(__always)
    func object<K: TemplateKey>(
        _: K.Type, capacity: Int = 8, start: TemplateObjectBuilder? = nil, _ fill: (K, inout Entry) -> Void
    ) -> TemplateValue {
        var o = Entry(builder: start ?? TemplateObjectBuilder(names: names, capacity: capacity))
        Self.fill(&o, K.self, fill)
        return o.builder.build()
    }

    /// A view's object: its keys, each encoded by the view's `encode` (beside its type, in
    /// PageViews.swift).
    func object<V: TemplateView>(_ view: V, capacity: Int = 8, start: TemplateObjectBuilder? = nil) -> TemplateValue {
        object(V.Key.self, capacity: capacity, start: start) { key, o in view.encode(key, into: &o, self) }
    }

    @inline(__always)
    static func fill<K: TemplateKey>(_ o: inout Entry, _: K.Type, _ fill: (K, inout Entry) -> Void) {
        for key in K.allCases {
            o.name = key.rawValue
            fill(key, &o)
        }
    }

    /// The object being made, at the key being filled.
    struct Entry {
        var builder: TemplateObjectBuilder
        fileprivate(set) var name = ""
        mutating func put(_ value: @autoclosure () -> TemplateValue) { builder.set(name, value()) }
        mutating func put(_ value: String?) { if let value { builder.set(name, .string(value)) } }
        mutating func put(_ value: Int?) { if let value { builder.set(name, .int(value)) } }
        mutating func put(_ value: Bool) { builder.set(name, .bool(value)) }
    }

    static func list(_ items: [TemplateValue]) -> TemplateValue { .list(TemplateList(items)) }

    // MARK: - Pages

    /// `reads`: the page's, which records the collections its items' related lists show.
    func page<Body: PageBody>(_ content: PageContent<Body>, reads: PageReads) -> TemplateValue {
        var o = Entry(builder: TemplateObjectBuilder(names: names, capacity: 8))
        Self.fill(&o, PageKey.self) { key, o in
            switch key {
            case .site: o.put(sharedSite(sections: content.sections))
            case .page: o.put(object(content.page))
            }
        }
        Self.fill(&o, Body.Key.self) { key, o in content.body.encode(key, into: &o, self, reads) }
        return o.builder.build()
    }

    /// The `site` object, made once per current section: every page's sections are the one
    /// navigation of `ViewMaker` with at most one link current.
    func sharedSite(sections: [SectionLink]) -> TemplateValue {
        guard let sites else { return object(SiteView.Page(site: site, sections: sections), capacity: 20) }
        return sites.value(sections.firstIndex(where: \.current) ?? sections.count) {
            object(SiteView.Page(site: site, sections: sections), capacity: 20)
        }
    }

    func collection(_ view: CollectionView, _ reads: PageReads) -> TemplateValue {
        object(CollectionView.Key.self, capacity: 12) { key, o in
            switch key {
            case .name: o.put(view.name)
            case .title: o.put(view.title)
            case .url: o.put(view.url)
            case .count: o.put(view.count)
            case .description: o.put(view.description)
            case .meta: if let meta = view.meta { o.put(fields(meta)) }
            case .search: o.put(view.search)
            case .feed: o.put(view.feed)
            case .icon: if let icon = view.icon { o.put(image(icon)) }
            case .countText: o.put(view.countText)
            case .items:
                if let items = view.items, let ci = view.index {
                    o.put(Self.list(items.map { item(ItemRef(collection: ci, item: $0), reads) }))
                }
            }
        }
    }

    /// `data`: every collection by name.
    func data(_ collections: [CollectionView], _ reads: PageReads) -> TemplateValue {
        var b = TemplateObjectBuilder(names: names, capacity: collections.count)
        for c in collections { b.set(c.name, collection(c, reads)) }
        return b.build()
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
        return object(ItemView.Key.self, start: b) { key, o in
            switch key {
            case .slug: o.put(view.slug)
            case .url: o.put(view.url.map(TemplateValue.string) ?? .bool(false))
            case .card: o.put(object(view.card))
            case .fieldList:
                o.put(
                    Self.list(
                        view.fieldList.map { f in
                            object(ItemView.FieldKey.self) { key, e in
                                switch key {
                                case .name: e.put(f.name)
                                case .value: e.put(f.value)
                                }
                            }
                        }))
            case .related:
                guard related, !view.related.isEmpty else { return }
                var lists = TemplateObjectBuilder(names: names, capacity: view.related.count)
                for r in view.related {
                    lists.set(
                        r.name,
                        Self.list(r.items.map { item(items[r.collection][$0], related: false, layoutStyle: nil) }))
                }
                o.put(lists.build())
            case .terms:
                guard !view.terms.isEmpty else { return }
                var lists = TemplateObjectBuilder(names: names, capacity: view.terms.count)
                for t in view.terms { lists.set(t.name, Self.list(t.links.map { object($0) })) }
                o.put(lists.build())
            case .termLists:
                guard !view.terms.isEmpty else { return }
                o.put(
                    Self.list(
                        view.terms.map { t in
                            object(ItemView.TermsKey.self) { key, e in
                                switch key {
                                case .title: e.put(t.title)
                                case .url: e.put(t.url)
                                case .terms: e.put(Self.list(t.links.map { object($0) }))
                                }
                            }
                        }))
            case .layoutStyle: o.put(layoutStyle)
            }
        }
    }

    /// Whether a data field's name is one sitegen gives the item (so the field is not shown).
    func isOwnName(_ name: String, _ view: ItemView, layoutStyle: String?) -> Bool {
        guard let key = ItemView.Key(rawValue: name) else { return false }
        switch key {
        case .slug, .url, .card, .fieldList: return true
        case .related: return view.hasRelatedRules
        case .terms, .termLists: return !view.terms.isEmpty
        case .layoutStyle: return layoutStyle != nil
        }
    }

    func note(_ view: NoteView) -> TemplateValue {
        var b = TemplateObjectBuilder(names: names, capacity: view.fields.count + 7)
        for (k, value) in view.fields where !isOwnName(k, view) {
            if let t = Self.value(value, names) { b.set(k, t) }
        }
        return object(view, start: b)
    }

    /// Whether a front matter name is one sitegen gives the note (so the field is not shown):
    /// `html` only where the note shows its own.
    func isOwnName(_ name: String, _ view: NoteView) -> Bool {
        guard let key = NoteView.Key(rawValue: name) else { return false }
        switch key {
        // A null `date` is absent either way; any other is the note's date.
        case .title, .slug, .url, .tags, .tagLinks, .date, .toc, .showToc, .hasCode: return true
        case .html: return view.html != nil
        }
    }

    func image(_ view: ImageView) -> TemplateValue {
        let own = view.resized.map { r in
            ImageView.Variant(
                src: view.src, width: view.width, height: view.height, srcset: r.srcset, sizes: r.sizes,
                sources: r.sources)
        }
        return imageFiles(own, of: view, withDetail: true)
    }

    /// One set of an image's files as templates see it, the image's own or its `detail`:
    /// `files` (nil: the image's `src`, `width` and `height` alone, a file shown as it is, which
    /// has no placeholder either) with the image's placeholder, and the image's `detail` when
    /// `withDetail`.
    func imageFiles(_ files: ImageView.Variant?, of i: ImageView, withDetail: Bool) -> TemplateValue {
        object(ImageView.Key.self, capacity: 11) { key, o in
            switch key {
            case .src: o.put(files?.src ?? i.src)
            case .width: o.put(files == nil ? i.width : files?.width)
            case .height: o.put(files == nil ? i.height : files?.height)
            case .srcset: o.put(files?.srcset)
            case .sizes: o.put(files?.sizes)
            case .avif, .webp, .jpeg, .png: o.put(files?.sources.first { $0.format == key.rawValue }?.srcset)
            case .sources:
                guard let files else { return }
                o.put(
                    Self.list(
                        files.sources.map { s in
                            object(ImageView.SourceKey.self) { key, e in
                                switch key {
                                case .type: e.put(s.type)
                                case .srcset: e.put(s.srcset)
                                }
                            }
                        }))
            case .placeholder: if let r = i.resized { o.put(object(r)) }
            case .detail: if withDetail { o.put(imageFiles(i.detail, of: i, withDetail: false)) }
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
