import Foundation

/// What a compiled template renders: a Sendable value tree whose objects are keyed by name ids
/// (`TemplateNames`), so a `{{name}}` costs an integer search, not a string hash and a cast.
public enum TemplateValue: Sendable {
    case string(String)
    case bool(Bool)
    case int(Int)
    case double(Double)
    case list(TemplateList)
    case object(TemplateObject)
    case lambda(TemplateFunction)
    /// A key present with no value (JSON null): it hides outer values of the same name and
    /// renders as missing, as in swift-mustache.
    case null
}

/// A list, and whether its elements may be `sorted` (swift-mustache sorts only lists whose
/// Swift type has comparable elements: `[String]`, `[Int]`).
public struct TemplateList: Sendable {
    public var items: [TemplateValue]
    public var sortable: Bool

    public init(_ items: [TemplateValue], sortable: Bool = false) {
        self.items = items
        self.sortable = sortable
    }
}

/// A section function: `{{#name}}text{{/name}}` prints what it returns for the section's raw text
/// (the text returned is read as a template, as swift-mustache does).
public struct TemplateFunction: Sendable {
    public let body: @Sendable (String) -> String
    /// The result is a value, escaped like any other and never read as a template (sitegen's
    /// helpers, e.g. `site.asset`: a URL made from configuration must not become markup). false:
    /// Mustache's lambdas, whose result is template text.
    public var isValue = false
    public init(_ body: @escaping @Sendable (String) -> String) { self.body = body }
}

/// An object's entries sorted by name id. Only names some template of the library uses get an
/// id; other entries are kept (with id -1, and their names) only when a template lists objects'
/// entries (`sorted`, `enumerated`), since nothing else can reach them.
public final class TemplateObject: Sendable {
    struct Entry: Sendable {
        var id: Int32
        var value: TemplateValue
    }
    let entries: [Entry]
    /// The entries' names, parallel to `entries`, when the library lists entries (else empty).
    let keys: [String]
    /// How many entries the object had, kept or not (`count`, `empty`).
    let count: Int

    init(entries: [Entry], keys: [String], count: Int) {
        self.entries = entries
        self.keys = keys
        self.count = count
    }

    /// The value named `id`, if any: a scan for small objects, else a binary search.
    @inline(__always)
    subscript(id: Int32) -> TemplateValue? {
        entries.withUnsafeBufferPointer { e in
            var lo = 0, hi = e.count
            if hi <= 8 {
                for k in 0..<hi where e[k].id == id { return e[k].value }
                return nil
            }
            while lo < hi {
                let mid = (lo + hi) >> 1
                let m = e[mid].id
                if m == id { return e[mid].value }
                if m < id { lo = mid + 1 } else { hi = mid }
            }
            return nil
        }
    }

    /// The entries as `{key, value}` objects sorted by key (`sorted` and `enumerated`).
    func pairs(names: TemplateNames) -> [TemplateValue] {
        let keyID = names.id(of: "key"), valueID = names.id(of: "value")
        return keys.indices.sorted { keys[$0] < keys[$1] }.map { k in
            .object(
                TemplateObject(
                    entries: [Entry(id: keyID, value: .string(keys[k])), Entry(id: valueID, value: entries[k].value)],
                    keys: ["key", "value"], count: 2))
        }
    }
}

/// The names a library's templates use, each given a small integer once, at compile time.
public struct TemplateNames: Sendable {
    var ids: [String: Int32] = ["key": 0, "value": 1]
    /// Whether some template lists an object's entries, so objects must keep every entry.
    var keepsAllEntries = false

    /// An id for a name that no template uses (it matches no entry).
    static let unknown: Int32 = .min

    mutating func intern(_ name: Substring) -> Int32 {
        if let id = ids[String(name)] { return id }
        let id = Int32(ids.count)
        ids[String(name)] = id
        return id
    }

    func id(of name: String) -> Int32 { ids[name] ?? Self.unknown }

    /// `any` (what sitegen's contexts hold: strings, numbers, booleans, arrays, string-keyed
    /// dictionaries, functions) as a template value; nil for nil.
    public func value(_ any: Any) -> TemplateValue {
        switch any {
        case let s as String: return .string(s)
        case let b as Bool: return .bool(b)
        case let i as Int: return .int(i)
        case let v as TemplateValue: return v
        case let d as [String: Any]: return object(d)
        case let a as [Any]:
            let sortable = type(of: any) == [String].self || type(of: any) == [Int].self
            return .list(TemplateList(a.map(value), sortable: sortable))
        case let f as TemplateFunction: return .lambda(f)
        case let d as Double: return .double(d)
        case is NSNull: return .null
        case let s as Substring: return .string(String(s))
        default: return .string(String(describing: any))
        }
    }

    public func object(_ dictionary: [String: Any]) -> TemplateValue {
        var entries: [TemplateObject.Entry] = []
        entries.reserveCapacity(dictionary.count)
        if keepsAllEntries {
            var named: [(entry: TemplateObject.Entry, key: String)] = []
            for (key, v) in dictionary {
                named.append((TemplateObject.Entry(id: ids[key] ?? -1, value: value(v)), key))
            }
            named.sort { $0.entry.id < $1.entry.id }
            return .object(TemplateObject(entries: named.map(\.entry), keys: named.map(\.key), count: dictionary.count))
        }
        for (key, v) in dictionary {
            if let id = ids[key] { entries.append(TemplateObject.Entry(id: id, value: value(v))) }
        }
        entries.sort { $0.id < $1.id }
        return .object(TemplateObject(entries: entries, keys: [], count: dictionary.count))
    }
}

extension TemplateValue {
    /// The text `{{name}}` prints, as swift-mustache's `String(describing:)` does.
    var text: String {
        switch self {
        case .string(let s): s
        case .bool(let b): b ? "true" : "false"
        case .int(let i): String(i)
        case .double(let d): String(describing: d)
        case .null: "nil"
        case .lambda: "(Function)"
        case .list, .object: debugText
        }
    }

    /// As Swift describes an element of an array: strings quoted. Objects list their entries by
    /// key (swift-mustache's order was the dictionary's hash order, so no output relied on it).
    var debugText: String {
        switch self {
        case .string(let s): String(reflecting: s)
        case .list(let l): "[" + l.items.map(\.debugText).joined(separator: ", ") + "]"
        case .object(let o):
            o.keys.isEmpty
                ? "[:]"
                : "["
                    + o.keys.indices.sorted { o.keys[$0] < o.keys[$1] }
                    .map { "\(String(reflecting: o.keys[$0])): \(o.entries[$0].value.debugText)" }.joined(
                        separator: ", ") + "]"
        default: text
        }
    }
}
