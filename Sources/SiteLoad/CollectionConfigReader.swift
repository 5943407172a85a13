import SiteCore
import SiteFetch
import SiteMarkdown
import Yams

/// Reading one collection of `site.yml`: a function per key or group of keys, each reporting its
/// problems and leaving the unknown-key check to the `ConfigNode` it reads.
extension SiteConfig {
    /// The collection `name` (written at `key`) configured by `node`.
    static func parseCollection(name: String, key: Node, node: Node, file: String) throws(Diagnostic) -> (
        CollectionConfig?, [Diagnostic]
    ) {
        guard !name.isEmpty,
            name.unicodeScalars.allSatisfy({
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    || $0 == "_"
            })
        else {
            let invalid =
                "collection name '\(Diagnostic.excerpt(name))' " + "may use only ASCII letters, digits, '-' and '_'"
            throw ConfigNode.error(key, file: file, invalid)
        }
        // Its list pages are a folder of that name (by default), which a file system limits.
        guard name.utf8.count <= SitePath.maximumSegmentBytes else {
            throw ConfigNode.error(
                key, file: file,
                "collection name '\(Diagnostic.excerpt(name))' is longer than the "
                    + "\(SitePath.maximumSegmentBytes) bytes a file name may have"
            )
        }
        let c = try ConfigNode(node, file: file, path: "collections.\(name)")
        var problems: [Diagnostic] = []
        let (data, remote, itemsPath) = parseDataFiles(c, problems: &problems)
        let rename = parseRename(c, problems: &problems)
        let fields = parseFields(c, problems: &problems)
        let slug = parseSlug(c, problems: &problems)
        let (sort, sortSources) = parseSort(c, problems: &problems)
        let pageSize =
            attempt(&problems) { () throws(Diagnostic) in try c.int("pageSize", in: CollectionConfig.pageSizes) } ?? nil
        let derived = parseDerived(c, problems: &problems)
        let meta = parseMeta(c, problems: &problems)
        let joins = parseJoins(c, problems: &problems)
        var images: ImageRule? = nil
        if let i = attempt(&problems, { () throws(Diagnostic) in try c.child("images") }), let i {
            images = parseImages(i, problems: &problems)
        }
        let card = parseCard(c, images: images, problems: &problems)
        let layout = parseCollectionLayout(c, card: card, images: images, problems: &problems)
        var listTemplate: String?, listURL = "/\(name)/"
        if let l = attempt(&problems, { () throws(Diagnostic) in try c.child("list") }), let l {
            (listTemplate, listURL) = parsePageOptions(
                l, template: listTemplate, url: listURL, needsSlug: false, problems: &problems)
        }
        let (detailTemplate, detailURL) = parseDetail(c, name: name, problems: &problems)
        // Read whether or not the collection can be built (so that they are known keys), but
        // reported only when it can: a collection without its data reports why, not these.
        var late: [Diagnostic] = []
        let title = (attempt(&late) { () throws(Diagnostic) in try c.string("title") } ?? nil) ?? name
        let description = attempt(&late) { () throws(Diagnostic) in try c.string("description") } ?? nil
        let related = parseRelated(c, problems: &late)
        let terms = parseTerms(c, listURL: listURL, problems: &late)
        let search = parseSearch(c, problems: &late)
        let feed = parseFeed(c, listURL: listURL, problems: &late)
        let icon = attempt(&late) { () throws(Diagnostic) in try c.string("icon") } ?? nil
        let menu = (attempt(&late) { () throws(Diagnostic) in try c.bool("menu") } ?? nil) ?? true
        c.reportUnknownKeys(into: &problems, at: 0)

        guard let data, let itemsPath, let slug else { return (nil, problems) }
        problems += late
        var collection = CollectionConfig(
            name: name, title: title, description: description,
            dataFiles: data, itemsPath: itemsPath, rename: rename, fields: fields, slug: slug, sort: sort,
            pageSize: pageSize, derived: derived, images: images, layout: layout,
            listTemplate: listTemplate, listURL: listURL, detailTemplate: detailTemplate, detailURL: detailURL,
            card: card)
        collection.sortSources = sortSources
        collection.remote = remote
        collection.meta = meta
        collection.joins = joins
        collection.related = related
        collection.terms = terms
        collection.search = search
        collection.feed = feed
        collection.icon = icon
        collection.menu = menu
        return (collection, problems)
    }

