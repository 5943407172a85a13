import Foundation
import SiteCore
import SiteFetch
import Yams

/// `fetch:` and the `data:` of collections and joins that name an http(s) URL.
extension SiteConfig {
    /// `fetch:`; every key has a default.
    static func parseFetch(_ top: ConfigNode, problems: inout [Diagnostic]) -> FetchSettings {
        var settings = FetchSettings()
        guard let f = attempt(&problems, { () throws(Diagnostic) in try top.child("fetch") }), let f else {
            return settings
        }
        let start = problems.count
        func number<T: Comparable>(
            _ name: String, _ read: (String) throws(Diagnostic) -> T?, _ range: ClosedRange<T>,
            _ what: String
        ) -> T? {
            guard let v = attempt(&problems, { () throws(Diagnostic) in try read(name) }) ?? nil else { return nil }
            guard range.contains(v) else {
                problems.append(f.error(f.raw(name) ?? f.node, "'fetch.\(name)' must be \(what) (found \(v))"))
                return nil
            }
            return v
        }
        settings.timeout =
            number("timeout", f.double, 0.001...600, "a number of seconds above 0 and at most 600")
            ?? settings.timeout
        settings.retries = number("retries", f.int, 0...10, "from 0 to 10") ?? settings.retries
        settings.maxAge = number("maxAge", f.int, 0...315_360_000, "a number of seconds, 0 or more") ?? settings.maxAge
        settings.maxBytes =
            number("maxBytes", f.int, 1...4_000_000_000, "a number of bytes from 1 to 4000000000")
            ?? settings.maxBytes
        settings.concurrency = number("concurrency", f.int, 1...64, "from 1 to 64") ?? settings.concurrency
        if let text = attempt(&problems, { () throws(Diagnostic) in try f.string("onError") }) ?? nil {
            if let policy = FetchSettings.OnError(rawValue: text) {
                settings.onError = policy
            } else {
                problems.append(
                    f.error(
                        f.raw("onError") ?? f.node,
                        "'fetch.onError' must be fail or stale (found '\(text)')"))
            }
        }
        if let zone = attempt(&problems, { () throws(Diagnostic) in try f.string("timeZone") }) ?? nil {
            if TimeZone(identifier: zone) != nil {
                settings.timeZone = zone
            } else {
                let found = "(found '\(zone)')"
                let what = "'fetch.timeZone' must be a time zone such as UTC or Asia/Seoul"
                problems.append(f.error(f.raw("timeZone") ?? f.node, "\(what) \(found)"))
            }
        }
        f.reportUnknownKeys(into: &problems, at: start)
        return settings
    }

    /// `data:` as files (patterns relative to content/) or one http(s) URL, `{ url, headers }`
    /// for headers. `items: true` when the URL may name item fields (a join's).
    static func parseDataSource(
        _ node: ConfigNode, itemFields: Bool,
        problems: inout [Diagnostic]
    ) -> (files: [String], remote: RemoteSource?)? {
        guard let n = node.raw("data") else { return nil }
        let at = node.error(n, "").location
        switch n {
        case .mapping:
            let read = { () throws(Diagnostic) in try ConfigNode(n, file: node.file, path: node.key("data")) }
            guard let m = attempt(&problems, read) else { return nil }
            let start = problems.count
            let url = attempt(&problems) { () throws(Diagnostic) in try m.requiredString("url") }
            var headers: [RemoteSource.Header] = []
            for (name, value) in attempt(&problems, { () throws(Diagnostic) in try m.entries("headers") }) ?? [] {
                let key = "\(m.key("headers")).\(name)"
                guard case .scalar(let s) = value else {
                    problems.append(m.error(value, "'\(key)' must be text"))
                    continue
                }
                guard !name.isEmpty, name.unicodeScalars.allSatisfy(isTokenCharacter) else {
                    problems.append(m.error(value, "'\(key)' is not a header name (letters, digits and - only)"))
                    continue
                }
                if let t = template(
                    s.string, key: key, node: value, c: m, itemFields: itemFields,
                    problems: &problems)
                {
                    headers.append(RemoteSource.Header(name: name, value: t, at: m.error(value, "").location))
                }
            }
            m.reportUnknownKeys(into: &problems, at: start)
            guard let url,
                let t = urlTemplate(
                    url, node: m.raw("url") ?? n, c: m, key: m.key("url"),
                    itemFields: itemFields, problems: &problems)
            else { return nil }
            return ([], RemoteSource(url: t, headers: headers, at: at))
        case .scalar(let s) where isURL(s.string):
            guard
                let t = urlTemplate(
                    s.string, node: n, c: node, key: node.key("data"), itemFields: itemFields,
                    problems: &problems)
            else { return nil }
            return ([], RemoteSource(url: t, at: at))
        default:
            guard let files = attempt(&problems, { () throws(Diagnostic) in try node.strings("data") }) ?? nil else {
                return nil
            }
            if files.contains(where: isURL) {
                let what = "a URL must be the only data of a collection or join"
                problems.append(node.error(n, "'\(node.key("data"))' lists a URL: \(what)"))
                return nil
            }
            return (files, nil)
        }
    }

    static func isURL(_ text: String) -> Bool {
        text.lowercased().hasPrefix("http://") || text.lowercased().hasPrefix("https://")
    }

    static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || scalar == "-" || scalar == "_"
    }

    static func urlTemplate(
        _ text: String, node: Node, c: ConfigNode, key: String, itemFields: Bool,
        problems: inout [Diagnostic]
    ) -> URLTemplate? {
        guard let t = template(text, key: key, node: node, c: c, itemFields: itemFields, problems: &problems) else {
            return nil
        }
        guard t.isHTTP else {
            let what = "must start with http:// or https:// and a host, written out"
            problems.append(c.error(node, "'\(key)' \(what) (found '\(text)')"))
            return nil
        }
        return t
    }

    static func template(
        _ text: String, key: String, node: Node, c: ConfigNode, itemFields: Bool,
        problems: inout [Diagnostic]
    ) -> URLTemplate? {
        let t: URLTemplate
        do { t = try URLTemplate(text) } catch {
            problems.append(c.error(node, "'\(key)' \(error.message)"))
            return nil
        }
        if !itemFields, let field = t.fields.first {
            let why = "only a join's URL has an item to take it from"
            problems.append(c.error(node, "'\(key)' uses {\(field)}, an item's field: \(why)"))
            return nil
        }
        return t
    }
}
