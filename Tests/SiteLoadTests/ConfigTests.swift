import Testing
import SiteCore
@testable import SiteLoad

/// The errors `SiteConfig.parse` reports for `yaml`, as printed ("site.yml:3:1: error: …").
func configErrors(_ yaml: String) -> [String] {
    do {
        _ = try SiteConfig.parse(yaml, file: "site.yml")
        return []
    } catch {
        return error.items.map(\.description)
    }
}

@Suite struct ConfigTests {

    @Test func parsesACollection() throws {
        let c = try SiteConfig.parse(
            """
            title: T
            baseURL: https://example.org/apps
            language: ko
            collections:
              box:
                data: [a.json, b.json]
                items: boxOfficeResult.dailyBoxOfficeList
                rename: { movieNm: title }
                fields: { rank: string, audiCnt: "string?" }
                slug: movieCd
                sort: [{ field: rank, compare: number }, { field: openDt, order: descending, compare: date, format: YYYY-MM-DD }]
                pageSize: 10
                derived:
                  audience: { from: audiCnt, format: thousands }
                  opened: { from: openDt, format: date, input: YYYY-MM-DD, output: "YYYY.MM.DD" }
                layout: { kind: grid, columns: { 0: 2, 1024: 4 }, spacing: 10, mediaAspect: "7:10", textHeight: 65 }
            """, file: "site.yml")
        #expect(c.baseURL.root == "/apps/")
        #expect(c.baseURL.origin == "https://example.org")
        let box = try #require(c.collections.first)
        #expect(box.dataFiles == ["a.json", "b.json"])
        #expect(box.itemsPath == [.key("boxOfficeResult"), .key("dailyBoxOfficeList")])
        #expect(box.sort.count == 2 && box.sort[1].direction == .descending)
        #expect(box.fields["audiCnt"]?.required == false)
        #expect(box.derived.map(\.name) == ["audience", "opened"])
        #expect(box.listURL == "/box/" && box.detailURL == "/box/{slug}/")
        guard case .grid(let g) = box.layout else { Issue.record("expected a grid"); return }
        #expect(g.columns(atViewport: 1280) == 4)
    }

