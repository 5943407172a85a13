import SiteCore
internal import Foundation

/// A link or image URL of a note that names a file of the site's `content/` folder: relative to
/// the note's folder, or starting with one `/` (from `content/`).
public struct LocalReference: Sendable, Hashable, Codable {
    /// The URL as written.
    public var written: String
    /// The file's path under `content/` (`notes/other.md`), percent-decoded and with `.` and `..`
    /// resolved; nil when the path leaves `content/`.
    public var path: String?
    /// The `#fragment`, without the `#` (nil without one).
    public var fragment: String?
    /// The 1-based line of the note where it is written, when known.
    public var line: Int?

    /// `url` as a local reference from a note in `folder` (content-relative, "" for `content/`
    /// itself); nil for URLs with a scheme, `//host` URLs, and bare fragments or queries.
    public static func parse(_ url: String, folder: String) -> LocalReference? {
        guard !url.isEmpty, !url.hasPrefix("//"), !url.hasPrefix("#"), !url.hasPrefix("?"),
            HTMLAllowlist.scheme(of: url) == nil
        else { return nil }
        var rest = Substring(url)
        var fragment: String? = nil
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let query = rest.firstIndex(of: "?") { rest = rest[..<query] }
        let decoded = rest.removingPercentEncoding ?? String(rest)
        guard !decoded.isEmpty else { return nil }
        let absolute = decoded.hasPrefix("/")
        var parts: [Substring] = absolute ? [] : folder.split(separator: "/")
        var inside = true
        for part in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if parts.isEmpty { inside = false } else { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return LocalReference(
            written: url, path: inside && !parts.isEmpty ? parts.joined(separator: "/") : nil, fragment: fragment)
    }

    /// Whether it names a Markdown file (a note).
    public var isNote: Bool {
        written.split(separator: "#", maxSplits: 1).first?.split(separator: "?").first.map {
            SourceLayout.isNoteFile($0)
        } ?? false
    }
}

/// An image of a note that names a file under `content/`: the image pipeline makes its files and
/// sitegen its `<picture>` once they are known (in the note's HTML, a `NoteHole` until then).
public struct NoteImage: Sendable, Hashable, Codable {
    public struct Attribute: Sendable, Hashable, Codable {
        public var name: String
        public var value: String
    }

    public var reference: LocalReference
    /// The `<img>`'s other attributes as kept (`alt`, `title`, `width`, `height`, `align` …), in order.
    public var attributes: [Attribute]
}
