import Foundation
import SiteCore
import Testing
@testable import SiteBuild

/// Pages of their own (`pages:`), related lists (`related:`), search indexes (`search:`),
/// `menu: false` and `icon:`, built end to end.
@Suite struct PagesRelatedSearchTests {
    static func svg(_ width: Int, _ height: Int) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\"><rect width=\"1\" height=\"1\"/></svg>\n"
    }

    /// Photos in data order p10, p3, p1, p2; by rank (numeric) they show as p1, p2, p3, p10.
    /// p3's caption carries HTML; p2 has no image and no note.
    static let photos = #"""
        [
          {"id": "p10", "rank": 10, "caption": "Tenth", "note": "n10", "image": "img/d.svg", "tags": ["sea"], "user": {"username": "bob", "name": "Bob"}},
          {"id": "p3", "rank": 3, "caption": "Third <b>&\"'", "note": "n3 <i>", "image": "img/c.svg", "tags": ["sea", "sky"], "user": {"username": "ann", "name": "Ann Émile"}},
          {"id": "p1", "rank": 1, "caption": "First", "note": "n1", "image": "img/a.svg", "tags": ["sky"], "user": {"username": "bob", "name": "Bob"}},
          {"id": "p2", "rank": 2, "caption": "Second  Ｓｈｏｔ", "tags": [], "user": {"username": "ann", "name": "Ann Émile"}}
        ]
        """#

    static let siteYML = """
        title: T
        baseURL: https://example.org/
        collections:
          photos:
            icon: icons/photos.svg
            data: photos.json
            slug: id
            sort: [{ field: rank, compare: number }]
            images: { fields: image }
            card: { title: caption, subtitle: note, image: image }
            search: { url: /search/photos.json, fields: [caption, tags, user.name] }
          tags:
            data: tags.json
            slug: id
            sort: [{ field: id }]
            related:
              tagged: { collection: photos, via: tags }
            detail: { template: tag }
          users:
            menu: false
            data: users.json
            slug: username
            related:
              shots: { collection: photos, via: user.username }
            detail: { template: user }
        pages:
          discover:
            url: /discover/
            title: Discover
            description: Everything at once
          about:
            url: /about/us/
            template: about-page
            title: About
            section: tags
        """

    static func site(yml: String = siteYML, templates: [String: String] = [:]) throws -> Fixture {
        var files: [String: String] = [
            "site.yml": yml,
            "content/photos.json": photos,
            "content/tags.json": #"[{"id": "sky"}, {"id": "land"}, {"id": "sea"}]"#,
            "content/users.json": #"[{"username": "cat"}, {"username": "bob"}, {"username": "ann"}]"#,
            "content/img/a.svg": svg(40, 30),
            "content/img/c.svg": svg(30, 60),
            "content/img/d.svg": svg(100, 50),
            "content/icons/photos.svg": svg(64, 48),
            "templates/discover.mustache":
                "<title>{{page.title}}</title><meta content=\"{{page.description}}\">"
                + "{{#data.photos}}<h1>{{title}} {{count}}</h1><ol>{{#items}}<li>{{slug}}={{card.title}}</li>{{/items}}</ol>{{/data.photos}}"
                + "{{#data.tags}}<ul>{{#items}}({{slug}}){{/items}}</ul>{{/data.tags}}"
                + "{{#data.users}}<p>{{#items}}[{{slug}}]{{/items}}</p>{{/data.users}}\n",
            "templates/about-page.mustache": "{{<base}}{{$content}}<p id=\"about\">About us</p>{{/content}}{{/base}}\n",
            "templates/tag.mustache":
                "<ol id=\"related\">{{#item.related.tagged}}<li><a href=\"{{url}}\">{{slug}}</a></li>{{/item.related.tagged}}</ol>{{^item.related.tagged}}<p id=\"none\">none</p>{{/item.related.tagged}}\n",
            "templates/user.mustache":
                "<ol id=\"related\">{{#item.related.shots}}<li>{{slug}}:{{user.name}}</li>{{/item.related.shots}}</ol>{{^item.related.shots}}<p id=\"none\">none</p>{{/item.related.shots}}\n"
        ]
        for (k, v) in templates { files[k] = v }
        return try Fixture(files: files)
    }

    func exists(_ site: Fixture, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: site.output.appendingPathComponent(path).path)
    }

    // MARK: - (a) pages

    @Test func aPageRendersItsTemplateWithEveryCollectionInSortOrder() throws {
        let site = try Self.site()
        defer { site.remove() }
        _ = try site.build().get()
        let html = try site.read("public/discover/index.html")
        #expect(html.contains("<title>Discover</title><meta content=\"Everything at once\">"))
        #expect(html.contains("<h1>photos 4</h1>"))
        #expect(
            html.contains(
                "<ol><li>p1=First</li><li>p2=Second  Ｓｈｏｔ</li><li>p3=Third &lt;b&gt;&amp;&quot;&#39;</li><li>p10=Tenth</li></ol>"
            ))
        #expect(html.contains("<ul>(land)(sea)(sky)</ul>"))
        // A collection left out of the menu is still reachable from a page; no sort: data order.
        #expect(html.contains("<p>[cat][bob][ann]</p>"))

        // `template:` picks another template; `section:` marks the section in the navigation.
        let about = try site.read("public/about/us/index.html")
        #expect(about.contains("<p id=\"about\">About us</p>"))
        #expect(about.contains("<li><a href=\"/tags/\" aria-current=\"page\">tags</a></li>"))
        #expect(about.contains("<li><a href=\"/photos/\">photos</a></li>"))
        #expect(!exists(site, "about/index.html"))

        let locs = try site.read("public/sitemap.xml").matches(of: /<loc>([^<]+)<\/loc>/).map { String($0.1) }
        #expect(locs.contains("https://example.org/discover/"))
        #expect(locs.contains("https://example.org/about/us/"))
        #expect(Set(locs).count == locs.count)
    }

    /// A page of its own shows only the collections its template names through
    /// `data.<name>` (what it reads, so what it depends on), yet prints what it printed with
    /// all of them: `data` as a whole (`{{#data}}`, `count(data)`).
    @Test func aPageShowsWhatItsTemplateCanReachOfData() throws {
        let site = try Self.site(templates: [
            "templates/discover.mustache":
                "<p id=\"n\">{{count(data)}}</p>{{#data.users}}<i>{{count}}</i>{{/data.users}}\n",
            "templates/about-page.mustache": "{{#data}}{{#tags}}<b>{{title}}</b>{{/tags}}{{/data}}\n"
        ])
        defer { site.remove() }
        _ = try site.build().get()
        let discover = try site.read("public/discover/index.html")
        #expect(discover == "<p id=\"n\">3</p><i>3</i>\n", "\(discover)")
        #expect(try site.read("public/about/us/index.html") == "<b>tags</b>\n")
    }

    @Test func pageURLsFollowTheBaseURLPath() throws {
        let site = try Self.site()
        defer { site.remove() }
        _ = try site.build(baseURL: "https://example.com/apps/").get()
        // The output folder is the site's root: the page is written at discover/, linked under /apps/.
        #expect(exists(site, "discover/index.html"))
        let locs = try site.read("public/sitemap.xml").matches(of: /<loc>([^<]+)<\/loc>/).map { String($0.1) }
        #expect(locs.contains("https://example.com/apps/discover/"))
        #expect(
            try site.read("public/about/us/index.html").contains(
                "<link rel=\"canonical\" href=\"https://example.com/apps/about/us/\">"))
    }

    // MARK: - (b) related

    @Test func relatedViaAListFieldInTheOtherCollectionsOrder() throws {
        let site = try Self.site()
        defer { site.remove() }
        _ = try site.build().get()
        // sky: p3 and p1 in the data, p1 first by rank; sea: p10 then p3 in the data, p3 first.
        let sky = try site.read("public/tags/sky/index.html")
        #expect(
            sky.contains(
                "<ol id=\"related\"><li><a href=\"/photos/p1/\">p1</a></li><li><a href=\"/photos/p3/\">p3</a></li></ol>"
            ))
        #expect(!sky.contains("id=\"none\""))
        let sea = try site.read("public/tags/sea/index.html")
        #expect(
            sea.contains(
                "<ol id=\"related\"><li><a href=\"/photos/p3/\">p3</a></li><li><a href=\"/photos/p10/\">p10</a></li></ol>"
            ))
        // No photo has the tag: an empty list.
        let land = try site.read("public/tags/land/index.html")
        #expect(land.contains("<ol id=\"related\"></ol><p id=\"none\">none</p>"))
    }

    @Test func relatedViaADottedPathIntoANestedDictionary() throws {
        let site = try Self.site()
        defer { site.remove() }
        _ = try site.build().get()
        // ann: p3 and p2 in the data → p2, p3; bob: p10 and p1 → p1, p10; cat: nothing.
        #expect(
            try site.read("public/users/ann/index.html").contains(
                "<ol id=\"related\"><li>p2:Ann Émile</li><li>p3:Ann Émile</li></ol>"))
        #expect(
            try site.read("public/users/bob/index.html").contains(
                "<ol id=\"related\"><li>p1:Bob</li><li>p10:Bob</li></ol>"))
        #expect(
            try site.read("public/users/cat/index.html").contains("<ol id=\"related\"></ol><p id=\"none\">none</p>"))
    }

    /// Photos x, y, z (by rank: y, x, z) and labels one ("a") and two ("b"), related by `rules`.
    static func labelSite(_ rules: String, template: String) throws -> Fixture {
        try Fixture(files: [
            "site.yml": """
            title: T
            baseURL: https://example.org/
            collections:
              photos:
                data: photos.json
                slug: id
                sort: [{ field: rank, compare: number }]
              labels:
                data: labels.json
                slug: id
                related:
            \(rules)
                detail: { template: label }
            """,
            "content/photos.json":
                #"[{"id": "x", "rank": 2, "tags": ["b", "a"]}, {"id": "y", "rank": 1, "tags": ["a"]}, {"id": "z", "rank": 3, "tags": []}]"#,
            "content/labels.json":
                #"[{"id": "one", "name": "a"}, {"id": "two", "name": "b"}, {"id": "three", "name": "c"}]"#,
            "templates/label.mustache": template
        ])
    }

    /// A page showing another collection's items in a related list is rendered again when one
    /// of those items changes, though the list (which items, in which order) stays the same:
    /// the page read that collection too.
    @Test func aRelatedItemsEditReachesThePagesShowingIt() throws {
        let site = try Self.labelSite(
            "      byName: { collection: photos, via: tags, key: name }",
            template: "by name:{{#item.related.byName}}[{{slug}} {{caption}}]{{/item.related.byName}}.\n")
        defer { site.remove() }
        let photos =
            #"[{"id": "x", "rank": 2, "tags": ["b", "a"], "caption": "sand"}, {"id": "y", "rank": 1, "tags": ["a"]}]"#
        try site.write("content/photos.json", photos)
        var session = try SiteSession(BuildOptions(source: site.root, output: site.root.appendingPathComponent("live")))
        try site.write("content/photos.json", photos.replacingOccurrences(of: "sand", with: "sea"))
        _ = try session.update(["content/photos.json"])
        let page = try String(
            contentsOf: site.root.appendingPathComponent("live/labels/two/index.html"), encoding: .utf8)
        #expect(page == "by name:[x sea].\n")
    }

    @Test func relatedWithAnExplicitKey() throws {
        // `key:` names this item's field (not its slug).
        let site = try Self.labelSite(
            "      byName: { collection: photos, via: tags, key: name }",
            template: "by name:{{#item.related.byName}}[{{slug}}]{{/item.related.byName}}.\n")
        defer { site.remove() }
        _ = try site.build().get()
        // "a" is in the tags of x and y (y first by rank); "b" in x's; "c" in none.
        #expect(try site.read("public/labels/one/index.html") == "by name:[y][x].\n")
        #expect(try site.read("public/labels/two/index.html") == "by name:[x].\n")
        #expect(try site.read("public/labels/three/index.html") == "by name:.\n")
    }

    @Test func relatedViaAnIndexedKeyPath() throws {
        // `via` is checked as a key path, and key paths may index into lists: `tags[0]` is the first tag.
        let site = try Self.labelSite(
            "      firstTag: { collection: photos, via: \"tags[0]\", key: name }",
            template: "first:{{#item.related.firstTag}}[{{slug}}]{{/item.related.firstTag}}.\n")
        defer { site.remove() }
        _ = try site.build().get()
        // y's first tag is "a", x's is "b".
        #expect(try site.read("public/labels/one/index.html") == "first:[y].\n")
        #expect(try site.read("public/labels/two/index.html") == "first:[x].\n")
        #expect(try site.read("public/labels/three/index.html") == "first:.\n")
    }

    // MARK: - (c, d) search index

    static func index(_ site: Fixture, _ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: site.root.appendingPathComponent(path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func searchIndexHasOneRecordPerItemInDisplayOrder() throws {
        let site = try Self.site()
        defer { site.remove() }
        _ = try site.build().get()
        let file = try Self.index(site, "public/search/photos.json")
        #expect(Set(file.keys) == ["collection", "fields", "items"])
        #expect(file["collection"] as? String == "photos")
        #expect(file["fields"] as? [String] == ["caption", "tags", "user.name"])
        let items = try #require(file["items"] as? [[String: Any]])
        #expect(items.count == 4)
        #expect(items.map { $0["url"] as? String } == ["/photos/p1/", "/photos/p2/", "/photos/p3/", "/photos/p10/"])
        #expect(items.map { $0["title"] as? String } == ["First", "Second  Ｓｈｏｔ", "Third <b>&\"'", "Tenth"])
        #expect(items.map { $0["subtitle"] as? String } == ["n1", nil, "n3 <i>", "n10"])
        // The searched fields, list fields element by element, folded (accents, width, case, spaces).
        #expect(
            items.map { $0["text"] as? String } == [
                "first sky bob",
                "second shot ann emile",
                "third <b>&\"' sea sky ann emile",
                "tenth sea bob"
            ])
        // Images with their pixel sizes; none for the item without one.
        func image(_ k: Int) -> [String: Any]? { items[k]["image"] as? [String: Any] }
        #expect(image(0)?["src"] as? String == "/img/a.svg")
        #expect(image(0)?["width"] as? Int == 40)
        #expect(image(0)?["height"] as? Int == 30)
        #expect(items[1]["image"] == nil)
        #expect(image(2)?["src"] as? String == "/img/c.svg")
        #expect(image(2)?["width"] as? Int == 30)
        #expect(image(2)?["height"] as? Int == 60)
        #expect(image(3)?["src"] as? String == "/img/d.svg")
        #expect(image(3)?["width"] as? Int == 100)
        #expect(image(3)?["height"] as? Int == 50)
        #expect(image(3).map { Set($0.keys) } == ["src", "width", "height"])
        #expect(Set(items[0].keys) == ["url", "title", "subtitle", "image", "text"])
        #expect(Set(items[1].keys) == ["url", "title", "text"])
        // Only the collection with `search:` gets an index, and the list page links to it.
        #expect(!exists(site, "search/tags.json"))
        #expect(!exists(site, "tags/search.json"))
    }

    @Test func searchIndexUnderABaseURLPathAndWithoutItemPages() throws {
        let yml = """
            title: T
            baseURL: https://example.org/
            collections:
              photos:
                data: photos.json
                slug: id
                sort: [{ field: rank, compare: number, order: descending }]
                images: { fields: image }
                card: { title: caption, image: image }
                search: { url: /photos.json, fields: user }
                detail: false
            """
        let site = try Self.site(yml: yml)
        defer { site.remove() }
        _ = try site.build(baseURL: "https://example.com/apps/").get()
        let items = try #require(try Self.index(site, "public/photos.json")["items"] as? [[String: Any]])
        // Descending rank: p10, p3, p2, p1. No item pages: no url.
        #expect(items.map { $0["title"] as? String } == ["Tenth", "Third <b>&\"'", "Second  Ｓｈｏｔ", "First"])
        #expect(items.allSatisfy { $0["url"] == nil })
        #expect(items.allSatisfy { $0["subtitle"] == nil })
        // Image paths carry the base URL's path.
        #expect((items[0]["image"] as? [String: Any])?["src"] as? String == "/apps/img/d.svg")
        // A dictionary field is searched by its values, in key order (name, username).
        #expect(items.map { $0["text"] as? String } == ["bob bob", "ann emile ann", "ann emile ann", "bob bob"])
    }

    @Test func htmlInDataIsEscapedInPagesAndVerbatimInTheIndex() throws {
        let site = try Self.site()
        defer { site.remove() }
        _ = try site.build().get()
        for page in ["public/photos/index.html", "public/photos/p3/index.html", "public/discover/index.html"] {
            let html = try site.read(page)
            #expect(html.contains("Third &lt;b&gt;&amp;&quot;&#39;"), "\(page)")
            #expect(!html.contains("Third <b>"), "\(page)")
        }
        #expect(try site.read("public/photos/index.html").contains("<span class=\"card-meta\">n3 &lt;i&gt;</span>"))
        let raw = try site.read("public/search/photos.json")
        #expect(!raw.contains("&lt;"))
        #expect(!raw.contains("&amp;"))
        #expect(!raw.contains("&#39;"))
        let items = try #require(try Self.index(site, "public/search/photos.json")["items"] as? [[String: Any]])
        #expect(items[2]["title"] as? String == "Third <b>&\"'")
        #expect(items[2]["subtitle"] as? String == "n3 <i>")
    }

    // MARK: - (e) menu and icon

    @Test func menuFalseLeavesACollectionOutOfHomeAndNavigationOnly() throws {
        let site = try Self.site()
        defer { site.remove() }
        _ = try site.build().get()
        let home = try site.read("public/index.html")
        let tiles = home.matches(of: /<li class="app" data-item="([^"]+)"/).map { String($0.1) }
        #expect(tiles == ["photos", "tags"])
        for page in [
            "public/index.html", "public/photos/index.html", "public/users/index.html", "public/photos/p1/index.html"
        ] {
            let html = try site.read(page)
            let nav = try #require(html.firstMatch(of: /<nav class="site-nav"[^>]*>(.*?)<\/nav>/)).1
            let links = nav.matches(of: /href="([^"]+)"/).map { String($0.1) }
            #expect(links == ["/photos/", "/tags/"], "\(page)")
        }
        // Its pages are still written and in the sitemap.
        #expect(exists(site, "users/index.html"))
        for user in ["ann", "bob", "cat"] { #expect(exists(site, "users/\(user)/index.html")) }
        let locs = try site.read("public/sitemap.xml").matches(of: /<loc>([^<]+)<\/loc>/).map { String($0.1) }
        #expect(locs.contains("https://example.org/users/"))
        #expect(locs.contains("https://example.org/users/ann/"))
    }

    @Test func iconShowsOnTheHomeTileWithItsSize() throws {
        let site = try Self.site()
        defer { site.remove() }
        _ = try site.build().get()
        let home = try site.read("public/index.html")
        let photosTile = try #require(home.firstMatch(of: /<li class="app" data-item="photos">.*?<\/li>/)).0
        #expect(
            photosTile.contains(
                "<img class=\"app-icon\" src=\"/icons/photos.svg\" width=\"64\" height=\"48\" alt=\"\">"))
        let tagsTile = try #require(home.firstMatch(of: /<li class="app" data-item="tags">.*?<\/li>/)).0
        #expect(!tagsTile.contains("app-icon"))
        #expect(home.matches(of: /class="app-icon"/).count == 1)
        // The icon file itself is published.
        #expect(exists(site, "icons/photos.svg"))
    }

    @Test func aMissingIconIsABuildErrorNamingSiteYmlAndTheKey() throws {
        let site = try Self.site(
            yml: Self.siteYML.replacingOccurrences(of: "icon: icons/photos.svg", with: "icon: icons/nope.svg"))
        defer { site.remove() }
        #expect(
            site.errors() == [
                "site.yml: error: at collections.photos.icon: image 'content/icons/nope.svg' does not exist"
            ])
        #expect(!exists(site, "index.html"))
    }

    // MARK: - (f) template check

    @Test func unknownNamesInPageTemplatesAreReported() throws {
        let site = try Self.site(templates: [
            "templates/discover.mustache": "<h1>{{page.title}}</h1>\n{{#data.photos}}{{nonsense}}{{/data.photos}}\n"
        ])
        defer { site.remove() }
        #expect(
            site.errors() == [
                "templates/discover.mustache:2:17: error: unknown name 'nonsense': no page, item or note provides it"
            ])
        #expect(!exists(site, "index.html"))
    }

    @Test func aMissingPageTemplateIsReported() throws {
        let site = try Self.site()
        defer { site.remove() }
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("templates/about-page.mustache"))
        #expect(
            site.errors() == [
                "site.yml: error: template 'about-page' not found (looked for templates/about-page.mustache and the built-in theme)"
            ])
    }

    @Test func relatedRuleNamesAreKnownToTheTemplateCheck() throws {
        // `tagged` and `shots` are names only the related rules provide; the site builds, and a
        // misspelt rule name in the same place is reported.
        let ok = try Self.site()
        defer { ok.remove() }
        _ = try ok.build().get()
        let bad = try Self.site(templates: [
            "templates/tag.mustache": "{{#item.related.tagged}}{{slug}}{{/item.related.tagged}}{{#taggd}}x{{/taggd}}\n"
        ])
        defer { bad.remove() }
        #expect(
            bad.errors() == [
                "templates/tag.mustache:1:57: error: unknown name 'taggd': no page, item or note provides it; "
                    + "did you mean 'tagged'?"
            ])
    }
}
