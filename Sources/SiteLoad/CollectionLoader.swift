import Foundation
import Synchronization
import ImageProbe
import SiteCore
import SiteFetch
import SiteFormats

/// An image an item shows: where it is served from and its pixel size (nil only for external
/// images whose size the dataset does not give).
public struct ImageInfo: Sendable, Hashable, Codable {
    /// A path relative to `content/` (local) or an absolute URL (external).
    public var source: String
    public var isExternal: Bool
    public var width: Int?
    public var height: Int?

    /// Whether a local file of this name is resized (SVG and GIF are published as they are).
    public static func isResizable(_ path: String) -> Bool {
        ["jpg", "jpeg", "png", "webp"].contains((path as NSString).pathExtension.lowercased())
    }
}

/// One dataset item after normalisation: renamed, checked, derived fields computed, slug set.
public struct Item: Sendable, Encodable {
    public var slug: String
    public var fields: [String: Value]
    /// Image fields, by field name.
    public var images: [String: ImageInfo]
    /// The dataset file, the item's line and column where the format has them, and its key path.
    public var source: SourceLocation
}

/// A collection's items in dataset order (sorting is the core's job, after loading).
public struct LoadedCollection: Sendable {
    public var config: CollectionConfig
    public var items: [Item]
    /// The collection's `meta` values (from outside the item list).
    public var meta: [String: Value] = [:]
    /// The collection's home-page icon, sized.
    public var icon: ImageInfo?
}

/// A dataset file read into a value, with the means to locate key paths in it.
struct DatasetFile {
    let display: String
    let data: Data
    let format: DatasetFormat
    let root: Value
    /// Where each element of the list at `itemsPath` starts, found while parsing (nil for binary
    /// plists, or when there is no list there).
    let itemsPath: [PathComponent]
    let itemLocations: [(line: Int, column: Int)]?

    func location(_ path: [PathComponent]) -> SourceLocation {
        let lc = format.locate(path, data)
        return SourceLocation(file: display, line: lc?.line, column: lc?.column, path: lc == nil ? path.dotted : nil)
    }

    /// Where each element of the list at `itemsPath` starts; nil when it cannot be told (binary plists).
    func elementLocations(count: Int) -> [SourceLocation]? {
        guard let found = itemLocations, found.count == count else { return nil }
        return found.map { SourceLocation(file: display, line: $0.line, column: $0.column, path: nil) }
    }

    /// The value at `path`, or an error naming the step that leads nowhere.
    func value(at path: [PathComponent]) -> Result<Value, Diagnostic> {
        var current = root
        var walked: [PathComponent] = []
        for step in path {
            let next: Value?
            switch (step, current) {
            case (.key(let k), .dictionary(let d)): next = d[k]
            case (.index(let i), .array(let a)): next = i < a.count ? a[i] : nil
            default: next = nil
            }
            guard let next else {
                let here = walked.isEmpty ? "the top level" : "'\(walked.dotted)'"
                let hint: String
                if case .dictionary(let d) = current {
                    hint = " (keys there: \(d.keys.sorted().prefix(8).joined(separator: ", ")))"
                } else {
                    hint = " (\(here) is \(current.typePhrase))"
                }
                return .failure(
                    Diagnostic(
                        SourceLocation(file: display, path: nil),
                        "key path '\(path.dotted)' leads nowhere: \(step) not found in \(here)\(hint)"))
            }
            walked.append(step)
            current = next
        }
        return .success(current)
    }
}

/// Reads a collection's dataset files and normalises their items.
public struct CollectionLoader: Sendable {
    public let content: ContentTree
    public let language: String
    /// The build's fetching, for collections and joins whose data is a URL.
    public let fetch: FetchSession?

    public init(content: ContentTree, language: String, fetch: FetchSession? = nil) {
        self.content = content
        self.language = language
        self.fetch = fetch
    }

