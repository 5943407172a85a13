import Foundation
import SiteCore
import SiteWrite
@testable import SiteLoad
import Testing
@testable import SiteBuild

/// The plan is the site's list of pages: every page once, each output file claimed once, and
/// the sitemap the build writes is the plan's pages (all but the 404 page) in the plan's order.
@Suite struct SitePlanTests {
    @Test func theSitemapIsThePlan() throws {
        let site = try Fixture.exampleSite()
        let options = BuildOptions(source: site.root, output: site.output)
        let (config, content, templates) = try SiteInputs.loadConfiguration(options)
        let inputs = try SiteInputs.loadData(
            source: options.source, config: config, content: content, templates: templates, includeDrafts: false,
            threads: 2)
        let model = try SiteModel.make(inputs)
        let plan = SitePlan(model)
        let files = plan.pages.map { model.urls.file(ofPagePath: $0.path) }
        #expect(Set(files).count == plan.pages.count, "two pages of the plan write one file")
        #expect(plan.pages.filter { !$0.inSitemap }.map(\.id) == [.notFound(NotFoundPage())])
        // Item pages are planned in display order (the sitemap's), not in the data's.
        for (ci, c) in model.collections.enumerated() where c.config.detailURL != nil {
            let items = plan.pages.compactMap { p -> Int? in
                if case .item(let page) = p.id, page.collection == ci { return page.item }; return nil
            }
            #expect(items == c.order)
        }
        _ = try site.build().get()
        let xml = try site.read("public/sitemap.xml")
        let locs = xml.components(separatedBy: "<loc>").dropFirst().map { String($0.prefix { $0 != "<" }) }
        #expect(locs == plan.pages.filter(\.inSitemap).map { model.urls.absolute($0.path) })
        #expect(locs.count > 100)
    }

    /// The plan lists every file the build writes, pages and the rest (content files, resized
    /// images, assets, feeds, search indexes, robots.txt; the sitemap is made from the pages),
    /// and writes nothing it does not list.
    @Test func thePlanListsEveryOutputFile() throws {
        let site = try Fixture.exampleSite()
        defer { site.remove() }
        let model = try FullBuild.run(BuildOptions(source: site.root, output: site.output)).model
        let plan = SitePlan(model)
        let pages = plan.pages.map { model.urls.file(ofPagePath: $0.path) }
        let sitemaps = SiteFiles.sitemaps(plan, urls: model.urls).map(\.path)
        let planned = Set(pages + plan.files.map(\.path) + sitemaps)
        #expect(planned.count == pages.count + plan.files.count + sitemaps.count, "two planned outputs share a file")
        let written = Set(try site.snapshot().compactMap { $0.value == nil ? nil : $0.key })
        #expect(written.subtracting(planned).sorted() == [], "written but not planned")
        #expect(planned.subtracting(written).sorted() == [], "planned but not written")
        for kind in ["feed.xml", "robots.txt", "search/photos.json", "trends/feed.xml", "assets/sitegen.css"] {
            #expect(plan.files.contains { $0.path == kind }, "\(kind) is planned")
        }
        #expect(plan.files.contains { if case .image = $0.kind { true } else { false } }, "resized images are planned")
    }

    /// Tag pages: one per slug (names that slug alike share it, under the first name met), each
    /// note once per tag however often it names it, none for a name with no usable slug.
    @Test func tagsBySlugEachNoteOnce() {
        func note(_ slug: String, _ tags: [String]) -> Note {
            Note(
                slug: slug, title: slug, date: nil, tags: tags, summary: nil, fields: [:], html: "",
                file: "content/\(slug).md")
        }
        let notes = [note("a", ["Swift", "swift", "!!!"]), note("b", ["Go"]), note("c", ["swift", "Go"])]
        let (tags, slugs) = SitePlan.tags(of: [0, 1, 2], in: notes)
        #expect(tags.map(\.slug) == ["go", "swift"])
        #expect(tags.map(\.name) == ["Go", "Swift"])
        #expect(tags.map(\.notes) == [[1, 2], [0, 2]])
        #expect(slugs["Swift"] == "swift" && slugs["Go"] == "go")
    }
}

