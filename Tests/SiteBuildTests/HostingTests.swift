import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import Testing
@testable import SiteBuild

/// What a site needs once uploaded: a feed, tag pages, robots.txt, social cards, links that
/// work under a sub-path.
@Suite struct HostingTests {
    static func site(baseURL: String = "https://example.org/", extraFiles: [String: String] = [:]) throws -> Fixture {
        var files = [
            "site.yml": "title: Harbour\nbaseURL: \(baseURL)\nlanguage: en\nauthor: Nami\n",
            "content/notes/a.md":
                "---\ntitle: First & <best>\ndate: 2026-01-02\nsummary: One\ntags: [Swift, sea]\n---\nSee [the second](/notes/b/) and ![a map](/maps/m.svg).\n",
            "content/maps/m.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"12\" height=\"8\"></svg>",
            "content/notes/b.md": "---\ntitle: Second\ndate: 2026-03-04\ntags: [swift]\n---\nBody two.\n",
            "content/notes/undated.md": "---\ntitle: Undated\n---\nNo date, so not in the feed.\n"
        ]
        files.merge(extraFiles) { _, new in new }
        return try Fixture(files: files)
    }

    /// The elements of an XML document by name, in order, with their text (a real parser:
    /// malformed XML fails the test).
    final class Elements: NSObject, XMLParserDelegate {
        var found: [(name: String, attributes: [String: String], text: String)] = []
        var stack: [Int] = []
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            found.append((name, attributes, ""))
            stack.append(found.count - 1)
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let i = stack.last { found[i].text += string }
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
        }