    /// `data` (required: files, or an http(s) URL) and `items`.
    static func parseDataFiles(
        _ collection: ConfigNode,
        problems: inout [Diagnostic]
    ) -> ([String]?, RemoteSource?, [PathComponent]?) {
        let source = parseDataSource(collection, itemFields: false, problems: &problems)
        if source == nil || (source?.files.isEmpty == true && source?.remote == nil) {
            if collection.raw("data") == nil || source != nil {
                problems.append(
                    collection.error(
                        collection.node,
                        "missing required key '\(collection.key("data"))'"
                            + " (the dataset file, relative to content/, or an http(s) URL)"))
            }
        }
        let itemsText = (attempt(&problems) { () throws(Diagnostic) in try collection.string("items") } ?? nil) ?? ""
        let itemsPath = KeyPath.parse(itemsText)
        if itemsPath == nil, let n = collection.raw("items") {
            problems.append(
                collection.error(
                    n,
                    "'\(collection.key("items"))' is not a key path like 'boxOfficeResult.dailyBoxOfficeList'"))
        }
        guard let source, !source.files.isEmpty || source.remote != nil else { return (nil, nil, itemsPath) }
        return (source.files, source.remote, itemsPath)
    }

    static func parseRename(_ collection: ConfigNode, problems: inout [Diagnostic]) -> [String: String] {
        var rename: [String: String] = [:]
        for (from, n) in attempt(&problems, { () throws(Diagnostic) in try collection.entries("rename") }) ?? [] {
            guard case .scalar(let s) = n, !s.string.isEmpty else {
                problems.append(collection.error(n, "'\(collection.key("rename")).\(from)' must be the new field name"))
                continue
            }
            rename[from] = s.string
        }
        return rename
    }

    static func parseFields(_ collection: ConfigNode, problems: inout [Diagnostic]) -> [String: FieldSpec] {
        var fields: [String: FieldSpec] = [:]
        for (name, n) in attempt(&problems, { () throws(Diagnostic) in try collection.entries("fields") }) ?? [] {
            if let spec = attempt(
                &problems,
                { () throws(Diagnostic) in
                    try parseField(n, key: "\(collection.key("fields")).\(name)", file: collection.file)
                })
            {
                fields[name] = spec
            }
        }
        return fields
    }

    /// `slug` (required): a field name or `{ from: field }`.
    static func parseSlug(_ collection: ConfigNode, problems: inout [Diagnostic]) -> SlugRule? {
        guard let n = collection.raw("slug") else {
            problems.append(
                collection.error(
                    collection.node,
                    "missing required key '\(collection.key("slug"))'"
                        + " (the field that names each item's page, or { from: field })"))
            return nil
        }
        switch n {
        case .scalar(let s): return .field(s.string)
        case .mapping:
            guard
                let s = attempt(
                    &problems,
                    { () throws(Diagnostic) in
                        try ConfigNode(n, file: collection.file, path: collection.key("slug"))
                    })
            else { return nil }
            let start = problems.count
            let from = attempt(&problems) { () throws(Diagnostic) in try s.requiredString("from") }
            s.reportUnknownKeys(into: &problems, at: start)
            return from.map { .derived(from: $0) }
        default:
            problems.append(collection.error(n, "'\(collection.key("slug"))' must be a field name or { from: field }"))
            return nil
        }
    }

    /// `sort`: one key or a list, with where each is written.
    static func parseSort(_ collection: ConfigNode, problems: inout [Diagnostic]) -> ([SortKey], [SourceLocation]) {
        guard let n = collection.raw("sort") else { return ([], []) }
        var sort: [SortKey] = []
        var sources: [SourceLocation] = []
        let list: [Node]
        if case .sequence(let seq) = n { list = Array(seq) } else { list = [n] }
        for item in list {
            if let key = attempt(
                &problems,
                { () throws(Diagnostic) in
                    try parseSortKey(item, key: collection.key("sort"), file: collection.file)
                })
            {
                sort.append(key)
                sources.append(collection.error(item, "").location)
            }
        }
        return (sort, sources)
    }

    static func parseDerived(_ collection: ConfigNode, problems: inout [Diagnostic]) -> [(String, Derivation)] {
        var derived: [(String, Derivation)] = []
        for (name, n) in attempt(&problems, { () throws(Diagnostic) in try collection.entries("derived") }) ?? [] {
            if let d = attempt(
                &problems,
                { () throws(Diagnostic) in
                    try parseDerivation(n, key: "\(collection.key("derived")).\(name)", file: collection.file)
                })
            {
                derived.append((name, d))
            }
        }
        return derived
    }

    /// `meta`: each a key path into the first data file, or a derivation.
    static func parseMeta(_ collection: ConfigNode, problems: inout [Diagnostic]) -> [(String, MetaRule)] {
        var meta: [(String, MetaRule)] = []
        for (name, n) in attempt(&problems, { () throws(Diagnostic) in try collection.entries("meta") }) ?? [] {
            let key = "\(collection.key("meta")).\(name)"
            if case .scalar(let s) = n {
                if let path = KeyPath.parse(s.string), !path.isEmpty {
                    meta.append((name, .path(path)))
                } else {
                    problems.append(
                        collection.error(
                            n,
                            "'\(key)' must be a key path into the data file,"
                                + " like boxOfficeResult.showRange, or a derivation"))
                }
            } else if let d = attempt(
                &problems,
                { () throws(Diagnostic) in
                    try parseDerivation(n, key: key, file: collection.file)
                })
            {
                meta.append((name, .derived(d)))
            }
        }
        return meta
    }

