import Testing
@testable import SiteCheck

/// URLs resolve against the page's URL the way a browser does, into the output or out of the check.
@Suite struct ResolverTests {
    static let site = SiteAddress(baseURL: "https://example.org/")!
    static let apps = SiteAddress(baseURL: "https://Example.org/apps")!

    /// `inside` results as `path` (folders end with "/"), `path#fragment`, or the case name.
    func resolve(_ url: String, from file: String = "bounties/luffy/index.html", site: SiteAddress = site) -> String {
        switch LinkResolver(site: site).resolve(url, from: SitePath(file: file, site: site)) {
        case .inside(let path, _, let fragment):
            String(decoding: path, as: UTF8.self) + (fragment.map { "#" + $0 } ?? "")
        case .outsideBasePath: "outside"
        case .external: "external"
        }
    }

    @Test func baseAddress() {
        #expect(
            Self.apps.root == "/apps/" && Self.apps.host == "example.org"
                && Self.apps.description == "https://example.org/apps/")
        #expect(SiteAddress(baseURL: "http://localhost:8080")?.port == 8080)
        #expect(SiteAddress(baseURL: "https://example.org:443/")?.port == nil)
        for bad in [
            "example.org", "/apps/", "ftp://example.org/", "https://", "https://example.org/?q", "https://x:port/"
        ] {
            #expect(SiteAddress(baseURL: bad) == nil, "\(bad)")
        }
    }

    @Test func relativePaths() {
        #expect(resolve("../zoro/") == "bounties/zoro/")
        #expect(resolve("../../") == "")
        #expect(resolve("../../../../notes/") == "notes/", "never above the root")
        #expect(resolve("images/luffy.jpg") == "bounties/luffy/images/luffy.jpg")
        #expect(resolve("./") == "bounties/luffy/")
        #expect(resolve(".") == "bounties/luffy/")
        #expect(resolve("..") == "bounties/")
        #expect(resolve("a/./b/../c") == "bounties/luffy/a/c")
        #expect(resolve("%2e%2E/x") == "bounties/x", "an encoded dot segment is still one")
        #expect(resolve("x.html", from: "404.html") == "x.html")
        #expect(resolve("x.html", from: "docs/page.html") == "docs/x.html")
    }

    @Test func rootRelativeAndTheSameOrigin() {
        #expect(resolve("/assets/sitegen.css") == "assets/sitegen.css")
        #expect(resolve("/") == "")
        #expect(resolve("https://example.org/bounties/") == "bounties/")
        #expect(resolve("HTTPS://EXAMPLE.ORG:443/x") == "x")
        #expect(resolve("http://example.org/x", from: "index.html") == "x", "http and https of the site's host alike")
        #expect(resolve("https://user@example.org./x") == "x")
        #expect(resolve("https://example.org") == "")
        #expect(resolve("//example.org/x/") == "x/")
        #expect(resolve("\\\\example.org\\a\\b") == "a/b")
    }

    @Test func otherOriginsAndSchemesAreNotChecked() {
        for url in [
            "https://example.com/", "https://example.org:8443/x", "//cdn.example/x.js", "https://sub.example.org/",
            "mailto:a@example.org", "tel:+821012345678", "javascript:void(0)", "data:image/png;base64,AAAA",
            "about:invalid#sitegen-unsafe-url", "about:blank", "ftp://example.org/x", "http:no-slashes"
        ] {
            #expect(resolve(url) == "external", "\(url)")
        }
    }

    @Test func queriesFragmentsAndTheSamePage() {
        #expect(resolve("#main") == "bounties/luffy/#main")
        #expect(resolve("?page=2") == "bounties/luffy/")
        #expect(resolve("") == "bounties/luffy/")
        #expect(resolve("/x/?a=1#b?c") == "x/#b?c")
        #expect(resolve("/x/#") == "x/#")
    }

    @Test func encodingAndSpaces() {
        #expect(resolve("/people/%EB%A3%A8%ED%94%BC/") == "people/루피/")
        #expect(resolve("/trends/café-lumière/") == "trends/café-lumière/")
        #expect(resolve("/a%20b/100%/%zz") == "a b/100%/%zz", "a % without two hex digits stays")
        #expect(resolve("  /spaced/\n") == "spaced/")
        #expect(resolve("/bro\nken/\t") == "broken/")
        #expect(resolve("/a//b") == "a//b", "an empty segment is kept: no file has an empty name")
    }

    /// Bytes, not Strings: a decomposed é in the link does not find a precomposed file name.
    @Test func decodedBytesAreCompared() {
        let r = LinkResolver(site: Self.site).resolve(
            "/cafe%CC%81/", from: SitePath(file: "index.html", site: Self.site))
        #expect(r == .inside(path: Array("cafe\u{301}/".utf8), isFolder: true, fragment: nil))
        #expect(r != .inside(path: Array("caf\u{E9}/".utf8), isFolder: true, fragment: nil))
    }

    @Test func underABasePath() {
        #expect(resolve("bounties/", from: "index.html", site: Self.apps) == "bounties/")
        #expect(resolve("/apps/bounties/", site: Self.apps) == "bounties/")
        #expect(resolve("/apps", site: Self.apps) == "", "the server redirects /apps to /apps/")
        #expect(resolve("/apps/", site: Self.apps) == "")
        #expect(resolve("/bounties/", site: Self.apps) == "outside")
        #expect(resolve("/applications/", site: Self.apps) == "outside")
        #expect(resolve("../", from: "index.html", site: Self.apps) == "outside")
        #expect(resolve("../../zoro/", site: Self.apps) == "zoro/")
        #expect(resolve("https://example.org/apps/x/", site: Self.apps) == "x/")
        #expect(resolve("https://example.org/x/", site: Self.apps) == "outside")
        #expect(SitePath(file: "bounties/luffy/index.html", site: Self.apps).text == "/apps/bounties/luffy/")
    }

    /// A nil base stands for a `<base href>` on another site: only absolute URLs come back.
    @Test func externalDocumentBase() {
        let r = LinkResolver(site: Self.site)
        #expect(r.resolve("x/", from: nil) == .external)
        #expect(r.resolve("#a", from: nil) == .external)
        #expect(r.resolve("/x/", from: nil) == .external, "a root-relative path is on the base's host")
        #expect(
            r.resolve("https://example.org/x/", from: nil)
                == .inside(path: Array("x/".utf8), isFolder: true, fragment: nil))
        #expect(
            r.resolve("//example.org/x", from: nil) == .inside(path: Array("x".utf8), isFolder: false, fragment: nil))
    }

    /// The guards of the base URL: IPv6 brackets, default ports per scheme, a fragment, a lone-dot host.
    @Test func baseAddressEdges() {
        #expect(SiteAddress(baseURL: "http://[::1]:8080/")?.host == "[::1]")
        #expect(SiteAddress(baseURL: "http://[::1]:8080/")?.port == 8080)
        #expect(SiteAddress(baseURL: "http://[::1]/")?.host == "[::1]", "the colons inside brackets are no port")
        #expect(SiteAddress(baseURL: "http://example.org:80/")?.port == nil, "80 is http's default")
        #expect(SiteAddress(baseURL: "http://example.org:443/")?.port == 443, "443 is only https's default")
        #expect(SiteAddress(baseURL: "https://example.org:80/")?.port == 80)
        #expect(SiteAddress(baseURL: "https://example.org/#top") == nil)
        #expect(SiteAddress(baseURL: "http://./")?.host == ".", "only a trailing dot after a name is dropped")
    }

    /// `/apps` names the home page as a folder; the page itself (`#x`, "") is the page, not its folder.
    @Test func homeAndSamePageAreExact() {
        let r = LinkResolver(site: Self.apps)
        let home = r.resolve("/apps", from: SitePath(file: "index.html", site: Self.apps))
        #expect(home == .inside(path: [], isFolder: true, fragment: nil))
        #expect(resolve("#a", from: "docs/page.html") == "docs/page.html#a")
        #expect(resolve("", from: "docs/page.html") == "docs/page.html")
    }

    @Test func schemesSpacesAndHexCase() {
        #expect(resolve("9lives:x") == "bounties/luffy/9lives:x", "a scheme starts with a letter")
        #expect(resolve("/x/  ") == "x/", "trailing spaces are dropped")
        #expect(resolve("/caf%c3%a9/") == "café/", "lower-case hex digits")
    }
}
