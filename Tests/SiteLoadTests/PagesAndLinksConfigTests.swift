import Testing
import SiteCore
@testable import SiteLoad

/// `pages:`, and the collection keys `related:`, `search:`, `icon:`, `menu:`, `layout.text: false`,
/// with the cross-checks between collections and pages.
@Suite struct PagesAndLinksConfigTests {

    /// Lines 1–6: title, baseURL, and collection `a` (data, slug); the body starts at line 7.
    func collectionA(_ body: String) -> [String] {
        configErrors("title: T\nbaseURL: https://x.org/\ncollections:\n  a:\n    data: a.json\n    slug: id\n\(body)")
    }

    /// Lines 1–3: title, baseURL, `pages:`; the body starts at line 4.
    func pages(_ body: String) -> [String] {
        configErrors("title: T\nbaseURL: https://x.org/\npages:\n\(body)")
    }

    // MARK: - pages

    @Test func parsesPagesWithTheirDefaults() throws {
        let c = try SiteConfig.parse(
            """
            title: T
            baseURL: https://x.org/
            pages:
              search:
                url: /search/
                title: Search
                description: Find things
                section: photos
              about:
                url: /about/us/
                template: page-about
            """, file: "site.yml")
        #expect(
            c.pages == [
                PageConfig(
                    name: "search", url: "/search/", template: "search", title: "Search", description: "Find things",
                    section: "photos"),
                PageConfig(
                    name: "about", url: "/about/us/", template: "page-about", title: "about", description: nil,
                    section: nil)
            ])
        let none = try SiteConfig.parse("title: T\nbaseURL: https://x.org/\n", file: "site.yml")
        #expect(none.pages.isEmpty)
    }

    @Test func pageMistakesAreLocated() {
        #expect(
            pages("  p:\n    url: /p/\n    tmpl: x\n")
                == [
                    "site.yml:6:5: error: unknown key 'pages.p.tmpl' (expected one of: description, section, template, title, url)"
                ])
        #expect(
            pages("  p:\n    url: p/\n") == [
                "site.yml:5:10: error: 'pages.p.url' must start and end with '/' (found 'p/')"
            ])
        #expect(
            pages("  p:\n    url: /p\n") == [
                "site.yml:5:10: error: 'pages.p.url' must start and end with '/' (found '/p')"
            ])
        #expect(
            pages("  p:\n    url: /a/../b/\n") == [
                "site.yml:5:10: error: 'pages.p.url' must not contain '..' or '//' (found '/a/../b/')"
            ])
        #expect(
            pages("  p:\n    url: /p/{slug}/\n") == [
                "site.yml:5:10: error: 'pages.p.url' must not contain {slug} (found '/p/{slug}/')"
            ])
        #expect(pages("  p:\n    title: P\n") == ["site.yml:5:5: error: missing required key 'pages.p.url'"])
        #expect(
            pages("  p: /p/\n") == ["site.yml:4:6: error: 'pages.p' must be a mapping of names to values, found '/p/'"])
        #expect(
            pages("  - /p/\n") == ["site.yml:4:3: error: 'pages' must be a mapping of names to values, found a list"])
        // Each page's problems are reported, not just the first.
        #expect(
            pages("  p:\n    url: p\n  q:\n    url: q\n") == [
                "site.yml:5:10: error: 'pages.p.url' must start and end with '/' (found 'p')",
                "site.yml:7:10: error: 'pages.q.url' must start and end with '/' (found 'q')"
            ])
    }

    // MARK: - related, search, icon, menu, layout text

    @Test func parsesRelatedSearchIconAndMenu() throws {
        let c = try SiteConfig.parse(
            """
            title: T
            baseURL: https://x.org/
            collections:
              users:
                data: users.json
                slug: username
                icon: icons/users.svg
                menu: false
                related:
                  photos: { collection: photos, via: user.username }
                  liked: { collection: photos, via: "likes[0].user", key: id }
              photos:
                data: photos.json
                slug: id
                search: { url: /search/photos.json, fields: [title, tags, user.name] }
                images: { fields: image }
                layout: { kind: masonry, text: false }
              plain:
                data: plain.json
                slug: id
                menu: true
                search: { url: /plain.json, fields: title }
            """, file: "site.yml")
        #expect(c.collections.map(\.name) == ["users", "photos", "plain"])
        let users = c.collections[0], photos = c.collections[1], plain = c.collections[2]
        #expect(
            users.related == [
                RelatedRule(name: "photos", collection: "photos", via: "user.username", key: "slug"),
                RelatedRule(name: "liked", collection: "photos", via: "likes[0].user", key: "id")
            ])
        #expect(users.icon == "icons/users.svg")
        #expect(users.menu == false)
        #expect(users.search == nil)
        #expect(photos.related.isEmpty)
        #expect(photos.icon == nil)
        #expect(photos.menu == true)
        #expect(photos.search == SearchRule(url: "/search/photos.json", fields: ["title", "tags", "user.name"]))
        #expect(plain.menu == true)
        #expect(plain.search == SearchRule(url: "/plain.json", fields: ["title"]))
        guard case .masonry(let m) = photos.layout else { Issue.record("expected a masonry"); return }
        #expect(m.text == CardTextMetrics.none)
        #expect(m.text.padding == 0 && m.text.titleLineHeight == 0 && m.text.lineHeight == 0 && m.text.inset == 0)
        #expect(m.text != CardTextMetrics())
    }

    @Test func relatedMistakes() {
        #expect(
            collectionA("    related:\n      r:\n        collection: a\n        via: a..b\n")
                == ["site.yml:10:14: error: 'collections.a.related.r.via' is not a key path like 'user.username'"])
        #expect(
            collectionA("    related:\n      r:\n        collection: a\n        via: \"x[y]\"\n")
                == ["site.yml:10:14: error: 'collections.a.related.r.via' is not a key path like 'user.username'"])
        #expect(
            collectionA("    related:\n      r:\n        collection: a\n")
                == ["site.yml:9:9: error: missing required key 'collections.a.related.r.via'"])
        #expect(
            collectionA("    related:\n      r:\n        via: tags\n")
                == ["site.yml:9:9: error: missing required key 'collections.a.related.r.collection'"])
        #expect(
            collectionA("    related:\n      r:\n        collection: a\n        via: tags\n        on: id\n")
                == [
                    "site.yml:11:9: error: unknown key 'collections.a.related.r.on' (expected one of: collection, key, via)"
                ])
        #expect(
            collectionA("    related:\n      r:\n        collection: nope\n        via: tags\n")
                == ["site.yml: error: 'collections.a.related.r.collection' names 'nope', which is not a collection"])
        #expect(
            collectionA("    related: [a]\n") == [
                "site.yml:7:14: error: 'collections.a.related' must be a mapping of names to values, found a list"
            ])
        #expect(
            collectionA("    related:\n      r: a\n") == [
                "site.yml:8:10: error: 'collections.a.related.r' must be a mapping of names to values, found 'a'"
            ])
    }

    @Test func relatedMayNameALaterCollectionOrItsOwn() throws {
        let c = try SiteConfig.parse(
            """
            title: T
            baseURL: https://x.org/
            collections:
              a:
                data: a.json
                slug: id
                related:
                  later: { collection: b, via: owner }
                  same: { collection: a, via: parent, key: id }
              b:
                data: b.json
                slug: id
            """, file: "site.yml")
        #expect(c.collections[0].related.map(\.collection) == ["b", "a"])
        #expect(c.collections[0].related.map(\.key) == ["slug", "id"])
    }

    @Test func searchMistakes() {
        #expect(
            collectionA("    search:\n      url: /search/\n      fields: [a]\n")
                == [
                    "site.yml:8:12: error: 'collections.a.search.url' must start with '/' and end with '.json' (found '/search/')"
                ])
        #expect(
            collectionA("    search:\n      url: search.json\n      fields: [a]\n")
                == [
                    "site.yml:8:12: error: 'collections.a.search.url' must start with '/' and end with '.json' (found 'search.json')"
                ])
        #expect(
            collectionA("    search:\n      url: /.json\n      fields: [a]\n")
                == [
                    "site.yml:8:12: error: 'collections.a.search.url' must start with '/' and end with '.json' (found '/.json')"
                ])
        #expect(
            collectionA("    search:\n      url: /a/../s.json\n      fields: [a]\n")
                == [
                    "site.yml:8:12: error: 'collections.a.search.url' must not contain '..', '//' or '{' (found '/a/../s.json')"
                ])
        #expect(
            collectionA("    search:\n      url: /s.json\n      fields: []\n")
                == ["site.yml:8:7: error: 'collections.a.search.fields' must name the fields to search"])
        #expect(
            collectionA("    search:\n      url: /s.json\n")
                == ["site.yml:8:7: error: 'collections.a.search.fields' must name the fields to search"])
        #expect(
            collectionA("    search:\n      fields: [a]\n")
                == ["site.yml:8:7: error: missing required key 'collections.a.search.url'"])
        #expect(
            collectionA("    search:\n      url: /s.json\n      field: [a]\n") == [
                "site.yml:9:7: error: unknown key 'collections.a.search.field'; did you mean 'fields'? (expected one of: fields, url)",
                "site.yml:8:7: error: 'collections.a.search.fields' must name the fields to search"
            ])
        #expect(
            collectionA("    search: /s.json\n") == [
                "site.yml:7:13: error: 'collections.a.search' must be a mapping of names to values, found '/s.json'"
            ])
    }

    /// Counts start at 1: a page of no items or a feed of no entries is a mistake, 1 is not.
    @Test func pageSizeAndFeedLimitStartAtOne() {
        #expect(collectionA("    pageSize: 1\n    feed: { date: d, limit: 1 }\n") == [])
        #expect(collectionA("    pageSize: 1000000\n") == [])
        for bad in ["0", "-3", "1e18", "1000001", "99999999999999999999", "2.5"] {
            #expect(
                collectionA("    pageSize: \(bad)\n") == [
                    "site.yml:7:15: error: 'collections.a.pageSize' must be a whole number from 1 to 1000000 (found '\(bad)')"
                ])
        }
        #expect(
            collectionA("    feed: { date: d, limit: 0 }\n") == [
                "site.yml:7:29: error: 'collections.a.feed.limit' must be at least 1"
            ])
    }

    @Test func iconAndMenuMistakes() {
        #expect(collectionA("    icon: [a.svg]\n") == ["site.yml:7:11: error: 'collections.a.icon' must be text"])
        #expect(
            collectionA("    menu: maybe\n") == ["site.yml:7:11: error: 'collections.a.menu' must be true or false"])
        #expect(
            collectionA("    menus: false\n").first?.hasPrefix("site.yml:7:5: error: unknown key 'collections.a.menus'")
                == true)
    }

    // MARK: - URL collisions

    @Test func aPageOnACollectionsListURLIsReported() {
        #expect(
            configErrors(
                "title: T\nbaseURL: https://x.org/\ncollections:\n  a:\n    data: a.json\n    slug: id\npages:\n  p:\n    url: /a/\n"
            )
                == ["site.yml: error: collection 'a' and page 'p' both use the URL /a/"])
        // The list URL as configured, not the collection's name, is what counts.
        let moved =
            "title: T\nbaseURL: https://x.org/\ncollections:\n  a:\n    data: a.json\n    slug: id\n    list: { url: /things/ }\npages:\n"
        #expect(configErrors(moved + "  p:\n    url: /a/\n").isEmpty)
        #expect(
            configErrors(moved + "  p:\n    url: /things/\n") == [
                "site.yml: error: collection 'a' and page 'p' both use the URL /things/"
            ])
    }

    @Test func twoCollectionsOnOneListURLAreReported() {
        let e = configErrors(
            "title: T\nbaseURL: https://x.org/\ncollections:\n  a:\n    data: a.json\n    slug: id\n  b:\n    data: b.json\n    slug: id\n    list: { url: /a/ }\n"
        )
        #expect(e == ["site.yml: error: collection 'a' and collection 'b' both use the URL /a/"])
    }

    @Test func twoSearchIndexesOnOneURLAreReported() {
        let e = configErrors(
            """
            title: T
            baseURL: https://x.org/
            collections:
              a:
                data: a.json
                slug: id
                search: { url: /search.json, fields: name }
              b:
                data: b.json
                slug: id
                search: { url: /search.json, fields: name }
            """)
        #expect(
            e == [
                "site.yml: error: the search index of collection 'a' and the search index of collection 'b' both use the URL /search.json"
            ])
    }

    @Test func twoPagesOnOneURLAreReported() {
        #expect(
            pages("  p:\n    url: /x/\n  q:\n    url: /x/\n") == [
                "site.yml: error: page 'p' and page 'q' both use the URL /x/"
            ])
        #expect(pages("  p:\n    url: /x/\n  q:\n    url: /x/y/\n").isEmpty)
    }
}
