import Foundation
import SiteCore
import SiteLoad
@testable import SiteBuild
import Testing

/// The page kinds' declarations (issue 51): the template each kind's pages render, the
/// configuration's when it names one, and what a kind's declaration says of images.
@Suite struct PageKindTests {
    static let siteYML = """
        title: T
        baseURL: https://example.org/
        collections:
          films:
            data: films.json
            slug: name
            card: { title: name }
            LIST
            DETAIL
        NOTES

        """

    static func site(list: String = "", detail: String = "", notes: String = "") throws -> Fixture {
        try Fixture(files: [
            "site.yml": siteYML.replacingOccurrences(of: "LIST", with: list)
                .replacingOccurrences(of: "DETAIL", with: detail).replacingOccurrences(of: "NOTES", with: notes),
            "content/films.json": "[{\"name\": \"a\"}]",
            "content/notes/n.md": "---\ntitle: N\ndate: 2026-01-02\n---\nText.\n",
            "templates/my-list.mustache": "my list {{collection.title}}",
            "templates/my-detail.mustache": "my detail {{item.name}}",
            "templates/my-note.mustache": "my note {{note.title}}",
            "templates/my-notes.mustache": "my notes {{collection.title}}"
        ])
    }

    /// Without a template named, each kind renders its built-in one; with one, that one.
    @Test func theConfigurationNamesEachKindsTemplate() throws {
        let plain = try Self.site()
        defer { plain.remove() }
        _ = try plain.build().get()
        for page in ["films/index.html", "films/a/index.html", "notes/n/index.html", "notes/index.html"] {
            #expect(try !plain.read("public/" + page).hasPrefix("my "), "\(page)")
        }
        let named = try Self.site(
            list: "list: { template: my-list }", detail: "detail: { template: my-detail }",
            notes: "notes: { template: my-note, list: { template: my-notes } }")
        defer { named.remove() }
        _ = try named.build().get()
        #expect(try named.read("public/films/index.html") == "my list films")
        #expect(try named.read("public/films/a/index.html") == "my detail a")
        #expect(try named.read("public/notes/n/index.html") == "my note N")
        #expect(try named.read("public/notes/index.html") == "my notes Notes")
    }

