import Foundation
import PropertyBased
import Testing
@testable import SiteCheck

/// Relative references built from letters, `.`, `..` and empty segments resolve to the path
/// Foundation's RFC 3986 resolution (`URL(string:relativeTo:)`) gives, from pages at any depth.
@Suite struct ResolverPropertyTests {
    static let site = SiteAddress(baseURL: "https://example.org/")!
    static let segment = Gen.element(of: ["a", "b", "c.html", ".", "..", "%2e", "%2E%2e", ""]).map { $0 ?? "a" }
    static let reference = zip(Gen.bool(), segment.array(of: 1...6))
        .map { rooted, parts in (rooted ? "/" : "") + parts.joined(separator: "/") }
        .filter { !$0.hasPrefix("//") }
    static let page = Gen.element(of: ["index.html", "a/index.html", "a/b/index.html", "a/b/c/page.html", "404.html"])
        .map { $0 ?? "index.html" }

    /// The resolver's answer as a path from the origin: `/a/b/` or `/c.html`.
    func resolved(_ url: String, from file: String) -> String? {
        let base = SitePath(file: file, site: Self.site)
        guard case .inside(let path, _, _) = LinkResolver(site: Self.site).resolve(url, from: base) else { return nil }
        return "/" + String(decoding: path, as: UTF8.self)
    }

    /// Foundation's: the page's URL (`a/b/index.html` is served as `/a/b/`) with `url` resolved on it.
    func oracle(_ url: String, from file: String) -> String? {
        let page = SitePath(file: file, site: Self.site).text
        let encoded = url.replacingOccurrences(of: "%2e", with: ".", options: .caseInsensitive)
        if encoded.isEmpty { return page }  // Foundation makes no URL of ""; RFC 3986 gives the base
        guard let base = URL(string: "https://example.org" + page),
            let absolute = URL(string: encoded, relativeTo: base)?.absoluteString
        else { return nil }
        return String(absolute.dropFirst("https://example.org".count))
    }

    @Test func relativeReferencesMatchFoundation() async {
        await propertyCheck(input: Self.reference, Self.page) { url, file in
            #expect(resolved(url, from: file) == oracle(url, from: file), "\(url) from \(file)")
        }
    }
}
