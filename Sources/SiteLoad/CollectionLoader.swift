import Foundation
import ImageProbe
import SiteCore
import SiteFormats

/// An image an item shows: where it is served from and its pixel size (nil only for external
/// images whose size the dataset does not give).
public struct ImageInfo: Sendable, Hashable {
    /// A path relative to `content/` (local) or an absolute URL (external).
    public var source: String
    public var isExternal: Bool
    public var width: Int?
    public var height: Int?
}

/// One dataset item after normalisation: renamed, checked, derived fields computed, slug set.
public struct Item: Sendable {
    public var slug: String
    public var fields: [String: Value]
    /// Image fields, by field name.
    public var images: [String: ImageInfo]
    /// The dataset file and the item's key path in it.
    public var source: SourceLocation
}

/// A collection's items in dataset order (sorting is the core's job, after loading).
public struct LoadedCollection: Sendable {
    public var config: CollectionConfig
    public var items: [Item]
}

/// Reads a collection's dataset files and normalises their items.
public struct CollectionLoader: Sendable {
    public let content: ContentTree
    public let language: String

    public init(content: ContentTree, language: String) {
        self.content = content
        self.language = language
    }

    /// All problems of the collection are reported together.
    public func load(_ config: CollectionConfig, imageSizes: ImageSizeCache) throws(Diagnostics) -> LoadedCollection {
        var problems: [Diagnostic] = []
        var items: [Item] = []
        var slugOwners: [String: SourceLocation] = [:]
        for file in config.dataFiles {
            let display = "content/\(file)"
            let relative: String
            switch ContentPath.resolve(file) {
            case .success(let r): relative = r
            case .failure(let e): problems.append(Diagnostic(file: "site.yml", "collection '\(config.name)': data file \(e.message)")); continue
            }
            let data: Data
            do { data = try content.read(relative) } catch {
                problems.append(Diagnostic(file: display, "dataset of collection '\(config.name)' not found or unreadable: \(error.message)"))
                continue
            }
            let isPlist = relative.lowercased().hasSuffix(".plist")
            let root: Value
            do {
                root = isPlist ? try PropertyListReader.read(data, file: display) : try JSONReader.read(data, file: display)
            } catch {
                problems.append(error)
                continue
            }
            func locate(_ path: [PathComponent]) -> SourceLocation {
                let full = config.itemsPath + path
                let lc = isPlist ? PropertyListReader.location(of: full, in: data) : JSONReader.location(of: full, in: data)
                return SourceLocation(file: display, line: lc?.line, column: lc?.column, path: lc == nil ? full.dotted : nil)
            }
            // Follow the key path, naming the step that leads nowhere.
            var list = root
            var walked: [PathComponent] = []
            var broken = false
            for step in config.itemsPath {
                let next: Value?
                switch (step, list) {
                case (.key(let k), .dictionary(let d)): next = d[k]
                case (.index(let i), .array(let a)): next = i < a.count ? a[i] : nil
                default: next = nil
                }
                guard let next else {
                    let here = walked.isEmpty ? "the top level" : "'\(walked.dotted)'"
                    var hint = ""
                    if case .dictionary(let d) = list { hint = " (keys there: \(d.keys.sorted().prefix(8).joined(separator: ", ")))" } else { hint = " (\(here) is \(list.typeName == "array" ? "an array" : "a \(list.typeName)"))" }
                    problems.append(Diagnostic(SourceLocation(file: display, path: nil), "key path '\(config.itemsPath.dotted)' leads nowhere: \(step) not found in \(here)\(hint)"))
                    broken = true
                    break
                }
                walked.append(step)
                list = next
            }
            if broken { continue }
            guard case .array(let rawItems) = list else {
                problems.append(Diagnostic(file: display, "expected a list of items at '\(config.itemsPath.isEmpty ? "the top level" : config.itemsPath.dotted)', found a \(list.typeName)"))
                continue
            }
            for (index, raw) in rawItems.enumerated() {
                guard case .dictionary(var fields) = raw else {
                    problems.append(Diagnostic(locate([.index(index)]), "item \(index) is a \(raw.typeName), expected a dictionary of fields"))
                    continue
                }
                var itemProblems: [Diagnostic] = []
                for (from, to) in config.rename.sorted(by: { $0.key < $1.key }) {
                    if let v = fields.removeValue(forKey: from) { fields[to] = v }
                }
                // The original key of a renamed field, to locate it in the file.
                func originalKey(_ name: String) -> String { config.rename.first { $0.value == name }?.key ?? name }
                for (name, spec) in config.fields.sorted(by: { $0.key < $1.key }) {
                    guard let v = fields[name], v != .null else {
                        if let d = spec.defaultValue { fields[name] = d } else if spec.required {
                            itemProblems.append(Diagnostic(locate([.index(index)]), "item \(index) has no field '\(name)' (\(spec.type.phrase))"))
                        }
                        continue
                    }
                    if !spec.type.accepts(v) {
                        itemProblems.append(Diagnostic(locate([.index(index), .key(originalKey(name))]),
                                                       "field '\(name)' of item \(index) must be \(spec.type.phrase), found \(describe(v))"))
                    }
                }
                for (name, derivation) in config.derived {
                    switch derivation.apply(fields, language: language) {
                    case .success(let v): fields[name] = v
                    case .failure(let e):
                        let input = derivation.inputs.first.map(originalKey)
                        itemProblems.append(Diagnostic(locate([.index(index)] + (input.map { [.key($0)] } ?? [])), "item \(index): \(e.message) (for derived field '\(name)')"))
                    }
                }
                // The slug.
                var slug = ""
                let slugField = config.slug.field
                switch (config.slug, fields[slugField]) {
                case (_, nil), (_, .some(.null)):
                    itemProblems.append(Diagnostic(locate([.index(index)]), "item \(index) has no field '\(slugField)' to name its page"))
                case (.field, .some(let v)):
                    slug = TemplateText.plain(v)
                    if !Slug.isSafeSegment(slug) || slug.contains("%") {
                        itemProblems.append(Diagnostic(locate([.index(index), .key(originalKey(slugField))]), "slug '\(slug)' of item \(index) cannot be a URL segment (no '/', '\\', '..', '?', '#', '%' or control characters)"))
                    }
                case (.derived, .some(let v)):
                    slug = Slug.make(TemplateText.plain(v))
                    if slug.isEmpty { itemProblems.append(Diagnostic(locate([.index(index), .key(originalKey(slugField))]), "field '\(slugField)' of item \(index) gives an empty slug")) }
                }
                // Images.
                var images: [String: ImageInfo] = [:]
                if let rule = config.images {
                    for field in rule.fields {
                        guard let v = fields[field], case .string(let ref) = v, !ref.isEmpty else {
                            if let v = fields[field], v != .null {
                                itemProblems.append(Diagnostic(locate([.index(index), .key(originalKey(field))]), "image field '\(field)' of item \(index) must be a file name or URL, found \(describe(v))"))
                            }
                            continue
                        }
                        do {
                            images[field] = try image(ref, rule: rule, fields: fields, at: locate([.index(index), .key(originalKey(field))]), cache: imageSizes)
                        } catch {
                            itemProblems.append(error)
                        }
                    }
                }
                if !itemProblems.isEmpty { problems += itemProblems; continue }
                let location = locate([.index(index)])
                if let first = slugOwners[slug] {
                    problems.append(Diagnostic(location, "duplicate slug '\(slug)' in collection '\(config.name)': item \(index) and \(describeLocation(first)) would share the page \(config.detailURL.map { TemplateText.fill($0) { _ in slug } } ?? slug)"))
                    continue
                }
                slugOwners[slug] = location
                items.append(Item(slug: slug, fields: fields, images: images, source: SourceLocation(file: display, path: "[\(index)]")))
            }
        }
        if !problems.isEmpty { throw Diagnostics(problems) }
        return LoadedCollection(config: config, items: items)
    }

