import Foundation
import SiteCore
import SiteFormats

/// A note's front matter read key by key, each value checked for its type and every problem
/// located at its key's line.
struct NoteFrontMatter {
    let file: String
    /// The note's whole text (the key lines are found in its front matter).
    let text: String
    var fields: [String: Value]

    /// A text; numbers and booleans as written. nil when absent or null.
    func string(_ key: String) throws(Diagnostic) -> String? {
        guard let v = fields[key], v != .null else { return nil }
        switch v {
        case .string(let s): return s
        case .int, .double, .bool: return TemplateText.plain(v)
        default: throw problem(key, "front matter '\(key)' must be text, found \(v.typePhrase)")
        }
    }

    /// true or false; nil when absent or null.
    func bool(_ key: String) throws(Diagnostic) -> Bool? {
        switch fields[key] {
        case nil, .some(.null): return nil
        case .some(.bool(let b)): return b
        default: throw problem(key, "front matter '\(key)' must be true or false")
        }
    }

    /// `date` as a calendar date (a YAML date or a text like 2024-01-31); nil when absent or null.
    func date() throws(Diagnostic) -> CalendarDate? {
        guard let v = fields["date"], v != .null else { return nil }
        switch v {
        case .date(let d): return CalendarDate(d)
        case .string(let s):
            guard let date = DateFormat("YYYY-MM-DD").parse(s) else {
                throw problem("date", "front matter 'date' must be a date like 2024-01-31, found \"\(s)\"")
            }
            return date
        default: throw problem("date", "front matter 'date' must be a date like 2024-01-31, found \(v.typePhrase)")
        }
    }

    /// `tags`: one text or a list of texts.
    func tags() throws(Diagnostic) -> [String] {
        switch fields["tags"] {
        case nil, .some(.null): return []
        case .some(.string(let s)): return [s]
        case .some(.array(let a)):
            var tags: [String] = []
            for t in a {
                guard case .string(let s) = t else {
                    throw problem("tags", "front matter 'tags' must be a list of texts")
                }
                tags.append(s)
            }
            return tags
        default: throw problem("tags", "front matter 'tags' must be a list of texts")
        }
    }

    /// `item`: the item the note belongs to, `<collection>/<slug>`, or a bare slug of
    /// `notesCollection`; nil when absent.
    func attachment(notesCollection: String?) throws(Diagnostic) -> Note.Attachment? {
        guard let ref = try string("item") else { return nil }
        let parts = ref.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty {
            return Note.Attachment(collection: parts[0], slug: parts[1], line: line(of: "item"))
        }
        if parts.count == 1, let c = notesCollection, !ref.isEmpty {
            return Note.Attachment(collection: c, slug: ref, line: line(of: "item"))
        }
        throw problem(
            "item",
            notesCollection == nil
                ? "front matter 'item' must be <collection>/<slug> (no notes collection is configured for a bare "
                    + "slug), found '\(ref)'"
                : "front matter 'item' must be <collection>/<slug> or a slug, found '\(ref)'")
    }

    func problem(_ key: String, _ message: String) -> Diagnostic {
        Diagnostic(file: file, line: line(of: key), message)
    }

    func line(of key: String) -> Int? { Self.line(of: key, in: text) }

    /// The 1-based line of a top-level `key:` in the front matter, for messages about its value.
    static func line(of key: String, in text: String) -> Int? {
        // Line by line through the front matter only (not the body): this runs for every note.
        let wanted = Array((key + ":").utf8)
        var n = 0
        var rest = text.utf8[...]
        while !rest.isEmpty {
            n += 1
            let end = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
            let line = rest[..<end]
            if n > 1, line.starts(with: "---".utf8) { return nil }
            if line.starts(with: wanted) { return n }
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
        }
        return nil
    }
}