    /// Items without pages of their own (`detail: false`) get no files for a detail column:
    /// only the cards' widths are written.
    @Test func itemsWithoutPagesGetNoDetailFiles() throws {
        let f = try Fixture(files: [
            "site.yml": FirstSiteTests.siteYML.replacingOccurrences(of: "LAYOUT", with: "{ kind: grid }")
                .replacingOccurrences(
                    of: "images: { fields: poster }",
                    with: "images: { fields: poster, widths: [100, 200], formats: [jpeg] }"
                ).replacingOccurrences(of: "detail: { template: film }", with: "detail: false"),
            "content/films.json": "[{\"name\": \"a\", \"poster\": \"a.jpg\"}]"
        ])
        defer { f.remove() }
        try f.write("content/a.jpg", try ImageBuildTests.photo("01"))
        _ = try f.build().get()
        let images = try f.snapshot().keys.filter { $0.hasSuffix(".jpg") && $0 != "a.jpg" }
        #expect(
            !images.isEmpty && images.allSatisfy { $0.hasSuffix("-100.jpg") || $0.hasSuffix("-200.jpg") }, "\(images)")
    }

    /// An image and its `detail` are one encoding of two sets of files: a resized image's own
    /// (card widths) and its detail column's (other widths), each with each format's `srcset`
    /// by name and the image's placeholder; a file shown as it is has its own as `detail`.
    @Test func anImageAndItsDetailShowTheirOwnFiles() throws {
        let own =
            "{{src}}|{{width}}|{{srcset}}|webp={{webp}}|jpeg={{jpeg}}|avif={{avif}}|ph={{placeholder.color}}|"
            + "{{#sources}}{{type}};{{/sources}}"
        let f = try Fixture(files: [
            "site.yml": FirstSiteTests.siteYML.replacingOccurrences(of: "LAYOUT", with: "{ kind: grid }")
                .replacingOccurrences(
                    of: "images: { fields: poster }",
                    with: "images: { fields: poster, widths: [100, 200], formats: [webp, jpeg] }"),
            "content/films.json": "[{\"name\": \"a\", \"poster\": \"a.jpg\"}]",
            "templates/film.mustache": "{{#item.poster}}\(own)\n{{#detail}}\(own){{/detail}}{{/item.poster}}",
            "templates/list.mustache": "{{#items}}{{#card.image.detail}}\(own){{/card.image.detail}}{{/items}}"
        ])
        defer { f.remove() }
        try f.write("content/a.jpg", try ImageBuildTests.photo("01"))
        _ = try f.build().get()
        let lines = try f.read("public/films/a/index.html").split(separator: "\n").map {
            $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        }
        try #require(lines.count == 2 && lines.allSatisfy { $0.count == 8 }, "\(lines)")
        let (image, detail) = (lines[0], lines[1])
        #expect(image[2].contains("-100.jpg 100w") && image[3].contains("-100.webp 100w"), "\(image)")
        #expect(image[4] == "jpeg=" && image[5] == "avif=" && image[7] == "image/webp;", "\(image)")
        #expect(image[6].count > "ph=".count, "\(image)")
        #expect(detail[0] != image[0] && detail[1] != image[1] && !detail[2].contains("-100.jpg"), "\(detail)")
        #expect(detail[3].hasPrefix("webp=") && detail[3] != image[3] && detail[3].count > 5, "\(detail)")
        #expect(detail[6] == image[6] && detail[7] == "image/webp;", "\(detail)")
        // A file shown as it is (an SVG): its `detail` is its own `src`, `width` and `height`,
        // nothing else (dotted names: a section would find the image's names through the
        // context stack).
        let svg = try Fixture(files: [
            "site.yml": FirstSiteTests.siteYML.replacingOccurrences(of: "LAYOUT", with: "{ kind: grid }"),
            "content/films.json": "[{\"name\": \"a\", \"poster\": \"p.svg\"}]",
            "content/p.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 60 90\"></svg>",
            "templates/film.mustache": "{{#item.poster}}{{src}}|{{width}}|{{detail.src}}|{{detail.width}}|"
                + "{{detail.height}}|{{detail.srcset}}|{{detail.placeholder.color}}|{{placeholder.color}}"
                + "{{/item.poster}}"
        ])
        defer { svg.remove() }
        _ = try svg.build().get()
        let plain = try svg.read("public/films/a/index.html").split(separator: "|", omittingEmptySubsequences: false)
        let expected: [String] = [String(plain[0]), "60", String(plain[0]), "60", "90", "", "", ""]
        #expect(plain.map(String.init) == expected)
        #expect(plain[0].hasSuffix("p.svg"))
    }

    /// A note's front matter shows under its own name unless sitegen gives the note that
    /// name: `html` is the front matter's on lists (which show no body), the body on its page.
    @Test func aNoteShowsItsFrontMatterWhereSitegenGivesNothing() throws {
        let f = try Self.site()
        defer { f.remove() }
        try f.write("content/notes/n.md", "---\ntitle: N\nhtml: raw\nmood: calm\n---\nText.\n")
        try f.write("templates/notes.mustache", "{{#items}}[{{html}}|{{mood}}]{{/items}}")
        try f.write("templates/note.mustache", "[{{{note.html}}}|{{note.mood}}]")
        _ = try f.build().get()
        #expect(try f.read("public/notes/index.html") == "[raw|calm]")
        #expect(try f.read("public/notes/n/index.html") == "[<p>Text.</p>\n|calm]")
    }

    /// `site.tagsTitle` is there when notes have tags (beside `site.tags`), absent otherwise.
    @Test func theTagsTitleOnlyWithTags() throws {
        let f = try Self.site()
        defer { f.remove() }
        try f.write("templates/my-list.mustache", "[{{site.tagsTitle}}|{{site.tags}}]")
        try f.write(
            "site.yml",
            Self.siteYML.replacingOccurrences(of: "LIST", with: "list: { template: my-list }")
                .replacingOccurrences(of: "DETAIL", with: "").replacingOccurrences(of: "NOTES", with: ""))
        _ = try f.build().get()
        #expect(try f.read("public/films/index.html") == "[|]")
        try f.write("content/notes/n.md", "---\ntitle: N\ntags: [sea]\n---\nText.\n")
        _ = try f.build().get()
        #expect(try f.read("public/films/index.html") == "[Tags|/tags/]")
    }
}