    @Test func parsesAMasonry() throws {
        let c = try SiteConfig.parse(
            """
            title: T
            baseURL: https://example.org/
            collections:
              pins:
                data: Photos.plist
                slug: Photo
                layout:
                  kind: masonry
                  policy: shortest
                  columns: { 0: 2, 768: 3 }
                  gap: 10
                  insets: { top: 23, left: 5 }
                  maxWidth: 900
                  text: { size: 12, lineHeight: 16, maxLines: 3 }
            """, file: "site.yml")
        guard case .masonry(let m) = try #require(c.collections.first).layout else {
            Issue.record("expected a masonry"); return
        }
        #expect(m.policy == .shortestColumn)
        #expect(
            m.breakpoints == [ColumnBreakpoint(minWidth: 0, columns: 2), ColumnBreakpoint(minWidth: 768, columns: 3)])
        #expect(m.gap == 10 && m.maxWidth == 900)
        #expect(m.insets == EdgeInsets(top: 23, left: 5, bottom: 0, right: 0))
        #expect(m.text.size == 12 && m.text.lineHeight == 16 && m.text.maxLines == 3 && m.text.titleLineHeight == 17)
    }

    @Test func masonryMistakesAreLocated() {
        func layout(_ body: String) -> [String] {
            configErrors(
                "title: T\nbaseURL: https://x.org/\ncollections:\n  a:\n    data: a.json\n    slug: id\n    layout:\n      kind: masonry\n\(body)"
            )
        }
        #expect(
            layout("      policy: pinterest\n") == [
                "site.yml:9:15: error: 'collections.a.layout.policy' must be round-robin or shortest (found 'pinterest')"
            ])
        #expect(
            layout("      gap: -4\n") == [
                "site.yml:9:12: error: 'collections.a.layout.gap' must be a length in px from 0 to 100000 (found -4)"
            ])
        #expect(
            layout("      columns: { 0: 0 }\n") == [
                "site.yml:9:21: error: 'collections.a.layout.columns' maps a minimum viewport width in px (0 to 100000) to a column count from 1 to 12 (e.g. 0: 2, 1024: 4)"
            ])
        #expect(
            layout("      insets: { middle: 3 }\n").first?.hasPrefix(
                "site.yml:9:17: error: unknown key 'collections.a.layout.insets.middle'") == true)
        #expect(
            layout("      text: { maxLines: 0 }\n") == [
                "site.yml:9:25: error: 'collections.a.layout.text.maxLines' must be from 1 to 50 (found 0)"
            ])
        #expect(
            layout("      spacing: 3\n").first?.hasPrefix(
                "site.yml:9:7: error: unknown key 'collections.a.layout.spacing'") == true)
        let kind = configErrors(
            "title: T\nbaseURL: https://x.org/\ncollections:\n  a:\n    data: a.json\n    slug: id\n    layout: { kind: pinterest }\n"
        )
        #expect(
            kind == [
                "site.yml:7:21: error: 'collections.a.layout.kind' must be grid, masonry or list (found 'pinterest')"
            ])
    }

    /// Every range is checked at both ends: the last value inside is accepted, the first outside
    /// is the same error as the lower bound's.
    @Test func rangesAreCheckedAtBothEnds() {
        func masonry(_ body: String) -> [String] {
            configErrors(
                "title: T\nbaseURL: https://x.org/\ncollections:\n  a:\n    data: a.json\n    slug: id\n    layout:\n      kind: masonry\n\(body)"
            )
        }
        func grid(_ body: String) -> [String] {
            configErrors(
                "title: T\nbaseURL: https://x.org/\ncollections:\n  a:\n    data: a.json\n    slug: id\n    card: { title: id }\n    layout:\n      kind: grid\n\(body)"
            )
        }
        let columns =
            "'collections.a.layout.columns' maps a minimum viewport width in px (0 to 100000) to a column count from 1 to 12 (e.g. 0: 2, 1024: 4)"
        #expect(masonry("      columns: { 0: 12, 100000: 1 }\n") == [])
        #expect(masonry("      columns: { 0: 13 }\n") == ["site.yml:9:21: error: \(columns)"])
        #expect(masonry("      columns: { 100001: 2 }\n") == ["site.yml:9:26: error: \(columns)"])
        #expect(masonry("      columns: { -1: 2 }\n") == ["site.yml:9:22: error: \(columns)"])
        #expect(grid("      columns: { 0: 13 }\n") == ["site.yml:10:21: error: \(columns)"])
        #expect(masonry("      text: { maxLines: 50 }\n") == [])
        #expect(
            masonry("      text: { maxLines: 51 }\n") == [
                "site.yml:9:25: error: 'collections.a.layout.text.maxLines' must be from 1 to 50 (found 51)"
            ])
        #expect(masonry("      gap: 100000\n") == [])
        #expect(
            masonry("      gap: 100000.5\n") == [
                "site.yml:9:12: error: 'collections.a.layout.gap' must be a length in px from 0 to 100000 (found 100000.5)"
            ])
        #expect(masonry("      maxWidth: 100000\n") == [])
        #expect(
            masonry("      maxWidth: 100001\n") == [
                "site.yml:9:17: error: 'collections.a.layout.maxWidth' must be a length in px above 0 and at most 100000 (found 100001)"
            ])
        #expect(
            masonry("      maxWidth: 0\n") == [
                "site.yml:9:17: error: 'collections.a.layout.maxWidth' must be a length in px above 0 and at most 100000 (found 0)"
            ])
        #expect(
            grid("      spacing: 100001\n") == [
                "site.yml:10:16: error: 'collections.a.layout.spacing' must be a length in px from 0 to 100000 (found 100001)"
            ])
        #expect(
            grid("      textHeight: 100001\n") == [
                "site.yml:10:19: error: 'collections.a.layout.textHeight' must be a length in px from 0 to 100000 (found 100001)"
            ])
    }

    /// A card must show something: a grid's text area defaults to what its title (and subtitle)
    /// need, and settings that would leave cards empty are errors where they are written.
    @Test func gridTextHeightDefaultsToTheCardsText() throws {
        func grid(_ card: String) throws -> GridGeometry? {
            let c = try SiteConfig.parse(
                "title: T\nbaseURL: https://x.org/\ncollections:\n  a:\n    data: a.json\n    slug: id\n    card: \(card)\n    layout: { kind: grid }\n",
                file: "site.yml")
            guard case .grid(let g)? = c.collections.first?.layout else { return nil }
            return g
        }
        #expect(try grid("{ title: name, subtitle: bounty }")?.textHeight == 61)
        #expect(try grid("{ title: name }")?.textHeight == 40)
        #expect(try grid("{ subtitle: bounty }")?.textHeight == 61)
    }

    @Test func cardsThatWouldBeEmptyAreErrors() {
        func collection(_ body: String) -> [String] {
            configErrors(
                "title: T\nbaseURL: https://x.org/\ncollections:\n  a:\n    data: a.json\n    slug: id\n\(body)")
        }
        #expect(
            collection("    layout: { kind: grid, textHeight: 0 }\n") == [
                "site.yml:7:39: error: 'collections.a.layout.textHeight' is 0 and the cards have no image, so every card would be empty: leave it out (the default fits the title and subtitle) or give the cards an image"
            ])
        #expect(
            collection("    layout: { kind: masonry, text: false }\n") == [
                "site.yml:7:36: error: 'collections.a.layout.text' is false and the cards have no image, so every card would be empty: leave it out or give the cards an image"
            ])
        #expect(
            collection("    card: { title: name, image: url }\n") == [
                "site.yml:7:33: error: 'collections.a.card.image' is 'url', which is not an image field, so no card would show it: list it in 'collections.a.images', e.g. images: { fields: [url] }"
            ])
        // With an image, both are allowed: the picture is the card.
        #expect(collection("    images: { fields: url }\n    layout: { kind: grid, textHeight: 0 }\n").isEmpty)
        #expect(collection("    images: { fields: url }\n    layout: { kind: masonry, text: false }\n").isEmpty)
        #expect(collection("    images: { fields: [url, avatar] }\n    card: { image: avatar }\n").isEmpty)
    }

    @Test func unknownKeysAreErrorsAtTheirLine() {
        let e = configErrors("title: T\nbaseURL: https://example.org/\ncolections: {}\n")
        #expect(
            e == [
                "site.yml:3:1: error: unknown key 'colections'; did you mean 'collections'? (expected one of: author, baseURL, "
                    + "collections, description, fetch, highlight, language, markdown, notes, pages, title, words)"
            ])
        let nested = configErrors(
            "title: T\nbaseURL: https://example.org/\ncollections:\n  a:\n    data: a.json\n    slug: id\n    sortt: []\n"
        )
        #expect(nested.count == 1 && nested[0].hasPrefix("site.yml:7:5: error: unknown key 'collections.a.sortt'"))
    }

    @Test func requiredKeysAndBadValues() {
        let e = configErrors("title: T\ncollections:\n  a:\n    data: a.json\n")
        #expect(e.contains("site.yml:1:1: error: missing required key 'baseURL'"))
        #expect(e.contains { $0.contains("missing required key 'collections.a.slug'") })
        let url = configErrors("title: T\nbaseURL: example.org\n")
        #expect(
            url == [
                "site.yml:2:10: error: 'baseURL' must be an absolute http(s) URL such as https://example.org/ (found 'example.org')"
            ])
        let sort = configErrors(
            "title: T\nbaseURL: https://x.org/\ncollections:\n  a:\n    data: a.json\n    slug: id\n    sort: { field: n, compare: numeric }\n"
        )
        #expect(
            sort == [
                "site.yml:7:32: error: 'collections.a.sort.compare' must be number, text or date (found 'numeric')"
            ])
    }

    @Test func yamlSyntaxErrorsHaveLineAndColumn() {
        let e = configErrors("title: T\nbaseURL: [unclosed\n")
        #expect(e.count == 1 && e[0].hasPrefix("site.yml:3:1: error: invalid YAML in site configuration"), "\(e)")
    }

    @Test func keyPaths() {
        #expect(KeyPath.parse("a.b[2].c") == [.key("a"), .key("b"), .index(2), .key("c")])
        #expect(KeyPath.parse("") == [])
        #expect(KeyPath.parse("a..b") == nil)
        #expect(KeyPath.parse("a[x]") == nil)
    }

    @Test func contentPathsNeverLeaveContent() {
        #expect(ContentPath.resolve("bounties/images/luffy.jpg") == .success("bounties/images/luffy.jpg"))
        #expect(ContentPath.resolve("a/../b.jpg") == .success("b.jpg"))
        for bad in ["../../etc/passwd", "/etc/passwd", "a/../../x", "%2e%2e/secret", "a\u{0}b", ""] {
            guard case .failure = ContentPath.resolve(bad) else { Issue.record("accepted \(bad)"); continue }
        }
    }
}
