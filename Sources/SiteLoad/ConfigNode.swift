import SiteCore
import Yams

/// Strict reading of a YAML mapping from the configuration. Every accessor records the key it
/// asks for, whether the mapping has it or not, and `unknownKeys()` reports the keys nobody asked
/// for, naming the asked ones as the expected keys: the known keys are the keys the reader reads,
/// so no hand-kept list can drift from the code (serde's `deny_unknown_fields`, with the field
/// list taken from the reading). A reader reports once it has asked for every key it knows, on
/// every path, including the paths that fail; a key it reads only on some paths it `declare`s.
/// A class so that the record survives the closures and helpers a reader hands the node to.
final class ConfigNode {
    let node: Node
    let file: String
    let path: String
    private var pairs: [(key: String, keyNode: Node, value: Node)] = []
    /// The keys asked for so far.
    private var asked: Set<String> = []
    /// The first error of a `soft` read.
    private var held: Diagnostic?

    /// `expecting` describes the mapping in the message when `node` is not one.
    init(_ node: Node, file: String, path: String, expecting: String = "a mapping of names to values")
        throws(Diagnostic)
    {
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
            throw Self.error(
                node, file: file,
                "\(path.isEmpty ? "the configuration" : "'\(path)'") must be \(expecting), found \(found)")
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

    /// The value of `name`, recording that the reader knows the key. Every accessor reads through here.
    func raw(_ name: String) -> Node? {
        asked.insert(name)
        return lookup(name)
    }

    private func lookup(_ name: String) -> Node? { pairs.first { $0.key == name }?.value }

    /// Marks keys as known that the reader reads only on some paths, when this path does not read them.
    func declare(_ names: String...) { asked.formUnion(names) }

    /// Errors for the keys not asked for so far, each at the key's own line.
    func unknownKeys() -> [Diagnostic] {
        let hint = asked.sorted().joined(separator: ", ")
        return pairs.filter { !asked.contains($0.key) }.map { pair in
            let guess = Spelling.nearest(to: pair.key, among: asked.sorted()).map { "; did you mean '\($0)'?" } ?? ""
            return error(pair.keyNode, "unknown key '\(key(pair.key))'\(guess) (expected one of: \(hint))")
        }
    }

    /// The value `read` gives, or nil with its error held back until `rejectUnknownKeys()` or
    /// `rethrowHeld()`: a reader that stops at its first problem reads every key this way before
    /// checking them, so that an unknown key (most often a misspelt one) is still the error it
    /// reports first, as when readers checked a list of keys before reading.
    func soft<T>(_ read: () throws(Diagnostic) -> T?) -> T? {
        do { return try read() } catch {
            if held == nil { held = error }
            return nil
        }
    }

    /// Throws the first of `unknownKeys()`, else the first error `soft` held back.
    func rejectUnknownKeys() throws(Diagnostic) {
        if let first = unknownKeys().first { throw first }
        try rethrowHeld()
    }

    /// Throws the first error `soft` held back, if any.
    func rethrowHeld() throws(Diagnostic) {
        if let held { throw held }
    }

    /// Puts `unknownKeys()` at `start` of `problems`: before the problems the reader found in
    /// this mapping's values, where a reader that checked its keys first would report them.
    func reportUnknownKeys(into problems: inout [Diagnostic], at start: Int) {
        problems.insert(contentsOf: unknownKeys(), at: start)
    }

    func string(_ name: String) throws(Diagnostic) -> String? {
        guard let n = raw(name) else { return nil }
        guard case .scalar(let s) = n, n.tag.rawValue != Tag.Name.null.rawValue else {
            throw error(n, "'\(key(name))' must be text")
        }
        return s.string
    }

    func requiredString(_ name: String) throws(Diagnostic) -> String {
        try required(try string(name), name)
    }

    /// `value` of key `name`, which must be there and not empty (read first, required after the key check).
    func required(_ value: String?, _ name: String) throws(Diagnostic) -> String {
        guard let value, !value.isEmpty else { throw error(node, "missing required key '\(key(name))'") }
        return value
    }

    func int(_ name: String) throws(Diagnostic) -> Int? {
        guard let n = raw(name) else { return nil }
        guard case .scalar(let s) = n, let i = Int(s.string) else {
            throw error(n, "'\(key(name))' must be a whole number")
        }
        return i
    }

    /// A whole number in `range`; anything else (`1e18`, `0`, `many`) is an error that states it.
    func int(_ name: String, in range: ClosedRange<Int>) throws(Diagnostic) -> Int? {
        guard let n = raw(name) else { return nil }
        guard case .scalar(let s) = n, let i = Int(s.string), range.contains(i) else {
            let found = if case .scalar(let s) = n { " (found '\(Diagnostic.excerpt(s.string))')" } else { "" }
            throw error(
                n, "'\(key(name))' must be a whole number from \(range.lowerBound) to \(range.upperBound)\(found)")
        }
        return i
    }

    func double(_ name: String) throws(Diagnostic) -> Double? {
        guard let n = raw(name) else { return nil }
        guard case .scalar(let s) = n, let d = Double(s.string), d.isFinite else {
            throw error(n, "'\(key(name))' must be a number")
        }
        return d
    }

    func bool(_ name: String) throws(Diagnostic) -> Bool? {
        guard let n = raw(name) else { return nil }
        guard case .scalar(let s) = n, let b = Bool.construct(from: s) else {
            throw error(n, "'\(key(name))' must be true or false")
        }
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
    func entries(_ name: String, expecting: String = "a mapping of names to values") throws(Diagnostic) -> [(
        String, Node
    )] {
        try keyedEntries(name, expecting: expecting).map { ($0.0, $0.2) }
    }

    /// As `entries`, with each key's node (where a problem with the name itself is reported).
    func keyedEntries(_ name: String, expecting: String = "a mapping of names to values") throws(Diagnostic) -> [(
        String, Node, Node
    )] {
        guard let c = try child(name, expecting: expecting) else { return [] }
        return c.pairs.map { ($0.key, $0.keyNode, $0.value) }
    }
}