    static func parseJoins(_ collection: ConfigNode, problems: inout [Diagnostic]) -> [JoinRule] {
        var joins: [JoinRule] = []
        for (name, n) in attempt(&problems, { () throws(Diagnostic) in try collection.entries("join") }) ?? [] {
            guard
                let j = attempt(
                    &problems,
                    { () throws(Diagnostic) in
                        try ConfigNode(n, file: collection.file, path: "\(collection.key("join")).\(name)")
                    })
            else { continue }
            let start = problems.count
            if let rule = parseJoin(j, name: name, problems: &problems) { joins.append(rule) }
            j.reportUnknownKeys(into: &problems, at: start)
        }
        return joins
    }

    /// One join; on the paths that stop early it declares the keys it did not reach.
    static func parseJoin(_ join: ConfigNode, name: String, problems: inout [Diagnostic]) -> JoinRule? {
        let source = parseDataSource(join, itemFields: true, problems: &problems)
        let files = source?.files ?? []
        if files.isEmpty, source?.remote == nil, join.raw("data") == nil || source != nil {
            problems.append(
                join.error(
                    join.node,
                    "missing required key '\(join.key("data"))' (the files to join,"
                        + " relative to content/; * matches within a folder; or an http(s) URL)"))
        }
        let pathText = (attempt(&problems) { () throws(Diagnostic) in try join.string("items") } ?? nil) ?? ""
        guard let path = KeyPath.parse(pathText) else {
            problems.append(
                join.error(
                    join.raw("items") ?? join.node,
                    "'\(join.key("items"))' is not a key path like 'movieInfoResult.movieInfo'"))
            join.declare("key", "on")
            return nil
        }
        guard let key = attempt(&problems, { () throws(Diagnostic) in try join.requiredString("key") }) else {
            join.declare("on")
            return nil
        }
        let on = (attempt(&problems) { () throws(Diagnostic) in try join.string("on") } ?? nil) ?? key
        var rule = JoinRule(name: name, dataFiles: files, itemsPath: path, key: key, on: on)
        rule.remote = source?.remote
        return rule
    }

    /// `card`, whose image must be one of the image fields.
    static func parseCard(_ collection: ConfigNode, images: ImageRule?, problems: inout [Diagnostic]) -> CardFields {
        guard let k = attempt(&problems, { () throws(Diagnostic) in try collection.child("card") }), let k else {
            return CardFields(title: nil, subtitle: nil, image: nil)
        }
        let start = problems.count
        let card = CardFields(
            title: attempt(&problems) { () throws(Diagnostic) in try k.string("title") } ?? nil,
            subtitle: attempt(&problems) { () throws(Diagnostic) in try k.string("subtitle") } ?? nil,
            image: attempt(&problems) { () throws(Diagnostic) in try k.string("image") } ?? nil)
        if let field = card.image, !(images?.fields.contains(field) ?? false) {
            problems.append(
                k.error(
                    k.raw("image") ?? k.node,
                    "'\(k.key("image"))' is '\(field)', which is not an image field, so no card would show it:"
                        + " list it in '\(collection.key("images"))', e.g. images: { fields: [\(field)] }"))
        }
        k.reportUnknownKeys(into: &problems, at: start)
        return card
    }

    static func parseCollectionLayout(
        _ collection: ConfigNode, card: CardFields, images: ImageRule?,
        problems: inout [Diagnostic]
    ) -> LayoutConfig {
        guard let l = attempt(&problems, { () throws(Diagnostic) in try collection.child("layout") }), let l else {
            return .list
        }
        let hasImage = card.image ?? images?.fields.first != nil
        return attempt(&problems) { () throws(Diagnostic) in
            try parseLayout(l, subtitle: card.subtitle != nil, image: hasImage)
        } ?? .list
    }

