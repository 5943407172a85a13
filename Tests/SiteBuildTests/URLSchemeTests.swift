import Foundation
import SiteLoad
import Testing
@testable import SiteBuild

/// Every output path comes from `URLScheme`: the paths under a sub-path base URL, the numbered
/// list pages, percent-encoded slugs, and the output file each page path is written to.
@Suite struct URLSchemeTests {
    static func scheme(_ extra: String = "") throws -> (URLScheme, SiteConfig) {
        let yaml = """
            title: T
            baseURL: https://example.org/apps/
            collections:
              bounties:
                data: bounties.json
                slug: name
                list: { url: /b/ }
                detail:
                  url: "/b/{slug}/"
                search: { url: /search/b.json, fields: [name] }
            \(extra)
            """
        let config = try SiteConfig.parse(yaml, file: "site.yml")
        return (URLScheme(config), config)
    }

    @Test func pagePathsUnderTheBaseURL() throws {
        let (urls, config) = try Self.scheme()
        let c = try #require(config.collections.first)
        #expect(urls.home == "/apps/")
        #expect(urls.notFound == "/apps/404.html")
        #expect(urls.list(c, page: 1) == "/apps/b/")
        #expect(urls.list(c, page: 2) == "/apps/b/page/2/")
        #expect(urls.item(c, slug: "루피") == "/apps/b/%EB%A3%A8%ED%94%BC/")
        #expect(urls.itemAnchor(c, slug: "a b") == "https://example.org/apps/b/#a%20b")
        #expect(urls.notesList(page: 1) == "/apps/notes/")
        #expect(urls.notesList(page: 3) == "/apps/notes/page/3/")
        #expect(urls.note(slug: "hello") == "/apps/notes/hello/")
        #expect(urls.tags == "/apps/tags/")
        #expect(urls.tag(slug: "swift") == "/apps/tags/swift/")
        #expect(urls.notesFeed == "/apps/feed.xml")
        #expect(urls.searchIndex(c) == "/apps/search/b.json")
        #expect(urls.feed(c) == nil)
        #expect(urls.sitemap == "/apps/sitemap.xml")
        #expect(urls.asset("a b.css") == "/apps/assets/a%20b.css")
        #expect(urls.absolute(urls.tags) == "https://example.org/apps/tags/")
    }

    @Test func outputFiles() throws {
        let (urls, _) = try Self.scheme()
        #expect(urls.file(ofPagePath: "/apps/") == "index.html")
        #expect(urls.file(ofPagePath: "/apps/404.html") == "404.html")
        #expect(urls.file(ofPagePath: "/apps/b/page/2/") == "b/page/2/index.html")
        #expect(urls.file(ofPagePath: "/apps/b/%EB%A3%A8%ED%94%BC/") == "b/루피/index.html")
        #expect(URLScheme.file(ofSiteURL: "/search/b.json") == "search/b.json")
        #expect(URLScheme.assetFile("site.css") == "assets/site.css")
    }

    @Test func feedLinksAndContentFiles() throws {
        let (urls, config) = try Self.scheme()
        let c = try #require(config.collections.first)
        #expect(urls.itemLink(c, page: "/apps/b/luffy/", slug: "luffy") == "https://example.org/apps/b/luffy/")
        #expect(urls.itemLink(c, page: nil, slug: "luffy") == "https://example.org/apps/b/#luffy")
        #expect(urls.content("docs/a b.pdf") == "/apps/docs/a%20b.pdf")
    }
}
