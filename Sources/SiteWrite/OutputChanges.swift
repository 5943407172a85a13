import Foundation
import SiteCore

/// What a build changed in its output, for a deploy step or a CDN purge (`sitegen build --changes
/// FILE`): the paths, relative to the output folder, "/"-separated and sorted, of the files it
/// added, changed (other bytes) and removed. A file with the same bytes is in no list.
public struct OutputChanges: Sendable, Equatable, Codable {
    public var added: [String]
    public var changed: [String]
    public var removed: [String]

    public init(added: [String] = [], changed: [String] = [], removed: [String] = []) {
        self.added = added
        self.changed = changed
        self.removed = removed
    }

    /// `{"added": [...], "changed": [...], "removed": [...]}`, a path a line (for `diff` and `grep`
    /// as much as for `jq`), "/" not escaped.
    public var json: Data {
        func array(_ paths: [String]) -> String {
            paths.isEmpty ? "[]" : "[\n" + paths.map { "    " + Self.quoted($0) }.joined(separator: ",\n") + "\n  ]"
        }
        let lists = [("added", added), ("changed", changed), ("removed", removed)]
        return Data(("{\n" + lists.map { "  \"\($0)\": \(array($1))" }.joined(separator: ",\n") + "\n}\n").utf8)
    }

    /// Lists the changes in the file at `path`, replaced in one step; the problem when it cannot.
    public func list(in path: String) -> Diagnostic? {
        do { return try ReplacingFile(json, replacing: path).finish() } catch { return error }
    }

    /// `text` as a JSON string: `"` and `\` escaped, control characters as `\u00XX`.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"", "\\": out += "\\" + String(scalar)
            case "\u{0}"..."\u{1F}": out += String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// A file replaced in one step (the list of changes): the new bytes are written beside it under a
/// temporary name, then renamed over it, so a reader finds the old file or the new one, and until
/// the rename the old one is as it was.
struct ReplacingFile {
    let path: String
    let temporary: String

    init(_ data: Data, replacing path: String) throws(Diagnostic) {
        let url = URL(fileURLWithPath: path)
        let name = ".\(url.lastPathComponent).sitegen-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        self.path = path
        temporary = url.deletingLastPathComponent().appendingPathComponent(name).path
        do { try FileBytes.write(data, to: temporary) } catch {
            unlink(temporary)
            throw Diagnostic(file: path, "cannot write the list of changes: \(error.localizedDescription)")
        }
    }

    /// Puts the new file in place: nil, or the problem (what is at `path` is not this build's).
    func finish() -> Diagnostic? {
        guard rename(temporary, path) != 0 else { return nil }
        let problem = Diagnostic(
            file: path,
            "the site was written, but its list of changes could not be put here "
                + "(\(String(cString: strerror(errno)))): what is here is not this build's list")
        self.abandon()
        return problem
    }

    func abandon() { unlink(temporary) }
}