    /// `detail`: `false` (no item pages) or the item pages' template and URL.
    static func parseDetail(
        _ collection: ConfigNode, name: String,
        problems: inout [Diagnostic]
    ) -> (String?, String?) {
        let defaults: (String?, String?) = (nil, "/\(name)/{slug}/")
        guard let n = collection.raw("detail") else { return defaults }
        if case .scalar(let s) = n, Bool.construct(from: s) == false { return (nil, nil) }
        guard
            let d = attempt(
                &problems,
                { () throws(Diagnostic) in
                    try ConfigNode(n, file: collection.file, path: collection.key("detail"))
                })
        else { return defaults }
        let (template, url) = parsePageOptions(
            d, template: nil, url: "/\(name)/{slug}/", needsSlug: true, problems: &problems)
        return (template, url)
    }
    static func parseField(_ node: Node, key: String, file: String) throws(Diagnostic) -> FieldSpec {
        func type(_ text: String, _ at: Node) throws(Diagnostic) -> (FieldType, Bool) {
            let optional = text.hasSuffix("?")
            let name = optional ? String(text.dropLast()) : text
            guard let t = FieldType(rawValue: name) else {
                throw ConfigNode.error(
                    at, file: file,
                    "'\(key)' has unknown type '\(text)' (expected one of: "
                        + "\(FieldType.allCases.map(\.rawValue).joined(separator: ", ")), with '?' for optional)"
                )
            }
            return (t, optional)
        }
        if case .scalar(let s) = node {
            let (t, optional) = try type(s.string, node)
            return FieldSpec(type: t, required: !optional, defaultValue: nil)
        }
        let m = try ConfigNode(node, file: file, path: key)
        let typeText = m.soft { () throws(Diagnostic) in try m.string("type") }
        let defaultNode = m.raw("default")
        try m.rejectUnknownKeys()
        let (t, optional) = try type(m.required(typeText, "type"), m.raw("type") ?? node)
        var def: Value? = nil
        if let d = defaultNode { def = try YAMLValue.value(from: d, file: file) }
        return FieldSpec(type: t, required: !optional && def == nil, defaultValue: def)
    }

    static func parseSortKey(_ node: Node, key: String, file: String) throws(Diagnostic) -> SortKey {
        let m = try ConfigNode(node, file: file, path: key)
        let fieldText = m.soft { () throws(Diagnostic) in try m.string("field") }
        let orderText = m.soft { () throws(Diagnostic) in try m.string("order") } ?? "ascending"
        let compare = m.soft { () throws(Diagnostic) in try m.string("compare") } ?? "text"
        let formatText = m.soft { () throws(Diagnostic) in try m.string("format") }
        try m.rejectUnknownKeys()
        let field = try m.required(fieldText, "field")
        guard
            let direction = SortDirection(rawValue: orderText)
                ?? (orderText == "asc" ? .ascending : orderText == "desc" ? .descending : nil)
        else {
            throw m.error(
                m.raw("order") ?? node,
                "'\(key).order' must be ascending or descending (found '\(orderText)')")
        }
        let comparison: SortComparison
        switch compare {
        case "number": comparison = .number
        case "text": comparison = .text
        case "date":
            let format = DateFormat(formatText ?? "YYYY-MM-DD")
            guard format.canParse else {
                throw m.error(m.raw("format") ?? node, "'\(key).format' must name YYYY, MM and DD (found '\(format)')")
            }
            comparison = .date(format)
        default:
            throw m.error(
                m.raw("compare") ?? node,
                "'\(key).compare' must be number, text or date (found '\(compare)')")
        }
        return SortKey(field: field, direction: direction, comparison: comparison)
    }

    /// A derivation. Every key is read before any is checked, whichever form the derivation takes.
    static func parseDerivation(_ node: Node, key: String, file: String) throws(Diagnostic) -> Derivation {
        let m = try ConfigNode(node, file: file, path: key)
        func text(_ name: String) -> String? { m.soft { () throws(Diagnostic) in try m.string(name) } }
        let template = text("template"), fromText = text("from"), equals = text("equals")
        let format = text("format"), separator = text("separator"), field = text("field")
        let input = DateFormat(text("input") ?? "YYYY-MM-DD"), output = DateFormat(text("output") ?? "YYYY-MM-DD")
        try m.rejectUnknownKeys()
        if let template {
            guard m.raw("from") == nil, m.raw("format") == nil else {
                throw m.error(node, "'\(key)' takes either 'template' or 'from' with 'format'")
            }
            return .template(template)
        }
        let from = try m.required(fromText, "from")
        if let equals {
            guard m.raw("format") == nil else { throw m.error(node, "'\(key)' takes either 'equals' or 'format'") }
            return .equals(from: from, value: equals)
        }
        guard let format else { return .copy(from: from) }
        switch format {
        case "thousands": return .thousands(from: from)
        case "abs": return .absolute(from: from)
        case "sign": return .sign(from: from)
        case "slug": return .slug(from: from)
        case "list": return .list(from: from, separator: separator ?? ",")
        case "join": return .join(from: from, field: field, separator: separator ?? ", ")
        case "date":
            guard input.canParse else {
                throw m.error(m.raw("input") ?? node, "'\(key).input' must name YYYY, MM and DD (found '\(input)')")
            }
            return .date(from: from, input: input, output: output)
        default:
            throw m.error(
                m.raw("format") ?? node,
                "'\(key).format' must be one of thousands, date, abs, sign, list,"
                    + " join, slug (found '\(format)')")
        }
    }
}
