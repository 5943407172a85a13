import Foundation

/// Makes a template object one named entry at a time: the way typed views become template
/// values (each name looked up once, no dynamic casts). The object is the one
/// `TemplateNames.object(_:)` makes of a dictionary holding the same entries.
public struct TemplateObjectBuilder {
    let names: TemplateNames
    private var entries: [TemplateObject.Entry] = []
    private var keys: [String] = []

    public init(names: TemplateNames, capacity: Int = 8) {
        self.names = names
        entries.reserveCapacity(capacity)
        if names.keepsAllEntries { keys.reserveCapacity(capacity) }
    }

    /// Whether a template of the library uses `name` (an entry of another name is dropped unless
    /// templates list objects' entries).
    public func uses(_ name: String) -> Bool { names.ids[name] != nil || names.keepsAllEntries }

    private var added = 0

    /// Adds the entry `key` (each key once per object).
    public mutating func set(_ key: String, _ value: @autoclosure () -> TemplateValue) {
        added += 1
        if let id = names.ids[key] {
            entries.append(TemplateObject.Entry(id: id, value: value()))
            if names.keepsAllEntries { keys.append(key) }
        } else if names.keepsAllEntries {
            entries.append(TemplateObject.Entry(id: -1, value: value()))
            keys.append(key)
        }
    }

    public func build() -> TemplateValue {
        if names.keepsAllEntries {
            let order = entries.indices.sorted { entries[$0].id < entries[$1].id }
            return .object(
                TemplateObject(entries: order.map { entries[$0] }, keys: order.map { keys[$0] }, count: added))
        }
        return .object(TemplateObject(entries: entries.sorted { $0.id < $1.id }, keys: [], count: added))
    }
}

extension TemplateNames {
    /// These names, keeping every entry of every object with its name (for a reference
    /// renderer that needs whole records back, `plain(_:)`).
    public var keepingAllEntries: TemplateNames {
        var n = self
        n.keepsAllEntries = true
        return n
    }

    /// `value` as the Swift values swift-mustache renders (`[String: Any]`, `[Any]`, `[String]`
    /// for sortable lists of strings …); objects must have kept their entries' names
    /// (`keepingAllEntries`).
    public func plain(_ value: TemplateValue) -> Any {
        switch value {
        case .string(let s): return s
        case .bool(let b): return b
        case .int(let i): return i
        case .double(let d): return d
        case .null: return NSNull()
        case .lambda(let f): return f
        case .object(let o):
            var d: [String: Any] = [:]
            for (k, e) in zip(o.keys, o.entries) { d[k] = plain(e.value) }
            return d
        case .list(let l):
            if l.sortable {
                let strings = l.items.compactMap {
                    if case .string(let s) = $0 { return s }; return nil
                }
                if strings.count == l.items.count { return strings }
                let ints = l.items.compactMap {
                    if case .int(let i) = $0 { return i }; return nil
                }
                if ints.count == l.items.count { return ints }
            }
            return l.items.map(plain)
        }
    }
}
