import Testing
import SiteCore

/// What a change to a site's folder is, as `serve`'s rebuilds sort it.
@Suite struct SourceLayoutTests {
    @Test(
        arguments: [
            ("site.yml", SourceLayout.ChangeKind.configuration),
            ("content/notes/a.md", .content("notes/a.md")),
            ("content/books.json", .content("books.json")),
            ("templates/book.mustache", .template("book.mustache")),
            ("templates/partials/card.mustache", .template("partials/card.mustache")),
            ("templates/assets/site.css", .asset("site.css")),
            ("templates/assets/fonts/a.woff2", .asset("fonts/a.woff2")),
            ("templates/assets", .template("assets")),
            ("templates/assetsx/a.css", .template("assetsx/a.css"))
        ] as [(String, SourceLayout.ChangeKind)])
    func changesOfTheSources(path: String, kind: SourceLayout.ChangeKind) {
        #expect(SourceLayout.change(at: path) == kind)
    }

    @Test(arguments: [
        "public/index.html", "content", "templates", "README.md", ".sitegen-cache/x", "content/.a.md.swp",
        "content/.git/x", "templates/.x.mustache", "other/site.yml"
    ])
    func notSources(path: String) {
        #expect(SourceLayout.change(at: path) == nil)
    }

    @Test func namesInMessages() {
        #expect(SourceLayout.contentFile("notes/a.md") == "content/notes/a.md")
        #expect(SourceLayout.templateFile("a.mustache") == "templates/a.mustache")
        #expect(SourceLayout.assetFile("a.css") == "templates/assets/a.css")
        #expect(SourceLayout.watched == ["site.yml", "content", "templates"])
    }

    /// A note's file is named by its extension, in any case; a file merely ending in the
    /// letters is not one.
    @Test func noteFilesByTheirExtension() {
        #expect(SourceLayout.isNoteFile("notes/a.md") && SourceLayout.isNoteFile("A.MD"))
        #expect(
            !SourceLayout.isNoteFile("notes/a.mdx") && !SourceLayout.isNoteFile("readme")
                && !SourceLayout.isNoteFile("amd"))
    }
}
