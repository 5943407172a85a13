import Foundation
import SiteCore

/// A collection's or a join's `data:` when it is an http(s) URL: the URL and the request's
/// headers as templates, and where site.yml writes them.
public struct RemoteSource: Sendable, Hashable {
    public struct Header: Sendable, Hashable {
        public var name: String
        public var value: URLTemplate
        /// Its value in site.yml (a problem of a variable it names is located there).
        public var at: SourceLocation?
        public init(name: String, value: URLTemplate, at: SourceLocation? = nil) {
            self.name = name
            self.value = value
            self.at = at
        }
    }

    public var url: URLTemplate
    public var headers: [Header]
    /// The `data:` key in site.yml (for problems of the template itself, such as a variable not set).
    public var at: SourceLocation

    public init(url: URLTemplate, headers: [Header] = [], at: SourceLocation) {
        self.url = url
        self.headers = headers
        self.at = at
    }
}

/// What placeholders are filled with: the environment and the day.
public struct FetchContext: Sendable {
    public var environment: [String: String]
    /// Today in `fetch.timeZone`.
    public var today: CalendarDate

    public init(environment: [String: String], today: CalendarDate) {
        self.environment = environment
        self.today = today
    }

    /// "Today" is `SOURCE_DATE_EPOCH` (reproducible builds) when set, else the clock, as a day of `timeZone`.
    public static func current(
        timeZone: TimeZone, environment: [String: String] = ProcessInfo.processInfo.environment,
        clock: Date = Date()
    ) throws(FetchProblem) -> FetchContext {
        var now = clock
        if let epoch = environment["SOURCE_DATE_EPOCH"] {
            guard let seconds = Int64(epoch), seconds >= 0 else {
                throw FetchProblem("SOURCE_DATE_EPOCH must be a whole number of seconds since 1970 (found '\(epoch)')")
            }
            now = Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        let local = now.addingTimeInterval(TimeInterval(timeZone.secondsFromGMT(for: now)))
        let day = CalendarDate(local)
        let today = CalendarDate(year: day.year, month: day.month, day: day.day)
        return FetchContext(environment: environment, today: today)
    }

    func day(offset: Int) -> CalendarDate { today.adding(days: offset) }
}

/// A request with its placeholders filled in, in the forms each use needs.
public struct PreparedRequest: Sendable, Hashable {
    /// The URL sent, secrets included: never shown, logged or stored.
    public var url: String
    /// The URL as messages show it: every `{env.…}` value as `***`.
    public var shown: String
    /// The headers sent (values are secrets).
    public var headers: [[String]]
    /// The URL with its days as written (`{yesterday:YYYYMMDD}`) and secrets as `***`: what
    /// answers of the same source on other days share (`onError: stale` falls back on them).
    public var source: String
    /// The texts that must not appear anywhere: `{env.…}` values and header values.
    public var secrets: [String]

    /// The cache entry's name: of what is shown, never of a secret.
    public var cacheKey: String {
        CacheKey.of("GET \(shown)\n" + headers.map { $0[0].lowercased() }.sorted().joined(separator: "\n"))
    }

    /// `text` with every secret as `***`, in every form it can be printed in (`SecretForms`):
    /// for every message about a request (a body, a Location, a client's error).
    public func redact(_ text: String) -> String {
        var out = text
        for form in forms(shortest: Self.shortestRedacted) {
            out = out.replacingOccurrences(of: form, with: "***")
        }
        return out
    }

