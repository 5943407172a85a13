internal import Foundation
public import SiteCore
public import Yams

/// Conversion of parsed YAML into `Value`.
public enum YAMLValue {
    /// Converts a parsed Yams node into a typed `Value`.
    ///
    /// Scalars resolve by Yams' YAML 1.1/core rules: integers (64-bit), floats, booleans
    /// (`true`, `yes`, `on`, …), null, timestamps (→ `.date`; a bare date is midnight UTC); anything
    /// else, including quoted scalars and numbers too large for 64 bits, stays a string.
    /// Sequences become arrays; mappings become dictionaries whose keys must be scalars (their
    /// text is the key) and unique. `<<` merge keys are honoured.
    ///
    /// - Parameter file: the file named in diagnostics; errors carry the node's 1-based line and column.
    public static func value(from node: Yams.Node, file: String) throws(Diagnostic) -> Value {
        try Converter(file: file, lineOffset: 0).value(node)
    }
}

/// Converts nodes, shifting Yams' marks (1-based within the YAML text) by `lineOffset` so that
/// they count lines of the file the YAML was cut from.
struct Converter {
    let file: String
    let lineOffset: Int
    /// Values still allowed: aliases let a few lines of YAML stand for billions of values (the
    /// "billion laughs" document), which converting would take forever to expand.
    private let budget = Budget(remaining: Converter.maximumValues)

    static let maximumValues = 100_000
    static let tooManyValues = "aliases (*name) expand this YAML to more than 100,000 values"

    final class Budget {
        var remaining: Int
        init(remaining: Int) { self.remaining = remaining }
    }

    init(file: String, lineOffset: Int) {
        self.file = file
        self.lineOffset = lineOffset
    }

    func diagnostic(at mark: Mark?, _ message: String) -> Diagnostic {
        diagnostic(line: mark?.line, column: mark?.column, message)
    }

    /// `line` and `column` are 1-based within the YAML text.
    func diagnostic(line: Int?, column: Int?, _ message: String) -> Diagnostic {
        Diagnostic(file: file, line: line.map { $0 + lineOffset }, column: column, message)
    }

    /// The message for YAML deeper than every reader's limit (here and from libyaml).
    static let tooDeep = "mappings and sequences are nested more than \(maximumNestingDepth) deep"

    /// `depth` counts the containers `node` is in, itself included.
    func value(_ node: Node, depth: Int = 1) throws(Diagnostic) -> Value {
        if depth > maximumNestingDepth, node.isContainer { throw diagnostic(at: node.mark, Self.tooDeep) }
        budget.remaining -= 1
        if budget.remaining < 0 {
            throw diagnostic(at: node.mark, Self.tooManyValues)
        }
        switch node {
        case .scalar(let scalar):
            return Self.scalarValue(scalar)
        case .sequence(let sequence):
            var items: [Value] = []
            items.reserveCapacity(sequence.count)
            for item in sequence {
                items.append(try value(item, depth: depth + 1))
            }
            return .array(items)
        case .mapping(let mapping):
            return .dictionary(try dictionary(mapping, depth: depth))
        case .alias(let alias):
            // Yams' parser substitutes aliases itself; an alias here came from a hand-built tree.
            throw diagnostic(at: alias.mark, "unresolved alias '*\(alias.anchor.rawValue)'")
        }
    }

    /// A plain scalar's value, typed as `scalarValue` types one that Yams parsed. `tag` is any
    /// implicit tag, shared by the scalars of one document (making one costs a `Constructor`).
    static func plainScalarValue(_ text: String, tag: Tag) -> Value {
        value(of: Node.Scalar(text, tag, .plain), typedAs: ImplicitTypes.tag(of: text))
    }

    /// Mirrors Yams' default `Constructor`: a scalar whose tag's constructor fails is a string.
    private static func scalarValue(_ scalar: Node.Scalar) -> Value {
        // `Tag.rawValue` is the tag as parsed, "" while still implicit; reading it does not run
        // Yams' regular-expression resolver (`Node.tag` would), so implicit scalars are typed by
        // the equivalent hand-written rules instead.
        let written = scalar.tag.rawValue
        return value(
            of: scalar, typedAs: written.isEmpty ? ImplicitTypes.tag(of: scalar.string) : Tag.Name(rawValue: written))
    }

    private static func value(of scalar: Node.Scalar, typedAs tag: Tag.Name) -> Value {
        switch tag {
        case .int:
            // Yams computes base-60 integers (YAML 1.1's 1:20:30) without overflow checks and traps
            // on large ones (found by fuzzing): those are read here.
            if scalar.string.contains(":") {
                if let number = Self.sexagesimal(scalar.string) { return .int(number) }
            } else if let number = Int64.construct(from: scalar) {
                return .int(number)
            }
        case .float:
            if let number = Double.construct(from: scalar) { return .double(number) }
        case .bool:
            switch scalar.string.lowercased() {
            case "true", "yes", "on": return .bool(true)
            case "false", "no", "off": return .bool(false)
            default: break
            }
        case .null:
            if NSNull.construct(from: scalar) != nil { return .null }
        case .timestamp:
            // Yams rolls impossible dates over (2026-02-30 → 2026-03-02); they stay text, which
            // a field expecting a date then reports.
            if let day = Self.plainDay(scalar.string) { return .date(day) }
            if Self.namesRealDay(scalar.string), let date = Date.construct(from: scalar) { return .date(date) }
        default:
            break
        }
        return .string(scalar.string)
    }

