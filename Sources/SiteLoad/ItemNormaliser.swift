import Foundation
import SiteCore
import SiteFormats

/// One dataset's items normalised by their collection's rules: fields renamed and joined,
/// checked against their types, derived fields computed, the slug and the image fields read.
/// Problems are located in the dataset file, at the keys the item has there.
struct ItemNormaliser {
    let loader: CollectionLoader
    let config: CollectionConfig
    let joins: [(JoinRule, [String: Value])]
    let dataset: DatasetFile
    let imageSizes: ImageSizeCache

    /// The item's slug, fields and images; nil when it has problems (added to `problems`).
    func normalise(_ raw: Value, index: Int, problems: inout [Diagnostic]) -> (
        slug: String, fields: [String: Value], images: [String: ImageInfo]
    )? {
        guard case .dictionary(var fields) = raw else {
            problems.append(
                Diagnostic(
                    locate([.index(index)]), "item \(index) is \(raw.typePhrase), expected a dictionary of fields"))
            return nil
        }
        var found: [Diagnostic] = []
        renameAndJoin(&fields)
        check(&fields, index: index, problems: &found)
        derive(&fields, index: index, problems: &found)
        let slug = self.slug(fields, index: index, problems: &found)
        let images = self.images(fields, index: index, problems: &found)
        guard found.isEmpty else {
            problems += found
            return nil
        }
        return (slug, fields, images)
    }

    /// Where `path` (below the item list) is in the dataset file.
    func locate(_ path: [PathComponent]) -> SourceLocation { dataset.location(config.itemsPath + path) }

    /// The key a field had in the file before `rename`, to locate it there.
    func originalKey(_ name: String) -> String { config.rename.first { $0.value == name }?.key ?? name }

    func renameAndJoin(_ fields: inout [String: Value]) {
        for (from, to) in config.rename.sorted(by: { $0.key < $1.key }) {
            if let v = fields.removeValue(forKey: from) { fields[to] = v }
        }
        for (rule, records) in joins {
            if let v = fields[rule.on], v != .null, let record = records[TemplateText.plain(v)] {
                fields[rule.name] = record
            }
        }
    }

    /// Defaults filled in; required fields present and every declared field of its type.
    func check(_ fields: inout [String: Value], index: Int, problems: inout [Diagnostic]) {
        for (name, spec) in config.fields.sorted(by: { $0.key < $1.key }) {
            if dataset.format.textOnly, case .string(let text)? = fields[name] {
                fields[name] = Self.typed(text, as: spec.type)
            }
            guard let v = fields[name], v != .null else {
                if let d = spec.defaultValue {
                    fields[name] = d
                } else if spec.required {
                    problems.append(
                        Diagnostic(
                            locate([.index(index)]), "item \(index) has no field '\(name)' (\(spec.type.phrase))"))
                }
                continue
            }
            if !spec.type.accepts(v) {
                problems.append(
                    Diagnostic(
                        locate([.index(index), .key(originalKey(name))]),
                        "field '\(name)' of item \(index) must be \(spec.type.phrase), found "
                            + "\(CollectionLoader.describe(v))"
                    ))
            }
        }
    }

    /// A cell of a format whose values are all text (CSV) as its declared type: an integer, a
    /// number, `true` or `false`; an empty cell is missing unless the field is text. Text that
    /// is not of the type is left as it is, for the type check to point at.
    static func typed(_ text: String, as type: FieldType) -> Value {
        switch type {
        case .string, .any: return .string(text)
        case _ where text.isEmpty: return .null
        case .integer: return Int64(text).map { .int($0) } ?? .string(text)
        case .number:
            if let i = Int64(text) { return .int(i) }
            return Double(text).flatMap { $0.isFinite ? .double($0) : nil } ?? .string(text)
        case .boolean: return text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
        case .date, .array, .dictionary: return .string(text)
        }
    }

    func derive(_ fields: inout [String: Value], index: Int, problems: inout [Diagnostic]) {
        for (name, derivation) in config.derived {
            switch derivation.apply(fields, language: loader.language) {
            case .success(let v): fields[name] = v
            case .failure(let e):
                let input = derivation.inputs.first.map(originalKey)
                problems.append(
                    Diagnostic(
                        locate([.index(index)] + (input.map { [.key($0)] } ?? [])),
                        "item \(index): \(e.message) (for derived field '\(name)')"))
            }
        }
    }

    /// The item's slug: its slug field as it is (a safe URL segment) or made into one.
    func slug(_ fields: [String: Value], index: Int, problems: inout [Diagnostic]) -> String {
        let slugField = config.slug.field
        switch (config.slug, fields[slugField]) {
        case (_, nil), (_, .some(.null)):
            problems.append(
                Diagnostic(locate([.index(index)]), "item \(index) has no field '\(slugField)' to name its page"))
            return ""
        case (.field, .some(let v)):
            let slug = TemplateText.plain(v)
            if !Slug.isSafeSegment(slug) || slug.contains("%") {
                problems.append(
                    Diagnostic(
                        locate([.index(index), .key(originalKey(slugField))]),
                        "slug '\(slug)' of item \(index) cannot be a URL segment (\(Slug.segmentRule))"))
            }
            return slug
        case (.derived, .some(let v)):
            let slug = Slug.make(TemplateText.plain(v))
            if slug.isEmpty {
                problems.append(
                    Diagnostic(
                        locate([.index(index), .key(originalKey(slugField))]),
                        "field '\(slugField)' of item \(index) gives an empty slug"))
            }
            return slug
        }
    }

    /// The item's image fields, each located and sized.
    func images(_ fields: [String: Value], index: Int, problems: inout [Diagnostic]) -> [String: ImageInfo] {
        guard let rule = config.images else { return [:] }
        var images: [String: ImageInfo] = [:]
        for field in rule.fields {
            let at = { locate([.index(index), .key(originalKey(field))]) }
            guard let v = fields[field], case .string(let ref) = v, !ref.isEmpty else {
                if let v = fields[field], v != .null {
                    problems.append(
                        Diagnostic(
                            at(),
                            "image field '\(field)' of item \(index) must be a file name or URL, found "
                                + "\(CollectionLoader.describe(v))"
                        ))
                }
                continue
            }
            do {
                images[field] = try loader.image(ref, rule: rule, fields: fields, at: at(), cache: imageSizes)
            } catch {
                problems.append(error)
            }
        }
        return images
    }
}
