import Foundation

/// Names and transforms: a name is looked for in the innermost section value that has its first
/// part, then followed part by part; transforms apply innermost first, and one that does not
/// apply to a value leaves nothing (swift-mustache's rules).
extension MustacheRenderer {
    func lookup(_ name: MustacheName, _ position: Position?) -> TemplateValue? {
        var value: TemplateValue
        var rest = name.ids[...]
        switch name.root {
        case .position:
            guard let position, let t = name.transforms.first, var v = Self.apply(t, to: position) else { return nil }
            for t in name.transforms.dropFirst() {
                guard let next = Self.apply(t, to: v, names: library.names) else { return nil }
                v = next
            }
            return v
        case .current:
            guard let top = stack.last else { return nil }
            value = top
        case .stack:
            let first = rest.removeFirst()
            var found: TemplateValue?
            var k = stack.count - 1
            while k >= 0 {
                if case .object(let o) = stack[k], let v = o[first] { found = v; break }
                k -= 1
            }
            guard let found else { return nil }
            value = found
        }
        for id in rest {
            guard case .object(let o) = value, let v = o[id] else { return nil }
            value = v
        }
        if case .null = value { return nil }
        for t in name.transforms {
            guard let next = Self.apply(t, to: value, names: library.names) else { return nil }
            value = next
        }
        return value
    }

    static func apply(_ transform: MustacheTransform, to p: Position) -> TemplateValue? {
        switch transform {
        case .first: .bool(p.first)
        case .last: .bool(p.last)
        case .index: .int(p.index)
        case .even: .bool(p.index & 1 == 0)
        case .odd: .bool(p.index & 1 == 1)
        default: nil
        }
    }

    static func apply(_ transform: MustacheTransform, to value: TemplateValue, names: TemplateNames) -> TemplateValue? {
        switch value {
        case .string(let s):
            switch transform {
            case .empty: return .bool(s.isEmpty)
            case .capitalized: return .string(s.capitalized)
            case .lowercased: return .string(s.lowercased())
            case .uppercased: return .string(s.uppercased())
            case .reversed: return .string(String(s.reversed()))
            default: return nil
            }
        case .list(let l):
            switch transform {
            case .first: return l.items.first
            case .last: return l.items.last
            case .reversed: return .list(TemplateList(l.items.reversed(), sortable: l.sortable))
            case .count: return .int(l.items.count)
            case .empty: return .bool(l.items.isEmpty)
            case .sorted: return l.sortable ? .list(TemplateList(sorted(l.items), sortable: true)) : nil
            default: return nil
            }
        case .object(let o):
            switch transform {
            case .count: return .int(o.count)
            case .empty: return .bool(o.count == 0)
            case .sorted, .enumerated: return .list(TemplateList(o.pairs(names: names)))
            default: return nil
            }
        case .int(let i):
            switch transform {
            case .equalzero: return .bool(i == 0)
            // Past Int's ends the result is the nearest Double, as any other number that large is.
            case .plusone: return i == .max ? .double(Double(i) + 1) : .int(i + 1)
            case .minusone: return i == .min ? .double(Double(i) - 1) : .int(i - 1)
            case .even: return .bool(i & 1 == 0)
            case .odd: return .bool(i & 1 == 1)
            default: return nil
            }
        default:
            return nil
        }
    }

    /// A sortable list's elements in order (all strings, or all integers).
    static func sorted(_ items: [TemplateValue]) -> [TemplateValue] {
        items.sorted { a, b in
            switch (a, b) {
            case (.string(let x), .string(let y)): x < y
            case (.int(let x), .int(let y)): x < y
            default: false
            }
        }
    }
}