    private func image(_ ref: String, rule: ImageRule, fields: [String: Value], at: SourceLocation, cache: ImageSizeCache) throws(Diagnostic) -> ImageInfo {
        let lower = ref.lowercased()
        if rule.external {
            guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else {
                throw Diagnostic(at, "external image '\(ref)' must be an http(s) URL")
            }
            func size(_ f: String?) -> Int? {
                guard let f, let v = fields[f] else { return nil }
                switch v {
                case .int(let i) where i > 0 && i < 1_000_000: return Int(i)
                case .double(let d) where d > 0 && d < 1_000_000: return Int(d.rounded())
                case .string(let s): return Int(s).flatMap { $0 > 0 ? $0 : nil }
                default: return nil
                }
            }
            return ImageInfo(source: ref, isExternal: true, width: size(rule.widthField), height: size(rule.heightField))
        }
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("data:") || lower.hasPrefix("javascript:") {
            throw Diagnostic(at, "image '\(ref)' is a URL, but the collection's images are local files (set images.external: true for remote images)")
        }
        let relative: String
        switch ContentPath.resolve(ref) {
        case .success(let r): relative = r
        case .failure(let e): throw Diagnostic(at, "image reference refused: \(e.message)")
        }
        let size = try cache.size(of: relative, in: content, referencedAt: at)
        return ImageInfo(source: relative, isExternal: false, width: size.width, height: size.height)
    }

    private func describe(_ v: Value) -> String {
        switch v {
        case .string(let s): "a string (\"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\")"
        case .int(let i): "an integer (\(i))"
        case .double(let d): "a number (\(d))"
        case .bool(let b): "a boolean (\(b))"
        case .array: "an array"
        case .dictionary: "a dictionary"
        case .date: "a date"
        case .null: "null"
        }
    }

    private func describeLocation(_ l: SourceLocation) -> String {
        if let line = l.line { return "the item at \(l.file):\(line)" }
        return "the item at \(l.file) \(l.path ?? "")"
    }
}

/// Image sizes read once per file per build, shared by every collection and thread.
public final class ImageSizeCache: @unchecked Sendable {
    private var sizes: [String: ImageSize] = [:]
    private let lock = NSLock()

    public init() {}

    func size(of relative: String, in content: ContentTree, referencedAt: SourceLocation) throws(Diagnostic) -> ImageSize {
        if let s = lock.withLock({ sizes[relative] }) { return s }
        let url = content.root.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw Diagnostic(referencedAt, "image 'content/\(relative)' does not exist")
        }
        let ext = (relative as NSString).pathExtension.lowercased()
        guard ImageProbe.supportedExtensions.contains(ext) else {
            throw Diagnostic(referencedAt, "'content/\(relative)' is not an image sitegen can size (png, jpg, gif, webp, svg)")
        }
        let data: Data
        do { data = try content.read(relative) } catch { throw Diagnostic(referencedAt, error.message) }
        let size = try ImageProbe.size(of: data, file: "content/\(relative)")
        lock.withLock { sizes[relative] = size }
        return size
    }
}