    /// A YAML 1.1 base-60 integer (`-1:20:30`, underscores ignored), or nil when it does not fit
    /// in 64 bits.
    static func sexagesimal(_ text: String) -> Int64? {
        var digits = Substring(text.replacingOccurrences(of: "_", with: ""))
        let negative = digits.hasPrefix("-")
        if negative || digits.hasPrefix("+") { digits = digits.dropFirst() }
        var value: Int64 = 0
        for part in digits.split(separator: ":", omittingEmptySubsequences: false) {
            guard let n = Int64(part, radix: 10), n >= 0 else { return nil }
            let (shifted, o1) = value.multipliedReportingOverflow(by: 60)
            let (sum, o2) = shifted.addingReportingOverflow(n)
            if o1 || o2 { return nil }
            value = sum
        }
        return negative ? -value : value
    }

    /// Whether a timestamp's year, month, day and (if written) hour, minute and second exist.
    /// A day written `YYYY-MM-DD` (front matter's `date:`), as Yams reads it (midnight UTC)
    /// without its regular expressions and calendar, which cost more than the rest of the front
    /// matter. Years before 1600 are left to Yams: its calendar is Julian before 1582.
    static func plainDay(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else { return nil }
        var numbers: [Int] = []
        for range in [0..<4, 5..<7, 8..<10] {
            var n = 0
            for i in range {
                guard b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") else { return nil }
                n = n * 10 + Int(b[i] - UInt8(ascii: "0"))
            }
            numbers.append(n)
        }
        guard numbers[0] >= 1600, CalendarDate.isReal(year: numbers[0], month: numbers[1], day: numbers[2])
        else { return nil }
        let day = CalendarDate(year: numbers[0], month: numbers[1], day: numbers[2])
        return Date(timeIntervalSince1970: TimeInterval(day.ordinal))
    }

    static func namesRealDay(_ timestamp: String) -> Bool {
        let numbers = timestamp.split(whereSeparator: { !$0.isASCII || !$0.isNumber }).prefix(6).map { Int($0) ?? -1 }
        guard numbers.count >= 3 else { return false }
        let time = numbers.count >= 6 ? Array(numbers[3..<6]) : [0, 0, 0]
        return CalendarDate.isReal(
            year: numbers[0], month: numbers[1], day: numbers[2], hour: time[0], minute: time[1], second: time[2])
    }

    /// A `<<` key. Front matter is composed with `Resolver.basic`, which types every key as a
    /// string (Yams resolves keys while checking for duplicates), so a plain `<<` counts too.
    private func isMergeKey(_ key: Node.Scalar) -> Bool {
        let written = key.tag.rawValue
        if written == Tag.Name.merge.rawValue { return true }
        return key.string == "<<" && key.style == .plain && (written.isEmpty || written == Tag.Name.str.rawValue)
    }

    func dictionary(_ mapping: Node.Mapping, depth: Int = 1) throws(Diagnostic) -> [String: Value] {
        var result: [String: Value] = [:]
        result.reserveCapacity(mapping.count)
        var merged: [String: Value] = [:]
        for (keyNode, valueNode) in mapping {
            guard case .scalar(let key) = keyNode else {
                throw diagnostic(
                    at: keyNode.mark, "a mapping key must be a single value (a name), not a \(kind(of: keyNode))")
            }
            if isMergeKey(key) {
                try merge(valueNode, into: &merged, depth: depth)
                continue
            }
            let converted = try value(valueNode, depth: depth + 1)
            // Keys such as `1` and `'1'` are distinct to YAML but the same name here.
            if result.updateValue(converted, forKey: key.string) != nil {
                throw diagnostic(at: keyNode.mark, "duplicate key '\(key.string)'")
            }
        }
        if merged.isEmpty { return result }
        return merged.merging(result) { _, explicit in explicit }
    }

    /// YAML 1.1 merge key: entries of the merged mapping(s) apply where the mapping itself has
    /// none; in a list of mappings the earlier one wins.
    private func merge(_ node: Node, into merged: inout [String: Value], depth: Int) throws(Diagnostic) {
        switch node {
        case .mapping(let mapping):
            let entries = try dictionary(mapping, depth: depth)
            merged.merge(entries) { earlier, _ in earlier }
        case .sequence(let sequence):
            for item in sequence {
                guard case .mapping(let mapping) = item else {
                    throw diagnostic(at: item.mark, "a merge key ('<<') takes mappings, not a \(kind(of: item))")
                }
                let entries = try dictionary(mapping, depth: depth)
                merged.merge(entries) { earlier, _ in earlier }
            }
        default:
            throw diagnostic(
                at: node.mark, "a merge key ('<<') takes a mapping or a list of mappings, not a \(kind(of: node))")
        }
    }

    func kind(of node: Node) -> String {
        switch node {
        case .scalar: "scalar"
        case .sequence: "list"
        case .mapping: "mapping"
        case .alias: "alias"
        }
    }
}

extension Node {
    var isContainer: Bool {
        switch self {
        case .sequence, .mapping: true
        case .scalar, .alias: false
        }
    }
}