    /// All problems of the collection are reported together.
    public func load(_ config: CollectionConfig, imageSizes: ImageSizeCache) throws(Diagnostics) -> LoadedCollection {
        var problems: [Diagnostic] = []
        var items: [Item] = []
        var slugOwners: [String: SourceLocation] = [:]
        var meta: [String: Value] = [:]
        let joins = loadJoins(config, problems: &problems)
        let owner = "collection '\(config.name)'"
        let files = config.remote == nil ? expand(config.dataFiles, of: owner, problems: &problems) : [""]
        for (fileIndex, file) in files.enumerated() {
            let read =
                config.remote.map { readRemote($0, of: owner, items: config.itemsPath, problems: &problems) }
                ?? self.read(file, of: owner, items: config.itemsPath, problems: &problems)
            guard let dataset = read else { continue }
            if fileIndex == 0 { meta = values(config, from: dataset, problems: &problems) }
            guard let rawItems = itemList(config, in: dataset, problems: &problems) else { continue }
            // Every item's place in the file, found in one pass (items are located for messages
            // and for the page's source; locating each by itself would read the file once per item).
            let itemLocations = dataset.elementLocations(count: rawItems.count)
            let fetched = remoteJoins(
                config, items: rawItems, locations: itemLocations, dataset: dataset, problems: &problems)
            let normaliser = ItemNormaliser(
                loader: self, config: config, joins: joins + fetched, dataset: dataset, imageSizes: imageSizes)
            for (index, raw) in rawItems.enumerated() {
                guard let (slug, fields, images) = normaliser.normalise(raw, index: index, problems: &problems) else {
                    continue
                }
                let location = itemLocations?[index] ?? normaliser.locate([.index(index)])
                if let first = slugOwners[slug] {
                    let page = Diagnostic.excerpt(config.detailURL.map { TemplateText.fill($0) { _ in slug } } ?? slug)
                    problems.append(
                        Diagnostic(
                            location,
                            "duplicate slug '\(Diagnostic.excerpt(slug))' in collection '\(config.name)': item "
                                + "\(index) and \(describeLocation(first)) would share the page \(page)"
                        ))
                    continue
                }
                slugOwners[slug] = location
                items.append(
                    Item(
                        slug: slug, fields: fields, images: images,
                        source: SourceLocation(
                            file: dataset.display, line: location.line, column: location.column, path: "[\(index)]")))
            }
        }
        var icon: ImageInfo? = nil
        if let ref = config.icon {
            let at = SourceLocation(file: SiteConfig.fileName, path: "collections.\(config.name).icon")
            do {
                icon = try image(
                    ref, rule: ImageRule(fields: [], external: false, widthField: nil, heightField: nil, resize: false),
                    fields: [:], at: at, cache: imageSizes)
            } catch { problems.append(error) }
        }
        if !problems.isEmpty { throw Diagnostics(problems) }
        var loaded = LoadedCollection(config: config, items: items, meta: meta)
        loaded.icon = icon
        loaded.takeMediaAspectFromImages()
        return loaded
    }

    /// The list of items at the collection's `items` path of `dataset`; nil (a problem added)
    /// when the path leads nowhere or not to a list.
    func itemList(_ config: CollectionConfig, in dataset: DatasetFile, problems: inout [Diagnostic]) -> [Value]? {
        let list: Value
        switch dataset.value(at: config.itemsPath) {
        case .success(let v): list = v
        case .failure(let d): problems.append(d); return nil
        }
        guard case .array(let items) = list else {
            // The lists of records inside, shallowest and longest first: the likeliest item list leads.
            let lists = Self.lists(in: list, at: config.itemsPath).sorted {
                ($0.depth, -$0.count, $0.path) < ($1.depth, -$1.count, $1.path)
            }
            let named = lists.map { "'\($0.path)' (\($0.count) item\($0.count == 1 ? "" : "s"))" }.joined(
                separator: ", ")
            let hint =
                lists.isEmpty
                ? ""
                : "; its lists of records: \(named). Name the one to use with items: in site.yml, "
                    + "e.g. items: \(lists[0].path)"
            let at = config.itemsPath.isEmpty ? "the top level" : config.itemsPath.dotted
            problems.append(
                Diagnostic(
                    file: dataset.display, "expected a list of items at '\(at)', found \(list.typePhrase)\(hint)"))
            return nil
        }
        return items
    }

    /// The lists of records inside `value` (at `path` in its file), up to three levels down, by
    /// their full key paths: the candidates for `items:` when `value` is not a list.
    static func lists(in value: Value, at path: [PathComponent], depth: Int = 3)
        -> [(path: String, count: Int, depth: Int)]
    {
        guard depth > 0, case .dictionary(let d) = value else { return [] }
        var found: [(path: String, count: Int, depth: Int)] = []
        for (key, inner) in d.sorted(by: { $0.key < $1.key }) {
            let at = path + [.key(key)]
            if case .array(let a) = inner, a.contains(where: { if case .dictionary = $0 { true } else { false } }) {
                found.append((at.dotted, a.count, at.count))
            } else {
                found += lists(in: inner, at: at, depth: depth - 1)
            }
        }
        return found
    }

    /// Data file patterns expanded against the content tree (a pattern without `*` is kept as
    /// written, so that a missing file is reported by name).
    func expand(_ patterns: [String], of owner: String, problems: inout [Diagnostic]) -> [String] {
        var files: [String] = []
        for pattern in patterns {
            guard pattern.contains("*") else { files.append(pattern); continue }
            let matches = content.datasets.filter { ContentPath.matches($0, pattern: pattern) }
            if matches.isEmpty {
                problems.append(
                    Diagnostic(
                        file: "site.yml",
                        "\(owner): data pattern '\(pattern)' matches no dataset ("
                            + DatasetFormat.all.flatMap(\.extensions).map { "." + $0 }.joined(separator: ", ")
                            + ") under content/"))
            }
            files += matches
        }
        return files
    }

