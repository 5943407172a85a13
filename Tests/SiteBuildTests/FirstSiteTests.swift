import Foundation
import SiteCore
import SiteLoad
@testable import SiteBuild
import Testing

/// A new user's first site (issue 36): the template check's hint for names at another level, the
/// grid's defaults taken from the data, the starter site and `sitegen eject`.
@Suite struct FirstSiteTests {
    static let siteYML = """
        title: T
        baseURL: https://example.org/
        collections:
          films:
            data: films.json
            slug: name
            images: { fields: poster }
            card: { title: name, image: poster }
            layout: LAYOUT
            detail: { template: film }

        """

    func site(
        layout: String = "{ kind: grid }", template: String = "{{item.name}}", poster: (Int, Int) = (600, 900),
        extraField: String = ""
    ) throws -> Fixture {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(poster.0) \(poster.1)\"></svg>"
        return try Fixture(files: [
            "site.yml": Self.siteYML.replacingOccurrences(of: "LAYOUT", with: layout),
            "content/films.json":
                "[{\"name\": \"a\", \"poster\": \"p.svg\"\(extraField)}, {\"name\": \"b\", \"poster\": \"q.svg\"}, {\"name\": \"c\", \"poster\": \"p.svg\"}]",
            "content/p.svg": svg,
            "content/q.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 100 100\"></svg>",
            "templates/film.mustache": template
        ])
    }

