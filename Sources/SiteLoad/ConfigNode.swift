import SiteCore
import Yams

/// Strict reading of a YAML mapping from the configuration: every key must be read by the
/// caller, and `unknownKeys()` reports the rest (a misspelt key is an error, not a silent no-op).
struct ConfigNode {
    let node: Node
    let file: String
    let path: String
    private var pairs: [(key: String, keyNode: Node, value: Node)] = []

    /// `expecting` describes the mapping in the message when `node` is not one.
    init(_ node: Node, file: String, path: String, expecting: String = "a mapping of names to values") throws(Diagnostic) {
        self.node = node
        self.file = file
        self.path = path
        guard case .mapping(let mapping) = node else {
            let found: String
            switch node {
            case .scalar(let s): found = "'\(s.string)'"
            case .sequence: found = "a list"
            default: found = "something else"
            }
            throw Self.error(node, file: file, "\(path.isEmpty ? "the configuration" : "'\(path)'") must be \(expecting), found \(found)")
        }
        for (k, v) in mapping {
            guard case .scalar(let s) = k else { throw Self.error(k, file: file, "keys must be plain names") }
            pairs.append((s.string, k, v))
        }
    }

    static func error(_ node: Node, file: String, _ message: String) -> Diagnostic {
        Diagnostic(file: file, line: node.mark?.line, column: node.mark?.column, message)
    }

    func error(_ node: Node, _ message: String) -> Diagnostic { Self.error(node, file: file, message) }

    func key(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    var keys: [String] { pairs.map(\.key) }

    func raw(_ name: String) -> Node? { pairs.first { $0.key == name }?.value }

    /// Errors for keys not in `known`, each at the key's own line.
    func unknownKeys(_ known: Set<String>) -> [Diagnostic] {
        pairs.filter { !known.contains($0.key) }.map { pair in
            let hint = known.sorted().joined(separator: ", ")
            return error(pair.keyNode, "unknown key '\(key(pair.key))' (expected one of: \(hint))")
        }
    }

    func string(_ name: String) throws(Diagnostic) -> String? {
        guard let n = raw(name) else { return nil }
        guard case .scalar(let s) = n, n.tag.rawValue != Tag.Name.null.rawValue else {
            throw error(n, "'\(key(name))' must be text")
        }
        return s.string
    }

    func requiredString(_ name: String) throws(Diagnostic) -> String {
        guard let s = try string(name), !s.isEmpty else { throw error(node, "missing required key '\(key(name))'") }
        return s
    }

    func int(_ name: String) throws(Diagnostic) -> Int? {
        guard let n = raw(name) else { return nil }
        guard case .scalar(let s) = n, let i = Int(s.string) else { throw error(n, "'\(key(name))' must be a whole number") }
        return i
    }

    func double(_ name: String) throws(Diagnostic) -> Double? {
        guard let n = raw(name) else { return nil }
        guard case .scalar(let s) = n, let d = Double(s.string), d.isFinite else { throw error(n, "'\(key(name))' must be a number") }
        return d
    }

    func bool(_ name: String) throws(Diagnostic) -> Bool? {
        guard let n = raw(name) else { return nil }
        guard case .scalar(let s) = n, let b = Bool.construct(from: s) else { throw error(n, "'\(key(name))' must be true or false") }
        return b
    }

    /// Text or a list of texts.
    func strings(_ name: String) throws(Diagnostic) -> [String]? {
        guard let n = raw(name) else { return nil }
        switch n {
        case .scalar(let s): return [s.string]
        case .sequence(let seq):
            var out: [String] = []
            for item in seq {
                guard case .scalar(let s) = item else { throw error(item, "'\(key(name))' must be a list of texts") }
                out.append(s.string)
            }
            return out
        default: throw error(n, "'\(key(name))' must be text or a list of texts")
        }
    }

    func child(_ name: String, expecting: String = "a mapping of names to values") throws(Diagnostic) -> ConfigNode? {
        guard let n = raw(name) else { return nil }
        return try ConfigNode(n, file: file, path: key(name), expecting: expecting)
    }

    /// The (key, node) pairs of a mapping-valued key, in file order.
    func entries(_ name: String, expecting: String = "a mapping of names to values") throws(Diagnostic) -> [(String, Node)] {
        guard let c = try child(name, expecting: expecting) else { return [] }
        return c.pairs.map { ($0.key, $0.value) }
    }
}