    /// Reads and parses one dataset file; nil (with the problem recorded) when it cannot.
    /// The items are located while parsing (a second parse to locate them would hold the whole
    /// dataset in memory twice).
    func read(_ file: String, of owner: String, items: [PathComponent], problems: inout [Diagnostic]) -> DatasetFile? {
        let display = SourceLayout.contentFile(file)
        let relative: String
        switch ContentPath.resolve(file) {
        case .success(let r): relative = r
        case .failure(let e):
            problems.append(Diagnostic(file: "site.yml", "\(owner): data file \(e.message)")); return nil
        }
        let data: Data
        switch content.contents(relative) {
        case .success(let d): data = d
        case .failure(let reason):
            problems.append(
                Diagnostic(
                    file: display,
                    "cannot read the dataset of \(owner) (named by its 'data' in site.yml): \(reason.text)"))
            return nil
        }
        return parse(
            data, display: display, format: DatasetFormat.of(file: relative) ?? DatasetFormat.of(bytes: data),
            items: items,
            problems: &problems)
    }

    /// A dataset's bytes parsed, its items located.
    func parse(
        _ data: Data, display: String, format: DatasetFormat, items: [PathComponent], problems: inout [Diagnostic]
    )
        -> DatasetFile?
    {
        do {
            let (root, locations) = try format.read(data, display, items)
            return DatasetFile(
                display: display, data: data, format: format, root: root, itemsPath: items, itemLocations: locations)
        } catch {
            problems.append(error)
            return nil
        }
    }

    /// The collection's `meta` values: key paths into its first data file, then derivations.
    func values(_ config: CollectionConfig, from dataset: DatasetFile, problems: inout [Diagnostic]) -> [String: Value]
    {
        var meta: [String: Value] = [:]
        for (name, rule) in config.meta {
            switch rule {
            case .path(let path):
                switch dataset.value(at: path) {
                case .success(let v): meta[name] = v
                case .failure(let d):
                    problems.append(
                        Diagnostic(d.location, "meta value '\(name)' of collection '\(config.name)': \(d.message)"))
                }
            case .derived(let derivation):
                switch derivation.apply(meta, language: language) {
                case .success(let v): meta[name] = v
                case .failure(let e):
                    problems.append(
                        Diagnostic(
                            file: dataset.display, "meta value '\(name)' of collection '\(config.name)': \(e.message)"))
                }
            }
        }
        return meta
    }

    /// Each join's records by the text of their key; a record without the key or a key that two
    /// records share is an error at its place in its file.
    func loadJoins(_ config: CollectionConfig, problems: inout [Diagnostic]) -> [(JoinRule, [String: Value])] {
        config.joins.filter { $0.remote == nil }.map { rule in
            let owner = "join '\(rule.name)' of collection '\(config.name)'"
            var records: [String: Value] = [:]
            var owners: [String: SourceLocation] = [:]
            for file in expand(rule.dataFiles, of: owner, problems: &problems) {
                guard let dataset = read(file, of: owner, items: rule.itemsPath, problems: &problems) else { continue }
                addRecords(of: dataset, rule, owner: owner, to: &records, owners: &owners, problems: &problems)
            }
            return (rule, records)
        }
    }

    /// The records of one joined file or answer, by the text of their key.
    func addRecords(
        of dataset: DatasetFile, _ rule: JoinRule, owner: String, to records: inout [String: Value],
        owners: inout [String: SourceLocation], problems: inout [Diagnostic]
    ) {
        let found: Value
        switch dataset.value(at: rule.itemsPath) {
        case .success(let v): found = v
        case .failure(let d): problems.append(d); return
        }
        let list: [(Value, [PathComponent])]
        if case .array(let a) = found {
            list = a.enumerated().map { ($1, rule.itemsPath + [.index($0)]) }
        } else {
            list = [(found, rule.itemsPath)]
        }
        for (record, path) in list {
            guard case .dictionary(let d) = record else {
                problems.append(
                    Diagnostic(
                        dataset.location(path), "\(owner): expected a record (a dictionary), found \(record.typePhrase)"
                    ))
                continue
            }
            guard let k = d[rule.key], k != .null else {
                problems.append(
                    Diagnostic(dataset.location(path), "\(owner): the record has no key field '\(rule.key)'"))
                continue
            }
            let key = TemplateText.plain(k)
            let here = dataset.location(path + [.key(rule.key)])
            if let first = owners[key] {
                let there =
                    first.line.map { "\(first.file):\($0)" + (first.column.map { ":\($0)" } ?? "") }
                    ?? "\(first.file) \(first.path ?? "")"
                problems.append(Diagnostic(here, "\(owner): key '\(key)' is also the key of the record at \(there)"))
                continue
            }
            owners[key] = here
            records[key] = record
        }
    }

