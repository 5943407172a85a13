import Foundation
import SiteCore

/// A URL (or header value) with placeholders, as written in site.yml:
/// `{env.NAME}` (an environment variable, always a secret), `{today:FORMAT}` and
/// `{yesterday:FORMAT}` (days in `fetch.timeZone`, in sitegen's date formats) and, in a join's
/// URL, `{field}` (a field of each item). `{{` and `}}` stand for braces.
public struct URLTemplate: Sendable, Hashable, CustomStringConvertible {
    public enum Part: Sendable, Hashable {
        case text(String)
        case env(String)
        /// A day: `offset` 0 for today, -1 for yesterday; `written` is the placeholder as written.
        case day(offset: Int, format: DateFormat, written: String)
        case field(String)
    }

    public let parts: [Part]
    /// The template as written (no secret: secrets come from the environment).
    public let description: String

    /// Parses `text`; the error says which placeholder is wrong.
    public init(_ text: String) throws(FetchProblem) {
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw FetchProblem("contains a control character")
        }
        var names: [String] = []
        let literal = TemplateText.fill(text) {
            names.append($0); return "\u{0}"
        }
        let texts = literal.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
        var parts: [Part] = []
        for (i, name) in names.enumerated() {
            if !texts[i].isEmpty { parts.append(.text(texts[i])) }
            parts.append(try Self.placeholder(name))
        }
        if let last = texts.last, !last.isEmpty { parts.append(.text(last)) }
        self.parts = parts
        self.description = text
    }

    static func placeholder(_ name: String) throws(FetchProblem) -> Part {
        if name.hasPrefix("env.") {
            let variable = String(name.dropFirst(4))
            func letter(_ scalar: Unicode.Scalar) -> Bool {
                scalar == "_" || ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar)
            }
            guard let first = variable.unicodeScalars.first, letter(first),
                variable.unicodeScalars.allSatisfy({ letter($0) || ("0"..."9").contains($0) })
            else {
                throw FetchProblem("'{\(name)}' does not name an environment variable (letters, digits and '_')")
            }
            return .env(variable)
        }
        for (word, offset) in [("today", 0), ("yesterday", -1)] where name == word || name.hasPrefix(word + ":") {
            let pattern = name == word ? "YYYY-MM-DD" : String(name.dropFirst(word.count + 1))
            let format = DateFormat(pattern)
            // A format with no year, month or day would print itself: a misspelt one.
            guard format.format(CalendarDate(year: 2001, month: 2, day: 3)) != pattern else {
                throw FetchProblem("'{\(name)}' has no date in its format (use YYYY, MM, DD, M, D as in 'YYYYMMDD')")
            }
            return .day(offset: offset, format: format, written: "{\(name)}")
        }
        guard !name.isEmpty, !name.contains(":"), !name.contains("{") else {
            let kinds = "{env.NAME}, {today:FORMAT}, {yesterday:FORMAT} or, in a join, {field}"
            throw FetchProblem("'{\(name)}' is not a placeholder (\(kinds))")
        }
        return .field(name)
    }

    /// The item fields the template names.
    public var fields: [String] { parts.compactMap { if case .field(let f) = $0 { f } else { nil } } }

    /// Whether the template starts with `http://` or `https://` as written (a URL whose scheme or
    /// host came from a placeholder could not be shown, checked or redacted reliably).
    public var isHTTP: Bool {
        guard case .text(let t)? = parts.first else { return false }
        let lower = t.lowercased()
        return (lower.hasPrefix("http://") && lower.count > 7) || (lower.hasPrefix("https://") && lower.count > 8)
    }
}

/// A problem with a template, a request or an answer; the caller names the place, unless `at`
/// does (a line of the answer, a header's line in site.yml).
public struct FetchProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var at: SourceLocation?
    public init(_ message: String, at: SourceLocation? = nil) {
        self.message = message
        self.at = at
    }
    public var description: String { message }
}
