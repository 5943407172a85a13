/// How the values of a sort key compare.
public enum SortComparison: Sendable, Hashable {
    /// Integers, floats, and strings holding numbers (`"10"` after `"9"`).
    case number
    /// Text by the collation of the site's language.
    case text
    /// Dates: `.date` values, or strings in the declared layout.
    case date(DateFormat)
}

public enum SortDirection: String, Sendable, Hashable {
    case ascending, descending
}

/// One key of a sort: a field, a direction and how to compare.
public struct SortKey: Sendable, Hashable {
    public var field: String
    public var direction: SortDirection
    public var comparison: SortComparison

    public init(field: String, direction: SortDirection = .ascending, comparison: SortComparison) {
        self.field = field
        self.direction = direction
        self.comparison = comparison
    }
}

/// A value reduced to what its sort key compares. Missing values sort last in either direction.
public enum SortValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case bytes([UInt8])
    case missing

    /// -1, 0 or 1; both operands come from the same key, so they share a kind (numbers mix).
    static func compare(_ lhs: SortValue, _ rhs: SortValue) -> Int {
        switch (lhs, rhs) {
        case (.integer(let x), .integer(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        case (.real(let x), .real(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        case (.integer(let x), .real(let y)): return -compareReal(y, x)
        case (.real(let x), .integer(let y)): return compareReal(x, y)
        case (.bytes(let x), .bytes(let y)):
            if x == y { return 0 }
            return x.lexicographicallyPrecedes(y) ? -1 : 1
        default: return 0
        }
    }

    // Exact for integers beyond 2^53, which a plain conversion to Double would merge.
    private static func compareReal(_ real: Double, _ integer: Int64) -> Int {
        if real < -9.2233720368547758e18 { return -1 }
        if real >= 9.2233720368547758e18 { return 1 }
        let whole = real.rounded(.down)
        let wi = Int64(whole)
        if wi != integer { return wi < integer ? -1 : 1 }
        return real > whole ? 1 : 0
    }
}

/// A problem with one item's sort value: the item's index in the input and the field.
public struct SortProblem: Error, Sendable, Hashable {
    public var index: Int
    public var field: String
    public var message: String
}

/// Every item whose sort values could not be read.
public struct SortProblems: Error, Sendable, Hashable {
    public var problems: [SortProblem]
}

/// Stable multi-key sorting of items whose fields are `Value`s.
public struct Sorter: Sendable {
    public let keys: [SortKey]
    public let collator: Collator

    public init(keys: [SortKey], collator: Collator) {
        self.keys = keys
        self.collator = collator
    }

    /// The comparable form of `value` under `key`; an error when the value cannot be read that way.
    public func sortValue(_ value: Value?, key: SortKey) -> Result<SortValue, CoreError> {
        guard let value, value != .null else { return .success(.missing) }
        switch (key.comparison, value) {
        case (.number, .int(let i)): return .success(.integer(i))
        case (.number, .double(let d)) where !d.isNaN: return .success(.real(d))
        case (.number, .string(let s)):
            let trimmed = s.trimmingWhitespace()
            if trimmed.isEmpty { return .success(.missing) }
            if let i = Int64(trimmed) { return .success(.integer(i)) }
            if let d = Double(trimmed), d.isFinite { return .success(.real(d)) }
            return .failure(CoreError("expected a number to sort by, found \"\(s)\""))
        case (.text, .string(let s)): return .success(.bytes(collator.sortKey(s)))
        case (.text, .int(let i)): return .success(.bytes(collator.sortKey(String(i))))
        case (.date, .date(let d)): return .success(.integer(CalendarDate(d).ordinal))
        case (.date(let format), .string(let s)):
            if s.isEmpty { return .success(.missing) }
            if let day = format.parse(s) { return .success(.integer(day.ordinal)) }
            return .failure(CoreError("expected a date in the form \(format), found \"\(s)\""))
        case (.date(let format), .int(let i)):
            if let day = format.parse(String(i)) { return .success(.integer(day.ordinal)) }
            return .failure(CoreError("expected a date in the form \(format), found \(i)"))
        default:
            return .failure(CoreError("cannot sort by \(value.typePhrase) as \(key.comparison.name)"))
        }
    }

    /// The order of `count` items (indices into the input), stable; every item's problems are
    /// reported together. `field(i, name)` gives item i's value of a field.
    public func order(count: Int, field: (Int, String) -> Value?) throws(SortProblems) -> [Int] {
        if keys.isEmpty { return Array(0..<count) }
        var table = [[SortValue]](repeating: [], count: count)
        var problems: [SortProblem] = []
        for i in 0..<count {
            var row: [SortValue] = []
            row.reserveCapacity(keys.count)
            for key in keys {
                switch sortValue(field(i, key.field), key: key) {
                case .success(let v): row.append(v)
                case .failure(let e):
                    problems.append(SortProblem(index: i, field: key.field, message: e.message))
                    row.append(.missing)
                }
            }
            table[i] = row
        }
        if !problems.isEmpty { throw SortProblems(problems: problems) }
        let keys = self.keys
        let indices = Array(0..<count).sorted { a, b in
            for (k, key) in keys.enumerated() {
                let x = table[a][k], y = table[b][k]
                switch (x, y) {
                case (.missing, .missing): continue
                case (.missing, _): return false
                case (_, .missing): return true
                default:
                    let c = SortValue.compare(x, y)
                    if c != 0 { return key.direction == .ascending ? c < 0 : c > 0 }
                }
            }
            return a < b  // stability: equal items keep their input order
        }
        return indices
    }
}

extension SortComparison {
    var name: String {
        switch self {
        case .number: "a number"
        case .text: "text"
        case .date(let f): "a date (\(f))"
        }
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    public func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }
}
