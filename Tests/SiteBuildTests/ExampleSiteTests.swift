import Foundation
import Testing
@testable import SiteBuild

@Suite struct ExampleSiteTests {
    @Test func buildsTheBountyGridInBountyOrder() throws {
        let site = try Fixture.exampleSite()
        defer { site.remove() }
        let report = try site.build().get()
        #expect(report.pages >= 11)
        let grid = try site.read("public/bounties/index.html")
        let slugs = grid.matches(of: /data-item="([^"]+)"/).map { String($0.1) }
        #expect(slugs == ["luffy", "zoro", "robin", "sanji", "franky", "brook", "nami", "chopper"])
        #expect(grid.contains(">300,000,000<"))
        #expect(grid.contains(">50<"))
        #expect(grid.contains("data-layout=\"grid\""))
        // Every image has its pixel size, read from the JPEG header.
        for img in grid.matches(of: /<img [^>]*>/) {
            #expect(img.0.contains("width=\"420\"") && img.0.contains("height=\"600\""), "\(img.0)")
        }
        // The grid's geometry reaches the page as CSS custom properties.
        #expect(grid.contains("--gap:10px;--media-aspect:7/10;--text-height:65px;--inset:0px;--cols:2"))
        #expect(grid.contains("@media (min-width:1024px){[data-collection=\"bounties\"]{--cols:4}}"))
    }

    @Test func linksResolveToWrittenPages() throws {
        let site = try Fixture.exampleSite()
        defer { site.remove() }
        _ = try site.build().get()
        var checked = 0
        for page in ["index.html", "bounties/index.html", "bounties/luffy/index.html", "notes/index.html"] {
            let html = try site.read("public/\(page)")
            for m in html.matches(of: /(?:href|src)="(\/[^"#]*)"/) {
                var path = String(m.1).removingPercentEncoding ?? String(m.1)
                if path.hasSuffix("/") { path += "index.html" }
                let exists = FileManager.default.fileExists(
                    atPath: site.output.appendingPathComponent(String(path.dropFirst())).path)
                #expect(exists, "\(page) links to missing \(m.1)")
                checked += 1
            }
        }
        #expect(checked > 30)
    }

    @Test func attachedNoteAppearsOnItsDetailPageOnly() throws {
        let site = try Fixture.exampleSite()
        defer { site.remove() }
        _ = try site.build().get()
        let luffy = try site.read("public/bounties/luffy/index.html")
        #expect(luffy.contains("<h2>선장의 현상금</h2>"))
        #expect(luffy.contains("<strong>by bounty, highest first</strong>"))
        #expect(luffy.contains("class=\"close\" href=\"/bounties/\""))
        #expect(!(try site.read("public/bounties/zoro/index.html")).contains("선장의 현상금"))
        // Neighbours follow the sort order: luffy is first, chopper last.
        #expect(luffy.contains("<a rel=\"next\" href=\"/bounties/zoro/\">") && !luffy.contains("rel=\"prev\""))
        let chopper = try site.read("public/bounties/chopper/index.html")
        #expect(chopper.contains("<a rel=\"prev\" href=\"/bounties/nami/\">") && !chopper.contains("rel=\"next\""))
        // Attached notes get no page of their own; standalone notes do.
        #expect(
            !FileManager.default.fileExists(atPath: site.output.appendingPathComponent("notes/luffy/index.html").path))
        #expect(
            FileManager.default.fileExists(atPath: site.output.appendingPathComponent("notes/about/index.html").path))
    }

    @Test func datasetsAndNotesAreNotPublishedRaw() throws {
        let site = try Fixture.exampleSite()
        defer { site.remove() }
        _ = try site.build().get()
        #expect(
            !FileManager.default.fileExists(atPath: site.output.appendingPathComponent("bounties/bounties.json").path))
        #expect(!FileManager.default.fileExists(atPath: site.output.appendingPathComponent("notes/luffy.md").path))
        // A resized image's source is published only through its copies (no GPS, no camera original).
        #expect(
            !FileManager.default.fileExists(
                atPath: site.output.appendingPathComponent("bounties/images/luffy.jpg").path))
        #expect(FileManager.default.fileExists(atPath: site.output.appendingPathComponent("assets/bounties.css").path))
        #expect(FileManager.default.fileExists(atPath: site.output.appendingPathComponent("assets/sitegen.css").path))
        #expect(FileManager.default.fileExists(atPath: site.output.appendingPathComponent("404.html").path))
    }

    @Test func sitemapListsEveryPageWithAbsoluteURLs() throws {
        let site = try Fixture.exampleSite()
        defer { site.remove() }
        _ = try site.build(baseURL: "https://example.com/apps/").get()
        let sitemap = try site.read("public/sitemap.xml")
        let locs = sitemap.matches(of: /<loc>([^<]+)<\/loc>/).map { String($0.1) }
        #expect(locs.contains("https://example.com/apps/bounties/luffy/"))
        #expect(locs.contains("https://example.com/apps/"))
        #expect(locs.allSatisfy { $0.hasPrefix("https://example.com/apps/") })
        #expect(Set(locs).count == locs.count)
        // Links inside pages follow the base URL's path.
        #expect(try site.read("public/bounties/index.html").contains("href=\"/apps/bounties/luffy/\""))
    }

    @Test func brokenDatasetFailsAndLeavesThePreviousOutput() throws {
        let site = try Fixture.exampleSite()
        defer { site.remove() }
        _ = try site.build().get()
        let before = try site.snapshot()
        #expect(before.count > 15)
        try site.write(
            "content/bounties/bounties.json",
            "[\n  { \"name\": \"luffy\", \"bounty\": 300 },\n  { \"name\": \"zoro\" \"bounty\": 1 }\n]\n")
        let errors = site.errors()
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("content/bounties/bounties.json:3:") == true, "\(errors)")
        #expect(try site.snapshot() == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: site.root.path).filter {
            $0.hasPrefix(".public")
        }
        #expect(leftovers.isEmpty, "staging folders left behind: \(leftovers)")
    }

    @Test func draftsAreLeftOutUnlessAsked() throws {
        let site = try Fixture.exampleSite()
        defer { site.remove() }
        try site.write("content/notes/wip.md", "---\ntitle: Work in progress\ndraft: true\n---\nSoon.\n")
        _ = try site.build().get()
        #expect(
            !FileManager.default.fileExists(atPath: site.output.appendingPathComponent("notes/wip/index.html").path))
        _ = try site.build(drafts: true).get()
        #expect(FileManager.default.fileExists(atPath: site.output.appendingPathComponent("notes/wip/index.html").path))
    }

    @Test func hangulSlugsArePercentEncodedInLinks() throws {
        let site = try Fixture(files: [
            "site.yml":
                "title: t\nbaseURL: https://example.org/\nlanguage: ko\ncollections:\n  people:\n    data: people.json\n    slug: name\n",
            "content/people.json": "[{\"name\": \"루피\"}]"
        ])
        defer { site.remove() }
        _ = try site.build().get()
        #expect(try site.read("public/people/index.html").contains("href=\"/people/%EB%A3%A8%ED%94%BC/\""))
        #expect(FileManager.default.fileExists(atPath: site.output.appendingPathComponent("people/루피/index.html").path))
    }

    @Test func valuesAreEscaped() throws {
        let site = try Fixture(files: [
            "site.yml":
                "title: t\nbaseURL: https://example.org/\ncollections:\n  x:\n    data: x.json\n    slug: id\n    card: { title: name }\n",
            "content/x.json": #"[{"id": "a", "name": "<script>alert(1)</script> & \"q\" 'q'"}]"#
        ])
        defer { site.remove() }
        _ = try site.build().get()
        for page in ["public/x/index.html", "public/x/a/index.html"] {
            let html = try site.read(page)
            #expect(!html.contains("<script>alert"))
            #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot; &#39;q&#39;"))
        }
    }

    @Test func siteWithoutTemplatesOrContentStillBuilds() throws {
        let site = try Fixture(files: ["site.yml": "title: Empty\nbaseURL: https://example.org/\n"])
        defer { site.remove() }
        _ = try site.build().get()
        #expect(try site.read("public/index.html").contains("<h1>Empty</h1>"))
    }

    @Test func starterSiteBuildsAtOnce() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-init-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try StarterSite.write(to: dir)
        let report = try SiteBuilder.build(BuildOptions(source: dir))
        #expect(report.pages >= 5)
        // With no output named, the site goes to public/ in its folder, as `sitegen build` puts it.
        #expect(report.output.path == dir.appendingPathComponent("public").path)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("public/index.html").path))
        #expect(throws: Diagnostic.self) { try StarterSite.write(to: dir) }
    }
}

import SiteCore
