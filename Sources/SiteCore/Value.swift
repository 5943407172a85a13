import Foundation

/// A typed value read from a dataset, a note's front matter or the configuration.
///
/// Integers keep 64 bits; dictionaries keep no key order, so anything that turns one into
/// output must order its keys itself (output has to be deterministic).
public enum Value: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case date(Date)
    case array([Value])
    case dictionary([String: Value])

    /// A short name of the value's type, for error messages ("expected a string, found an array").
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "number"
        case .string: "string"
        case .date: "date"
        case .array: "array"
        case .dictionary: "dictionary"
        }
    }

    /// The type with its article, for messages: "an integer", "a string", "null".
    public var typePhrase: String {
        switch self {
        case .null: "null"
        case .int, .array: "an \(typeName)"
        default: "a \(typeName)"
        }
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var arrayValue: [Value]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var dictionaryValue: [String: Value]? {
        if case .dictionary(let d) = self { return d }
        return nil
    }

    /// The member named `key` of a dictionary, or nil.
    public subscript(key: String) -> Value? {
        if case .dictionary(let d) = self { return d[key] }
        return nil
    }
}

/// One step of a path into a nested value: a dictionary key or an array index.
public enum PathComponent: Sendable, Hashable, CustomStringConvertible {
    case key(String)
    case index(Int)

    public var description: String {
        switch self {
        case .key(let k): k
        case .index(let i): "[\(i)]"
        }
    }
}

extension Value {
    /// The value at `path` (dictionary keys and array indices), nil when the path leads nowhere.
    public func value(at path: [PathComponent]) -> Value? {
        var current = self
        for step in path {
            switch (step, current) {
            case (.key(let k), .dictionary(let d)): guard let next = d[k] else { return nil }; current = next
            case (.index(let i), .array(let a)): guard a.indices.contains(i) else { return nil }; current = a[i]
            default: return nil
            }
        }
        return current
    }
}

extension Array where Element == PathComponent {
    /// The path written as in the configuration and in messages: `a.b[3].c`.
    public var dotted: String {
        var out = ""
        for component in self {
            switch component {
            case .key(let k):
                if !out.isEmpty { out += "." }
                out += k
            case .index(let i):
                out += "[\(i)]"
            }
        }
        return out
    }
}

/// Deepest nesting of arrays and dictionaries accepted by every reader (JSON, plists, YAML);
/// deeper input is an error, never a stack overflow.
///
/// The readers keep their open containers on explicit heap-allocated stacks; this limit protects
/// the code that later walks (or merely deallocates) a `Value`, which is recursive.
public let maximumNestingDepth = 512
