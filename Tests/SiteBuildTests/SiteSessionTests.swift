import Foundation
import SiteCore
import Testing
@testable import SiteBuild

/// Incremental rebuilds (`sitegen serve`): after every kind of edit, the output a session leaves
/// is byte for byte the output of a full build of the same sources, and only the pages that show
/// the edit are written.
@Suite struct SiteSessionTests {
    /// The example site with a session over it; `full()` builds the same sources from scratch elsewhere.
    final class Live {
        let site: Fixture
        var session: SiteSession
        var live: URL { site.root.appendingPathComponent("live") }
        var fresh: URL { site.root.appendingPathComponent("fresh") }

        init() throws {
            site = try Fixture.exampleSite()
            session = try SiteSession(BuildOptions(source: site.root, output: site.root.appendingPathComponent("live")))
        }

        deinit { site.remove() }

        @discardableResult
        func edit(_ path: String, _ text: String?) throws -> UpdateReport {
            let url = site.root.appendingPathComponent(path)
            if let text { try site.write(path, text) } else { try FileManager.default.removeItem(at: url) }
            return try session.update([path])
        }

        /// Fails the test when the session's output differs from a full build's.
        func expectSameAsFullBuild(_ comment: Comment, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws
        {
            _ = try SiteBuilder.build(BuildOptions(source: site.root, output: fresh))
            let a = try site.snapshot(of: live), b = try site.snapshot(of: fresh)
            let differing = Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted()
            #expect(
                differing.isEmpty, "\(comment): files or folders differ from a full build: \(differing.prefix(10))",
                sourceLocation: sourceLocation)
        }
    }

    static let note = """
        ---
        title: Harbour notes
        date: 2026-11-22
        ---
        First *draft* of the harbour notes.
        """