        static func of(_ data: Data) throws -> Elements {
            let e = Elements()
            let parser = XMLParser(data: data)
            parser.delegate = e
            #expect(parser.parse(), "the XML parses: \(String(describing: parser.parserError))")
            return e
        }
        func texts(_ name: String) -> [String] { found.filter { $0.name == name }.map(\.text) }
    }

    @Test func atomFeedOfTheDatedNotesNewestFirst() throws {
        let f = try Self.site()
        defer { f.remove() }
        _ = try f.build().get()
        let feed = try Elements.of(Data(contentsOf: f.output.appendingPathComponent("feed.xml")))
        #expect(feed.found.first?.name == "feed")
        #expect(feed.found.first?.attributes["xmlns"] == "http://www.w3.org/2005/Atom")
        #expect(
            feed.texts("id") == [
                "https://example.org/feed.xml", "https://example.org/notes/b/", "https://example.org/notes/a/"
            ])
        #expect(feed.texts("title") == ["Notes · Harbour", "Second", "First & <best>"])
        // The newest note's day, never the build's time.
        #expect(feed.texts("updated") == ["2026-03-04T00:00:00Z", "2026-03-04T00:00:00Z", "2026-01-02T00:00:00Z"])
        #expect(feed.texts("name") == ["Nami"])
        let links = feed.found.filter { $0.name == "link" }.map {
            "\($0.attributes["rel"] ?? "") \($0.attributes["href"] ?? "")"
        }
        #expect(
            links == [
                "self https://example.org/feed.xml", "alternate https://example.org/notes/",
                "alternate https://example.org/notes/b/",
                "alternate https://example.org/notes/a/"
            ])
        #expect(
            feed.texts("content").last?.contains("<a href=\"/notes/b/\">the second</a>") == true,
            "the note's HTML, as text")
        // Every page names the feed.
        let home = try f.read("public/index.html")
        #expect(
            home.contains(
                #"<link rel="alternate" type="application/atom+xml" title="Notes · Harbour" href="/feed.xml">"#))
    }

    @Test func underASubPathNoteLinksAndTheFeedMoveWithTheSite() throws {
        let f = try Self.site(baseURL: "https://example.org/apps/")
        defer { f.remove() }
        _ = try f.build().get()
        let a = try f.read("public/notes/a/index.html")
        #expect(
            a.contains(#"<a href="/apps/notes/b/">the second</a>"#)
                && a.contains(#"<img src="/apps/maps/m.svg" width="12" height="8" alt="a map" decoding="async">"#))
        let feed = try Elements.of(Data(contentsOf: f.output.appendingPathComponent("feed.xml")))
        #expect(feed.found.first?.attributes["xml:base"] == "https://example.org/apps/")
        #expect(feed.texts("id").first == "https://example.org/apps/feed.xml")
        #expect(
            try f.read("public/robots.txt")
                == "User-agent: *\nAllow: /\n\nSitemap: https://example.org/apps/sitemap.xml\n")
    }

    @Test func aPagePerTagAndAnIndex() throws {
        let f = try Self.site()
        defer { f.remove() }
        _ = try f.build().get()
        // "Swift" and "swift" share one page (same slug), named as first met in the notes' order.
        let index = try f.read("public/tags/index.html")
        #expect(
            index.contains(
                #"<li data-item="sea"><a href="/tags/sea/" rel="tag">#sea</a> <span class="tag-count">1 item</span></li>"#
            ))
        #expect(index.contains(#"<a href="/tags/swift/" rel="tag">#"#) && index.contains("2 items"))
        let swift = try f.read("public/tags/swift/index.html")
        #expect(
            swift.contains(#"<a href="/notes/b/">Second</a>"#)
                && swift.contains(#"<a href="/notes/a/">First &amp; &lt;best&gt;</a>"#))
        let note = try f.read("public/notes/a/index.html")
        #expect(
            note.contains(
                #"<ul class="note-tags"><li><a href="/tags/swift/" rel="tag">#Swift</a></li><li><a href="/tags/sea/" rel="tag">#sea</a></li></ul>"#
            ))
        let sitemap = try f.read("public/sitemap.xml")
        #expect(
            sitemap.contains("<loc>https://example.org/tags/</loc>")
                && sitemap.contains("<loc>https://example.org/tags/sea/</loc>"))
    }

    @Test func socialCardsAndCanonicalLinks() throws {
        let f = try Self.site(extraFiles: [
            "site.yml":
                "title: Harbour\nbaseURL: https://example.org/\nlanguage: en\ndescription: Ships\ncollections:\n  ships:\n    data: ships.json\n    slug: id\n    images: { fields: photo }\n    card: { title: name, image: photo }\n",
            "content/ships.json": #"[{"id": "sunny", "name": "Thousand <Sunny>", "photo": "sunny.svg"}]"#,
            "content/sunny.svg": #"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"/>"#
        ])
        defer { f.remove() }
        _ = try f.build().get()
        let page = try f.read("public/ships/sunny/index.html")
        for tag in [
            #"<link rel="canonical" href="https://example.org/ships/sunny/">"#,
            #"<meta property="og:type" content="article">"#,
            #"<meta property="og:title" content="Thousand &lt;Sunny&gt;">"#,
            #"<meta property="og:url" content="https://example.org/ships/sunny/">"#,
            #"<meta property="og:description" content="Ships">"#,
            #"<meta property="og:image" content="https://example.org/sunny.svg">"#,
            #"<meta name="twitter:card" content="summary_large_image">"#,
            #"<meta name="twitter:title" content="Thousand &lt;Sunny&gt;">"#
        ] {
            #expect(page.contains(tag), "\(tag)")
        }
        #expect(
            try f.read("public/index.html").contains(#"<meta name="twitter:card" content="summary">"#),
            "no image, the small card")
    }

    @Test func aRobotsFileInContentWins() throws {
        let f = try Self.site(extraFiles: ["content/robots.txt": "User-agent: *\nDisallow: /drafts/\n"])
        defer { f.remove() }
        _ = try f.build().get()
        #expect(try f.read("public/robots.txt") == "User-agent: *\nDisallow: /drafts/\n")
    }

    /// Stylesheets and scripts are published under names holding their content's fingerprint;
    /// a name changes when its file changes, and only then.
    @Test func fingerprintsChangeWithTheFileAndOnlyThen() throws {
        let f = try Self.site(extraFiles: [
            "templates/assets/extra.css": "body { color: navy; }\n",
            "templates/assets/app.js": "console.log(1)\n",
            "templates/note.mustache":
                "{{<base}}{{$head}}<link rel=\"stylesheet\" href=\"{{#site.asset}}extra.css{{/site.asset}}\"><script src=\"{{#site.asset}}app.js{{/site.asset}}\"></script>{{/head}}{{$content}}{{{note.html}}}{{/content}}{{/base}}\n"
        ])
        defer { f.remove() }
        func names() throws -> [String] {
            _ = try f.build().get()
            return try FileManager.default.contentsOfDirectory(atPath: f.output.appendingPathComponent("assets").path)
                .sorted()
        }
        let first = try names()
        let extra = try #require(first.first { $0.hasPrefix("extra.") && $0 != "extra.css" })
        #expect(extra.range(of: #"^extra\.[0-9a-f]{16}\.css$"#, options: .regularExpression) != nil, "\(first)")
        let page = try f.read("public/notes/a/index.html")
        #expect(page.contains("href=\"/assets/\(extra)\"") && page.contains(#"<script src="/assets/app."#))
        #expect(page.contains(#"<link rel="stylesheet" href="/assets/sitegen."#), "the theme's stylesheet too")
        #expect(
            try Data(contentsOf: f.output.appendingPathComponent("assets/\(extra)"))
                == Data("body { color: navy; }\n".utf8))

        #expect(try names() == first, "the same files, the same names")
        try f.write("templates/assets/extra.css", "body { color: teal; }\n")
        let second = try names()
        let changed = Set(first).symmetricDifference(second)
        #expect(changed.count == 2 && changed.contains(extra), "only extra.css got a new name: \(changed)")
        #expect(!(try f.read("public/notes/a/index.html")).contains(extra), "pages name the new file")
    }

    /// A collection's feed: its newest items by a date field (a date or YYYY-MM-DD text), at most
    /// `limit`; items without a date are left out, equal days keep the display order, a date-time
    /// text counts by its day; without item pages, entries link to the list.
    @Test func aCollectionFeedNewestFirst() throws {
        let shows =
            #"[{"id": "old", "on": "2020-05-01"}, {"id": "none"}, {"id": "new", "on": "2024-02-29"}, {"id": "mid", "on": "2022-01-10"}, {"id": "bad", "on": "soon"}, {"id": "twin", "on": "2022-01-10"}, {"id": "late", "on": "2019-03-03T10:00:00Z"}]"#
        let f = try Self.site(extraFiles: [
            "site.yml":
                "title: Harbour\nbaseURL: https://example.org/\ncollections:\n  shows:\n    data: shows.json\n    slug: id\n    card: { title: id }\n    feed: { date: on, limit: 2 }\n  plain:\n    data: shows.json\n    slug: id\n    detail: false\n    list: { url: /plain/ }\n    feed: { date: on, url: /plain.xml }\n",
            "content/shows.json": shows
        ])
        defer { f.remove() }
        _ = try f.build().get()
        let feed = try Elements.of(Data(contentsOf: f.output.appendingPathComponent("shows/feed.xml")))
        #expect(
            feed.texts("id") == [
                "https://example.org/shows/feed.xml", "https://example.org/shows/new/", "https://example.org/shows/mid/"
            ])
        #expect(feed.texts("updated") == ["2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z", "2022-01-10T00:00:00Z"])
        #expect(
            try f.read("public/shows/index.html").contains(
                #"<link rel="alternate" type="application/atom+xml" title="shows · Harbour" href="/shows/feed.xml">"#))
        let plain = try Elements.of(Data(contentsOf: f.output.appendingPathComponent("plain.xml")))
        #expect(
            plain.texts("id") == [
                "https://example.org/plain.xml", "https://example.org/plain/#new", "https://example.org/plain/#mid",
                "https://example.org/plain/#twin", "https://example.org/plain/#old", "https://example.org/plain/#late"
            ])
    }
}