extension SitePlanTests {
    /// A plain build records nothing (every page is made once); an incremental build records
    /// what each page read and starts from the last one's record; a session's first build
    /// records and starts from nothing.
    @Test func whoRecordsWhatPagesRead() throws {
        let site = try Fixture.exampleSite()
        defer { site.remove() }
        var options = BuildOptions(
            source: site.root, output: site.output, cacheDir: site.root.appendingPathComponent("own-cache"))
        let plain = try FullBuild.run(options)
        #expect(plain.written.records.isEmpty && !plain.written.fingerprinted && plain.report.pages > 10)
        #expect(try FullBuild.run(options).report.pages == plain.report.pages)
        #expect(!FileManager.default.fileExists(atPath: BuildRecord.path(options).path), "no record kept")
        options.incremental = true
        let first = try FullBuild.run(options)
        #expect(first.written.records.count == first.written.paths.count)
        #expect(try FullBuild.run(options).report.pages == 0)
        let session = try FullBuild.run(options, session: true)
        #expect(session.written.records.count == session.written.paths.count)
        #expect(session.report.pages == plain.report.pages)
    }

    /// A rebuild's plan claiming the files the last pass wrote is not checked for claims again;
    /// one claiming another file is.
    @Test func theSameClaimsAreNotCheckedAgain() throws {
        let site = try Fixture.exampleSite()
        defer { site.remove() }
        let built = try FullBuild.run(BuildOptions(source: site.root, output: site.output), session: true)
        let plan = SitePlan(built.model)
        #expect(plan.claimsTheSame(as: built.written))
        var fewerFiles = built.written
        fewerFiles.files.remove(try #require(fewerFiles.files.first))
        #expect(!plan.claimsTheSame(as: fewerFiles))
        var otherPath = built.written
        otherPath.paths[otherPath.paths.count - 1] += "x/"
        #expect(!plan.claimsTheSame(as: otherPath))
        var otherSitemaps = built.written
        otherSitemaps.sitemaps.insert("sitemap-1.xml")
        #expect(!plan.claimsTheSame(as: otherSitemaps))
    }

    /// The sitemaps' file names are claimed by the plan as `Sitemap.files` names them.
    @Test(arguments: [0, 1, 50_000, 50_001, 100_000, 100_001])
    func sitemapFileNames(count: Int) {
        let urls = (0..<count).map { (loc: "https://example.org/\($0)/", lastModified: String?.none) }
        #expect(
            Sitemap.fileNames(urlCount: count)
                == Sitemap.files(urls: urls, indexBase: "https://example.org/").map(\.name))
    }
}

extension SitePlanTests {
    /// A content file where the sitemap goes is refused by the plan, before anything is written.
    @Test func aContentFileWhereTheSitemapGoesIsAnError() throws {
        let site = try Fixture.exampleSite()
        defer { site.remove() }
        try Data("<urlset/>".utf8).write(to: site.root.appendingPathComponent("content/sitemap.xml"))
        let error = #expect(throws: Diagnostics.self) {
            try FullBuild.run(BuildOptions(source: site.root, output: site.output))
        }
        #expect(error?.items == [Diagnostic(file: "sitemap", "'sitemap.xml' is also written by content/sitemap.xml")])
        #expect(!FileManager.default.fileExists(atPath: site.output.path), "nothing written")
        // A rebuild writes into the live output, which does not look for clashes: the plan does.
        try FileManager.default.removeItem(at: site.root.appendingPathComponent("content/sitemap.xml"))
        var session = try SiteSession(BuildOptions(source: site.root, output: site.output))
        try Data("<urlset/>".utf8).write(to: site.root.appendingPathComponent("content/sitemap.xml"))
        let rebuild = #expect(throws: Diagnostics.self) { try session.update(["content/sitemap.xml"]) }
        #expect(rebuild?.items == [Diagnostic(file: "sitemap", "'sitemap.xml' is also written by content/sitemap.xml")])
    }
}