    @Test func editingANoteRendersOnlyThePagesShowingIt() throws {
        let s = try Live()
        let original = try s.site.read("content/notes/about.md")
        try s.site.write(
            "content/notes/about.md",
            original.replacingOccurrences(of: "Every page here", with: "Every single page here"))
        // `sed -i` and some editors write a temporary file and rename it over the note: the
        // batch names a file that is gone again, which changes nothing.
        let r = try s.session.update(["content/notes/about.md", "content/notes/sedX1b2c3"])
        // Its page, the notes list, the home page (which lists the newest notes) and the pages
        // of its tags; of the other files only the feed (which carries the note's text).
        #expect(r.changedPages == ["/", "/notes/", "/notes/about/", "/tags/%EC%98%88%EC%A0%9C/", "/tags/sitegen/"])
        #expect(r.pagesWritten == 5 && r.filesWritten == 1 && r.removed == 0)
        #expect(r.bodiesOnly, "only the note's text changed: the model and the plan are kept")
        #expect(
            try String(contentsOf: s.live.appendingPathComponent("feed.xml"), encoding: .utf8).contains(
                "Every single page here"))
        #expect(
            try String(contentsOf: s.live.appendingPathComponent("notes/about/index.html"), encoding: .utf8).contains(
                "Every single page here"))
        try s.expectSameAsFullBuild("after editing a standalone note")

        let luffy = try s.site.read("content/notes/luffy.md")
        let r2 = try s.edit(
            "content/notes/luffy.md", luffy.replacingOccurrences(of: "highest first", with: "largest first"))
        #expect(r2.changedPages == ["/bounties/luffy/"], "an attached note shows only on its item's page")
        #expect(r2.bodiesOnly)
        try s.expectSameAsFullBuild("after editing an attached note")
    }

    @Test func aNotesDateOrSlugChangesTheSitemapAndOnlyItsNotesChangeTheFeed() throws {
        let s = try Live()
        let about = try s.site.read("content/notes/about.md")
        let sitemap = { try String(contentsOf: s.live.appendingPathComponent("sitemap.xml"), encoding: .utf8) }
        // The date is the note's sitemap <lastmod>; an earlier one keeps the notes' order (the
        // same pages at the same paths: only a date differs).
        let earlier = about.replacingOccurrences(of: "date: 2026-11-21", with: "date: 2026-11-19")
        #expect(try !s.edit("content/notes/about.md", earlier).bodiesOnly, "a date is no body")
        #expect(try sitemap().contains("<lastmod>2026-11-19</lastmod>"))
        try s.expectSameAsFullBuild("after changing a note's date")
        // A slug of its own moves the note's page: the same pages in the same order, one path changed.
        try s.edit(
            "content/notes/about.md",
            earlier.replacingOccurrences(
                of: "title: About this site", with: "title: About this site\nslug: about-the-site"))
        #expect(try sitemap().contains("/notes/about-the-site/"))
        try s.expectSameAsFullBuild("after changing a note's slug")
        // An attached note is in no feed: the feed is not written again.
        let luffy = try s.site.read("content/notes/luffy.md")
        let r = try s.edit(
            "content/notes/luffy.md", luffy.replacingOccurrences(of: "highest first", with: "largest first"))
        #expect(r.filesWritten == 0, "nothing but the item's page")
        try s.expectSameAsFullBuild("after editing an attached note")
    }

    /// A note linking another and showing a photo: adding it resizes the photo; the other's new
    /// slug renders the linking note's page again (its link moved), as a full build would.
    @Test func linksAndImagesOfNotesFollowEdits() throws {
        let s = try Live()
        try s.site.write("content/notes/pics/shot.png", NoteMarkdownTests.png)
        try s.edit(
            "content/notes/linking.md",
            "---\ntitle: Linking\n---\nSee [about](about.md#top) and ![a shot](pics/shot.png).\n")
        let page = {
            try String(contentsOf: s.live.appendingPathComponent("notes/linking/index.html"), encoding: .utf8)
        }
        #expect(try page().contains("<a href=\"/notes/about/#top\">about</a>") && page().contains("<picture>"))
        try s.expectSameAsFullBuild("after adding a note with a link and an image")
        let about = try s.site.read("content/notes/about.md")
        try s.edit(
            "content/notes/about.md",
            about.replacingOccurrences(
                of: "title: About this site", with: "title: About this site\nslug: about-the-site"))
        #expect(try page().contains("<a href=\"/notes/about-the-site/#top\">about</a>"))
        try s.expectSameAsFullBuild("after changing the linked note's slug")
    }

    /// A link to an attached note's heading carries the note's slug while the heading is there
    /// (its ids are prefixed on the item's page): a body that adds or drops the heading moves
    /// the links of the notes pointing into it, though only that note's text changed.
    @Test func aHeadingOfAnAttachedNoteMovesTheLinksIntoIt() throws {
        let s = try Live()
        try s.edit("content/notes/linking.md", "---\ntitle: Linking\n---\nSee [the crew](luffy.md#crew).\n")
        let link = {
            try String(contentsOf: s.live.appendingPathComponent("notes/linking/index.html"), encoding: .utf8)
                .contains("/bounties/luffy/#luffy-crew")
        }
        #expect(try !link())
        let luffy = try s.site.read("content/notes/luffy.md")
        for (text, linked) in [(luffy + "\n## Crew\n\nNine of them.\n", true), (luffy, false)] {
            let r = try s.edit("content/notes/luffy.md", text)
            #expect(r.bodiesOnly)
            #expect(try link() == linked)
            try s.expectSameAsFullBuild("after the heading came or went")
        }
    }

    /// An attached note's tags count (issue 49): its tag's page lists it, linking its item's
    /// page (where it is shown), and it goes when the tags do.
    @Test func anAttachedNotesTagsListItByItsItem() throws {
        let s = try Live()
        let luffy = try s.site.read("content/notes/luffy.md")
        try s.edit(
            "content/notes/luffy.md",
            luffy.replacingOccurrences(of: "item: luffy\n", with: "item: luffy\ntags: [crew]\n"))
        let tag = try String(contentsOf: s.live.appendingPathComponent("tags/crew/index.html"), encoding: .utf8)
        #expect(tag.contains("<a href=\"/bounties/luffy/\">선장의 현상금</a>"))
        #expect(
            try String(contentsOf: s.live.appendingPathComponent("tags/index.html"), encoding: .utf8)
                .contains("href=\"/tags/crew/\""))
        try s.expectSameAsFullBuild("after tagging an attached note")
        try s.edit("content/notes/luffy.md", luffy)
        #expect(!FileManager.default.fileExists(atPath: s.live.appendingPathComponent("tags/crew").path))
        try s.expectSameAsFullBuild("after its tags went")
        // Detached, it is a note of its own at its own URL (not its item's any more).
        try s.edit("content/notes/luffy.md", luffy.replacingOccurrences(of: "item: luffy\n", with: ""))
        #expect(FileManager.default.fileExists(atPath: s.live.appendingPathComponent("notes/luffy/index.html").path))
        try s.expectSameAsFullBuild("after it was detached")
    }

    /// A note's text edited in the same batch as a template or an asset: the model is made
    /// again (its templates, its assets' files), not only the note's body taken in.
    @Test(arguments: ["templates/bounty-detail.mustache", "templates/assets/notes.txt"])
    func aTextEditBesideATemplateOrAssetRemakesTheModel(_ other: String) throws {
        let s = try Live()
        let luffy = try s.site.read("content/notes/luffy.md")
        try s.site.write("content/notes/luffy.md", luffy.replacingOccurrences(of: "highest", with: "largest"))
        let before = (try? s.site.read(other)) ?? ""
        try s.site.write(other, before + "\n<!-- also edited -->\n")
        let r = try s.session.update(["content/notes/luffy.md", other])
        #expect(!r.bodiesOnly)
        try s.expectSameAsFullBuild("after a note and \(other) changed together")
    }

    /// A note that comes before the others moves their places in the list of notes, not what a
    /// tag page shows: tags are versioned by their notes' files, and no tag page is made again.
    @Test func aNoteAddedFirstLeavesTheTagPages() throws {
        let s = try Live()
        let r = try s.edit(
            "content/notes/0-first.md", Self.note.replacingOccurrences(of: "date:", with: "item: zoro\ndate:"))
        let pages = try #require(r.changedPages)
        #expect(!pages.isEmpty && !pages.contains { $0.hasPrefix("/tags/") }, "\(pages)")
        try s.expectSameAsFullBuild("after adding a note before the others")
    }

    @Test func addingMovingAndDeletingNotes() throws {
        let s = try Live()
        try s.edit("content/notes/harbour.md", Self.note)
        #expect(FileManager.default.fileExists(atPath: s.live.appendingPathComponent("notes/harbour/index.html").path))
        try s.expectSameAsFullBuild("after adding a note")
        // A new date moves it in the list; a slug moves its page.
        try s.edit("content/notes/harbour.md", Self.note.replacingOccurrences(of: "2026-11-22", with: "2020-01-01"))
        try s.expectSameAsFullBuild("after changing a note's date")
        try s.edit("content/notes/harbour.md", Self.note.replacingOccurrences(of: "date:", with: "slug: port\ndate:"))
        #expect(
            !FileManager.default.fileExists(atPath: s.live.appendingPathComponent("notes/harbour").path),
            "the old page and its folder are gone")
        try s.expectSameAsFullBuild("after changing a note's slug")
        // Attached to an item, then a draft, then deleted.
        try s.edit("content/notes/harbour.md", Self.note.replacingOccurrences(of: "date:", with: "item: zoro\ndate:"))
        try s.expectSameAsFullBuild("after attaching a note to an item")
        try s.edit("content/notes/harbour.md", Self.note.replacingOccurrences(of: "date:", with: "draft: true\ndate:"))
        try s.expectSameAsFullBuild("after marking a note as a draft")
        try s.edit("content/notes/harbour.md", nil)
        try s.edit("content/notes/about.md", nil)
        try s.expectSameAsFullBuild("after deleting notes")
    }

    /// A dataset's values from outside its item list (`meta:`, here the day a ranking is for)
    /// change what its pages show though no item changed.
    @Test func aDatasetsMetaAloneChanges() throws {
        let s = try Live()
        let daily = try s.site.read("content/boxoffice/daily.json")
        let r = try s.edit(
            "content/boxoffice/daily.json",
            daily.replacingOccurrences(
                of: "\"fetchedAt\": \"2025-01-06T07:30+09:00\"", with: "\"fetchedAt\": \"2025-01-06T08:45+09:00\""))
        #expect(r.changedPages?.contains("/boxoffice/") ?? true, "\(r.changedPages ?? [])")
        try s.expectSameAsFullBuild("after editing a dataset's meta value")
    }

    @Test func datasetTemplateAssetAndContentFileEdits() throws {
        let s = try Live()
        // A bounty changes: its collection re-sorts; other collections are not rendered again.
        let bounties = try s.site.read("content/bounties/bounties.json")
        let r = try s.edit(
            "content/bounties/bounties.json",
            bounties.replacingOccurrences(of: "\"bounty\": 16000000", with: "\"bounty\": 1600000000"))
        let touched = try #require(r.changedPages)
        #expect(touched.contains("/bounties/") && touched.contains("/bounties/nami/"), "\(touched)")
        #expect(
            !touched.contains { $0.hasPrefix("/photos/") || $0.hasPrefix("/pinterest/") || $0.hasPrefix("/trends/") },
            "\(touched)")
        try s.expectSameAsFullBuild("after editing a dataset")

        // A template: only the pages rendered with it (and its partials).
        let detail = try s.site.read("templates/bounty-detail.mustache")
        let r2 = try s.edit("templates/bounty-detail.mustache", detail + "\n<!-- edited -->\n")
        let bountyPages = try #require(r2.changedPages)
        #expect(bountyPages.count == 8 && bountyPages.allSatisfy { $0.hasPrefix("/bounties/") })
        try s.expectSameAsFullBuild("after editing a template")

        // An asset, a new asset, a content file added and removed.
        try s.edit(
            "templates/assets/bounties.css", try s.site.read("templates/assets/bounties.css") + "\n/* edited */\n")
        try s.edit("templates/assets/extra.css", "body { color: red; }\n")
        try s.edit("content/bounties/readme.txt", "hello\n")
        try s.expectSameAsFullBuild("after asset and content file edits")
        try s.edit("content/bounties/readme.txt", nil)
        try s.edit("templates/assets/extra.css", nil)
        try s.expectSameAsFullBuild("after removing files")
        // The assets folder moved away and back: one event for the folder, none for its files.
        let assets = s.site.root.appendingPathComponent("templates/assets"),
            away = s.site.root.appendingPathComponent("assets-away")
        try FileManager.default.moveItem(at: assets, to: away)
        _ = try s.session.update(["templates/assets"])
        try s.expectSameAsFullBuild("after moving the assets folder away")
        try FileManager.default.moveItem(at: away, to: assets)
        _ = try s.session.update(["templates/assets"])
        try s.expectSameAsFullBuild("after moving the assets folder back")

        // The configuration: everything again.
        let config = try s.site.read("site.yml")
        let r3 = try s.edit(
            "site.yml", config.replacingOccurrences(of: "title: sitegen 예제", with: "title: sitegen example"))
        #expect(r3.full && r3.changedPages == nil)
        try s.expectSameAsFullBuild("after editing the configuration")
    }

    @Test func aBrokenEditKeepsTheLastGoodSiteUntilFixed() throws {
        let s = try Live()
        let before = try s.site.snapshot(of: s.live)
        let original = try s.site.read("content/notes/about.md")
        try s.site.write("content/notes/about.md", "---\ntitle: [unclosed\n---\nBody\n")
        #expect(throws: Diagnostics.self) { try s.session.update(["content/notes/about.md"]) }
        #expect(try s.site.snapshot(of: s.live) == before, "the output is untouched")
        // Another edit while the note is still broken does not clear the error.
        try s.site.write("content/notes/harbour.md", Self.note)
        #expect(throws: Diagnostics.self) { try s.session.update(["content/notes/harbour.md"]) }
        try s.site.write(
            "content/notes/about.md", original.replacingOccurrences(of: "Every page here", with: "Fixed: every page"))
        let r = try s.session.update(["content/notes/about.md"])
        #expect(r.changedPages?.contains("/notes/harbour/") == true, "the edit made while broken is applied too")
        try s.expectSameAsFullBuild("after fixing a broken note")

        let detail = try s.site.read("templates/bounty-detail.mustache")
        try s.site.write("templates/bounty-detail.mustache", detail + "{{#item}}")
        #expect(throws: Diagnostics.self) { try s.session.update(["templates/bounty-detail.mustache"]) }
        try s.edit("templates/bounty-detail.mustache", detail)
        try s.expectSameAsFullBuild("after fixing a broken template")
    }

    @Test func clashesAreErrorsAsInAFullBuild() throws {
        let s = try Live()
        let before = try s.site.snapshot(of: s.live)
        // Another note taking an existing note's slug.
        try s.site.write("content/notes/about-copy.md", "---\ntitle: Copy\nslug: about\n---\nText\n")
        let slug = #expect(throws: Diagnostics.self) { try s.session.update(["content/notes/about-copy.md"]) }
        #expect(slug?.items.map(\.description) == s.site.errors())
        try FileManager.default.removeItem(at: s.site.root.appendingPathComponent("content/notes/about-copy.md"))
        _ = try s.session.update(["content/notes/about-copy.md"])
        // A content file where a page is written.
        try s.site.write("content/notes/about/index.html", "<p>mine</p>\n")
        let file = #expect(throws: Diagnostics.self) { try s.session.update(["content/notes/about/index.html"]) }
        #expect(
            file?.items.first?.description.contains("'notes/about/index.html' is also written by") == true,
            "\(file?.items ?? [])")
        #expect(try s.site.snapshot(of: s.live) == before, "nothing written")
        try FileManager.default.removeItem(at: s.site.root.appendingPathComponent("content/notes/about"))
        _ = try s.session.update(["content/notes/about"])
        try s.expectSameAsFullBuild("after removing the clashing file")
    }

    /// A full build is the rebuild's phases over an empty output: the same phases from the
    /// images on, under the same names, and the same pages.
    @Test func buildAndRebuildShareThePhases() throws {
        let s = try Live()
        let rebuilt = try s.edit("content/notes/harbour.md", Self.note)
        let built = try SiteBuilder.build(BuildOptions(source: s.site.root, output: s.fresh))
        #expect(rebuilt.phases.map(\.name) == ["scan", "load", "images", "sort", "plan", "render", "write"])
        #expect(built.phases.map(\.name) == ["config", "load", "images", "sort", "plan", "render", "write"])
        #expect(built.pages == s.session.pageCount && built.pages > 100)
        try s.expectSameAsFullBuild("after a note was added")
    }

    @Test func filesOutsideTheSourcesAreIgnored() throws {
        #expect(SiteSession.isSource("site.yml"))
        #expect(SiteSession.isSource("content/notes/a.md"))
        #expect(SiteSession.isSource("templates/list.mustache"))
        #expect(!SiteSession.isSource("public/index.html"))
        #expect(!SiteSession.isSource("content/notes/.a.md.swp"))
        #expect(!SiteSession.isSource(".git/index"))
        #expect(!SiteSession.isSource("README.md"))
    }
}