    @Test func aNameAtTheTopLevelWrittenUnderItemIsAnErrorWithItsPlace() throws {
        let s = try site(
            template: "{{#item.prev}}{{title}}{{/item.prev}}\n{{item.next.name}}{{^item.notes}}-{{/item.notes}}")
        defer { s.remove() }
        #expect(
            s.errors() == [
                "templates/film.mustache:1:1: error: unknown name 'item.prev': `prev` is top-level: `{{#prev}}`",
                "templates/film.mustache:2:1: error: unknown name 'item.next.name': `next` is top-level: `{{next.name}}`",
                "templates/film.mustache:2:19: error: unknown name 'item.notes': `notes` is top-level: `{{^notes}}`"
            ])
    }

    /// A misspelt name is told the name it was likely meant to be: a data field, sitegen's own.
    @Test func aMisspeltNameGetsTheNearestKnownOne() throws {
        let s = try site(template: "{{item.nmae}}\n{{item.crad.title}}{{zzzzzz}}")
        defer { s.remove() }
        #expect(
            s.errors() == [
                "templates/film.mustache:1:1: error: unknown name 'item.nmae': no page, item or note provides "
                    + "'nmae'; did you mean 'name'?",
                "templates/film.mustache:2:1: error: unknown name 'item.crad.title': no page, item or note provides "
                    + "'crad'; did you mean 'card'?",
                "templates/film.mustache:2:20: error: unknown name 'zzzzzz': no page, item or note provides it"
            ])
    }

    /// An item's name written at the page's top level (where it prints nothing) is an error that
    /// says which records hold it; inside `{{#item}}` it is the item's.
    @Test func anItemsNameAtTheTopLevelIsAnErrorWithItsRecords() throws {
        let s = try site(template: "{{#item}}{{name}}{{/item}}{{#card}}{{title}}{{/card}}")
        defer { s.remove() }
        #expect(
            s.errors() == [
                "templates/film.mustache:1:27: error: unknown name 'card' at the page's top level: `card` is under "
                    + "`item`, `prev`, `next`: `{{#item.card}}`"
            ])
    }

    @Test func aDataFieldOfThatNameIsNoMistake() throws {
        // An item that has a field `prev` prints it: no hint.
        // Nor a name that is no page's (`src` is an image's: it prints nothing here, as before).
        let s = try site(
            template: "{{item.prev}}{{#prev}}{{name}}{{/prev}}{{site.title}}{{item.src}}",
            extraField: ", \"prev\": \"x\"")
        defer { s.remove() }
        #expect(s.errors() == [])
        // Nor is a top-level name under a record that holds no page names.
        #expect(PageViews.topLevelPart(of: ["site", "item"], records: PageViews.records(dataNames: [])) == 1)
        #expect(PageViews.topLevelPart(of: ["item", "title"], records: PageViews.records(dataNames: ["title"])) == nil)
        #expect(PageViews.topLevelPart(of: ["prev", "title"], records: PageViews.records(dataNames: [])) == nil)
        #expect(PageViews.topLevelPart(of: ["item"], records: PageViews.records(dataNames: [])) == nil)
    }

    /// The records a page's top level holds are derived from the kinds' body keys
    /// (`TemplateKey.holds`): every record-valued key has one, but a name that in some kind holds
    /// notes, whose front matter may hold any name.
    @Test func everyTopLevelRecordIsKnownButANotes() {
        let records = PageViews.records(dataNames: ["prev"])
        #expect(PageViews.topLevelPart(of: ["tag", "items"], records: records) == 1)
        #expect(PageViews.topLevelPart(of: ["pagination", "item"], records: records) == 1)
        #expect(PageViews.topLevelPart(of: ["collections", "layout"], records: records) == 1)
        #expect(PageViews.topLevelPart(of: ["next", "prev"], records: records) == nil, "an item's data field")
        #expect(PageViews.topLevelPart(of: ["note", "next"], records: records) == nil)
        #expect(PageViews.topLevelPart(of: ["items", "next"], records: records) == nil)
        #expect(records["note"] == nil && records["items"] == nil && records["notes"] == nil)
        #expect(records["tag"] == ["name", "url", "count", "countText"])
    }

    @Test func aGridTakesItsImagesAspectAndColumnsGrowingWithTheWidth() throws {
        let s = try site()
        defer { s.remove() }
        _ = try s.build().get()
        let list = try s.read("public/films/index.html")
        // Two of three posters are 600×900: the boxes are 2:3; the cards keep 16 px from the sides.
        #expect(list.contains("--media-aspect:2/3;--text-height:40px;--inset:16px;--cols:2}"))
        #expect(list.contains("@media (min-width:640px){[data-collection=\"films\"]{--cols:3}}"))
        #expect(list.contains("@media (min-width:1024px){[data-collection=\"films\"]{--cols:4}}"))
    }

    @Test func whatTheConfigurationSaysWins() throws {
        let s = try site(layout: "{ kind: grid, mediaAspect: \"7:10\", columns: { 0: 1 }, inset: 0 }")
        defer { s.remove() }
        _ = try s.build().get()
        let list = try s.read("public/films/index.html")
        #expect(list.contains("--media-aspect:7/10;--text-height:40px;--inset:0px;--cols:1}"))
        #expect(!list.contains("@media (min-width:640px)"))
    }

    @Test func cardImagesAreSizedForTheInsetGrid() throws {
        let yml = Self.siteYML.replacingOccurrences(of: "LAYOUT", with: "{ kind: grid }")
        let c = try #require(try SiteConfig.parse(yml, file: "site.yml").collections.first)
        let (widths, sizes) = ImageDefaults.outputs(c, field: "poster")
        // 2 columns below 640 px: (639 − 2 × 16 − 10) / 2 = 298.5 px at most.
        #expect(sizes.hasSuffix("calc((100vw - 42px) / 2)"), "\(sizes)")
        #expect(widths.first == 300, "\(widths)")
    }

    @Test func aTemplateThatStartsShowingDetailGetsItsFilesInServe() throws {
        let f = try Fixture(files: [
            "site.yml": Self.siteYML.replacingOccurrences(of: "LAYOUT", with: "{ kind: grid }")
                .replacingOccurrences(
                    of: "images: { fields: poster }",
                    with: "images: { fields: poster, widths: [100, 200], formats: [jpeg] }"),
            "content/films.json": "[{\"name\": \"a\", \"poster\": \"a.jpg\"}]",
            "templates/film.mustache": "{{item.name}}"
        ])
        defer { f.remove() }
        try f.write("content/a.jpg", try ImageBuildTests.photo("01"))
        var session = try SiteSession(BuildOptions(source: f.root, output: f.root.appendingPathComponent("live")))
        try f.write("templates/film.mustache", "{{#item.poster.detail}}{{srcset}}{{/item.poster.detail}}")
        _ = try session.update(["templates/film.mustache"])
        let page = try String(contentsOf: f.root.appendingPathComponent("live/films/a/index.html"), encoding: .utf8)
        // The detail column's files (760 px, or the photo's own width), not the cards' 100 and 200.
        #expect(!page.isEmpty && !page.contains("-100.jpg") && !page.contains("-200.jpg"), "\(page)")
    }

    @Test func theStarterGoesBesideDotfilesOnly() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-init-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try Data("*.log\n".utf8).write(to: dir.appendingPathComponent(".gitignore"))
        let outcome = try StarterSite.write(to: dir)
        #expect(outcome.keptGitignore)
        #expect(try String(contentsOf: dir.appendingPathComponent(".gitignore"), encoding: .utf8) == "*.log\n")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("templates/book.mustache").path))
        let fresh = dir.appendingPathComponent("fresh")
        #expect(try !StarterSite.write(to: fresh).keptGitignore)
        #expect(
            try String(contentsOf: fresh.appendingPathComponent(".gitignore"), encoding: .utf8)
                == "public/\n.sitegen-cache/\n")
        // Now it holds site.yml: refused, naming it.
        do { _ = try StarterSite.write(to: dir); Issue.record("a folder with a site in it was written over") } catch {
            #expect(
                error.description
                    == "\(dir.path): error: folder is not empty (it holds 'content'); sitegen init writes only into a new folder or one holding nothing but dotfiles such as .git"
            )
        }
    }

    @Test func ejectWritesTheThemeOnceAndNeverOverwrites() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sitegen-eject-\(UUID().uuidString)/templates")
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        let first = try ThemeEject.write(into: dir)
        #expect(first.written == ThemeEject.files.map(\.path) && first.skipped.isEmpty)
        #expect(first.written.contains("detail.mustache") && first.written.contains("assets/sitegen.css"))
        #expect(
            try String(contentsOf: dir.appendingPathComponent("card.mustache"), encoding: .utf8)
                == ThemeEject.files.first { $0.path == "card.mustache" }?.text)
        try Data("mine".utf8).write(to: dir.appendingPathComponent("detail.mustache"))
        let again = try ThemeEject.write(into: dir, names: ["detail", "card-body"])
        #expect(again == ThemeEject.Outcome(written: [], skipped: ["card-body.mustache", "detail.mustache"]))
        #expect(try String(contentsOf: dir.appendingPathComponent("detail.mustache"), encoding: .utf8) == "mine")
        #expect(throws: Diagnostic.self) { try ThemeEject.write(into: dir, names: ["detial"]) }
        do { _ = try ThemeEject.write(into: dir, names: ["detial"]) } catch {
            #expect(
                error.message.hasPrefix(
                    "the built-in theme has no 'detial'; did you mean 'detail'? it has: 404, sitegen-search.js"))
        }
    }
}