    /// The forms of every secret, longest first.
    func forms(shortest: Int) -> [String] {
        let all = Set(secrets.flatMap { SecretForms.of($0, shortest: shortest) })
        return all.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// Shorter values are not searched for in free text (a two-letter value would blank out
    /// every word holding it); in the URL every placeholder's value is replaced whatever its length.
    static let shortestRedacted = 4
}

extension RemoteSource {
    /// The request for `context` and, in a join, the item's `fields`.
    public func prepare(
        _ context: FetchContext,
        fields: [String: Value] = [:]
    ) throws(FetchProblem) -> PreparedRequest {
        var secrets: [String] = []
        let (url, shown, source) = try Self.fill(self.url, context, fields, encode: true, secrets: &secrets)
        var headers: [[String]] = []
        for h in self.headers {
            let value: String
            do throws(FetchProblem) {
                (value, _, _) = try Self.fill(
                    h.value, context, fields, encode: false, secrets: &secrets, variablesAt: h.at)
            } catch {
                throw FetchProblem("header '\(h.name)': \(error.message)", at: error.at)
            }
            headers.append([h.name, value])
            if !value.isEmpty { secrets.append(value) }
        }
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = parsed.host, !host.isEmpty
        else {
            throw FetchProblem("'\(shown)' is not an http(s) URL once its placeholders are filled in")
        }
        return PreparedRequest(url: url, shown: shown, headers: headers, source: source, secrets: secrets)
    }

    /// The template filled in three ways: sent, shown and as the source key. A problem of an
    /// `{env.…}` value is located at `variablesAt` (a header's line; nil: the caller's place).
    static func fill(
        _ template: URLTemplate, _ context: FetchContext, _ fields: [String: Value], encode: Bool,
        secrets: inout [String], variablesAt: SourceLocation? = nil
    ) throws(FetchProblem) -> (String, String, String) {
        var sent = "", shown = "", source = ""
        func escaped(_ text: String) -> String { encode ? percentEncoded(text) : text }
        for part in template.parts {
            switch part {
            case .text(let t):
                sent += t; shown += t; source += t
            case .env(let name):
                guard let value = context.environment[name], !value.isEmpty else {
                    let what = "export the environment variable \(name) before building"
                    throw FetchProblem("{env.\(name)} is not set: \(what)", at: variablesAt)
                }
                if let problem = controlCharacter(in: value) {
                    let why = "which no key or header holds (a .env file with CRLF line endings?)"
                    let message = "{env.\(name)} \(problem), \(why): remove it (the value is not shown)"
                    throw FetchProblem(message, at: variablesAt)
                }
                sent += escaped(value); shown += "***"; source += "***"
                secrets += [value, escaped(value)]
            case .day(let offset, let format, let written):
                let text = escaped(format.format(context.day(offset: offset)))
                sent += text; shown += text; source += written
            case .field(let name):
                guard let v = Derivation.lookup(name, in: fields), v != .null, !TemplateText.plain(v).isEmpty else {
                    throw FetchProblem("the item has no field '\(name)' for {\(name)} of the URL")
                }
                // Percent-encoded in a URL; a header cannot carry a control character.
                if !encode, let problem = controlCharacter(in: TemplateText.plain(v)) {
                    throw FetchProblem("the item's field '\(name)' \(problem), which a header cannot carry")
                }
                let text = escaped(TemplateText.plain(v))
                sent += text; shown += text; source += text
            }
        }
        return (sent, shown, source)
    }

    /// Where `text` holds a control character or DEL, in words without the text ("ends with a
    /// carriage return (U+000D)"); nil when it holds none. HTTP refuses them in a header value,
    /// and a key never holds one: it is a copying mistake (a CRLF line ending).
    static func controlCharacter(in text: String) -> String? {
        let scalars = Array(text.unicodeScalars)
        guard let index = scalars.firstIndex(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        let scalar = scalars[index]
        let names: [UInt32: String] = [
            0x0D: "a carriage return", 0x0A: "a line feed", 0x09: "a tab", 0x00: "a NUL", 0x7F: "a DEL"
        ]
        let what = "\(names[scalar.value] ?? "a control character") (U+\(String(format: "%04X", scalar.value)))"
        if index == scalars.count - 1 { return "ends with \(what)" }
        return index == 0 ? "starts with \(what)" : "holds \(what)"
    }

    /// Everything but RFC 3986's unreserved characters percent-encoded (a value cannot end a
    /// query parameter or start another).
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}

/// Names of cache entries: 128 bits of FNV-1a, as hex.
enum CacheKey {
    static func of(_ text: String) -> String { ContentHash.wide(Data(text.utf8)) }
}