    func image(
        _ ref: String, rule: ImageRule, fields: [String: Value], at: @autoclosure () -> SourceLocation,
        cache: ImageSizeCache
    ) throws(Diagnostic) -> ImageInfo {
        let lower = ref.lowercased()
        if rule.external {
            guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else {
                throw Diagnostic(at(), "external image '\(ref)' must be an http(s) URL")
            }
            func size(_ field: String?) -> Int? {
                guard let field, let v = fields[field] else { return nil }
                switch v {
                case .int(let i) where i > 0 && i < 1_000_000: return Int(i)
                case .double(let d) where d > 0 && d < 1_000_000: return Int(d.rounded())
                case .string(let s): return Int(s).flatMap { $0 > 0 && $0 < 1_000_000 ? $0 : nil }
                default: return nil
                }
            }
            return ImageInfo(
                source: ref, isExternal: true, width: size(rule.widthField), height: size(rule.heightField))
        }
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("data:")
            || lower.hasPrefix("javascript:")
        {
            throw Diagnostic(
                at(),
                "image '\(ref)' is a URL, but the collection's images are local files (set images.external: true "
                    + "for remote images)"
            )
        }
        let relative: String
        switch ContentPath.resolve(ref) {
        case .success(let r): relative = r
        case .failure(let e): throw Diagnostic(at(), "image reference refused: \(e.message)")
        }
        let size = try cache.size(of: relative, in: content, referencedAt: at())
        if rule.resize, ImageInfo.isResizable(relative), size.width * size.height > rule.maxPixels {
            throw Diagnostic(
                at(),
                "image '\(SourceLayout.contentFile(relative))' is \(size.width)×\(size.height) px, "
                    + "more than the limit of \(rule.maxPixels) pixels (images.maxPixels): refused before decoding"
            )
        }
        return ImageInfo(source: relative, isExternal: false, width: size.width, height: size.height)
    }

    static func describe(_ value: Value) -> String {
        switch value {
        case .string(let s): "a string (\"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\")"
        case .int(let i): "an integer (\(i))"
        case .double(let d) where d.rounded() == d && abs(d) >= 0x1p63: "a whole number too large for 64 bits (\(d))"
        case .double(let d): "a number (\(d))"
        case .bool(let b): "a boolean (\(b))"
        case .array: "an array"
        case .dictionary: "a dictionary"
        case .date: "a date"
        case .null: "null"
        }
    }

    private func describeLocation(_ location: SourceLocation) -> String {
        if let line = location.line { return "the item at \(location.file):\(line)" }
        return "the item at \(location.file) \(location.path ?? "")"
    }
}

/// Image sizes read once per file per build, shared by every collection and thread.
public final class ImageSizeCache: Sendable {
    private let sizes = Mutex<[String: ImageSize]>([:])

    public init() {}

    static let headBytes = 65_536

    func size(of relative: String, in content: ContentTree, referencedAt: @autoclosure () -> SourceLocation)
        throws(Diagnostic) -> ImageSize
    {
        if let s = sizes.withLock({ $0[relative] }) { return s }
        let url = content.root.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw Diagnostic(referencedAt(), "image '\(SourceLayout.contentFile(relative))' does not exist")
        }
        let ext = (relative as NSString).pathExtension.lowercased()
        guard ImageProbe.supportedExtensions.contains(ext) else {
            throw Diagnostic(
                referencedAt(),
                "'\(SourceLayout.contentFile(relative))' is not an image sitegen can size (png, jpg, gif, webp, svg)")
        }
        // A camera original's size is in its first few kilobytes: the rest is read only when the
        // head is not enough (a header past 64 KB, a broken file and its exact message). Every
        // reader fails on a header cut short rather than guess, so a size read from the head is
        // the file's size.
        if case .success(let head) = content.head(relative, count: Self.headBytes), !head.whole,
            let size = try? ImageProbe.size(of: head.data, file: SourceLayout.contentFile(relative))
        {
            sizes.withLock { $0[relative] = size }
            return size
        }
        let data: Data
        do { data = try content.read(relative) } catch { throw Diagnostic(referencedAt(), error.message) }
        let size: ImageSize
        do { size = try ImageProbe.size(of: data, file: SourceLayout.contentFile(relative)) } catch {
            throw Diagnostic(referencedAt(), "image '\(SourceLayout.contentFile(relative))': \(error.message)")
        }
        sizes.withLock { $0[relative] = size }
        return size
    }
}
