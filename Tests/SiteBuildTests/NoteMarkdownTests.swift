import Foundation
import Testing
@testable import SiteBuild

/// Notes as GitHub renders READMEs, in a built site: links between notes, warnings, contents.
@Suite struct NoteMarkdownTests {
    static let head = "title: T\nbaseURL: https://example.org/\n"

    /// `[x](other.md)`, `../notes/other.md#usage` and `/notes/…` become the other note's page URL
    /// (the fragment kept); a note attached to an item links to the item's page.
    @Test func linksBetweenNotesBecomePageURLs() throws {
        let f = try Fixture(files: [
            "site.yml": Self.head
                + "collections:\n  things:\n    data: things.json\n    slug: name\n    detail: { template: detail, url: \"/things/{slug}/\" }\n",
            "content/things.json": "[{\"name\": \"one\"}]",
            "content/notes/a.md":
                "---\ntitle: A\n---\n[b](b.md) [usage](../notes/b.md#usage) [root](/notes/sub/c.md) [raw](<b.md?x=1>) <a href=\"sub/c.md\">html</a> [att](att.md#setup)\n",
            "content/notes/b.md": "---\ntitle: B\nslug: bee\n---\n## Usage\n",
            "content/notes/sub/c.md": "---\ntitle: C\n---\n[back](../a.md)\n",
            "content/notes/att.md": "---\ntitle: Att\nitem: things/one\n---\n## Setup\n"
        ])
        defer { f.remove() }
        _ = try f.build().get()
        let a = try f.read("public/notes/a/index.html")
        #expect(
            a.contains(
                ##"<a href="/notes/bee/">b</a> <a href="/notes/bee/#usage">usage</a> <a href="/notes/c/">root</a> <a href="/notes/bee/">raw</a> <a href="/notes/c/">html</a> <a href="/things/one/#att-setup">att</a>"##
            ))
        #expect(try f.read("public/notes/c/index.html").contains(#"<a href="/notes/a/">back</a>"#))
        #expect(try f.read("public/things/one/index.html").contains(##"<h2 id="att-setup">Setup"##))
    }

    @Test func aLinkToAMissingNoteIsAnErrorAtItsLine() throws {
        let f = try Fixture(files: [
            "site.yml": Self.head,
            "content/notes/a.md":
                "---\ntitle: A\n---\nText\n\nSee [gone](gone.md#x).\n\n<a href=\"../../up.md\">up</a>\n",
            "content/notes/d.md": "---\ntitle: D\ndraft: true\n---\nD\n",
            "content/notes/e.md": "[draft](d.md)\n"
        ])
        defer { f.remove() }
        #expect(
            f.errors() == [
                "content/notes/a.md:6: error: link to 'gone.md#x': content/notes/gone.md is no such note",
                "content/notes/a.md:8: error: link to '../../up.md' leaves content/",
                "content/notes/e.md:1: error: link to 'd.md': content/notes/d.md is a draft, left out of this build (--drafts includes it)"
            ])
    }

    /// The built-in note page shows the table of contents when the front matter asks for it.
    @Test func tocTrueShowsTheContents() throws {
        let f = try Fixture(files: [
            "site.yml": Self.head,
            "content/notes/a.md": "---\ntitle: A\ntoc: true\n---\n## One\n### One.1\n## Two\n",
            "content/notes/b.md": "---\ntitle: B\n---\n## One\n"
        ])
        defer { f.remove() }
        _ = try f.build().get()
        #expect(
            try f.read("public/notes/a/index.html").contains(
                ##"<nav class="toc" aria-label="Contents"><ol><li><a href="#one">One</a><ol><li><a href="#one1">One.1</a></li></ol></li><li><a href="#two">Two</a></li></ol></nav>"##
            ))
        #expect(!(try f.read("public/notes/b/index.html")).contains("class=\"toc\""))
    }

    /// A 40×30 PNG.
    static let png = Data(
        base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAACgAAAAeAQMAAABkE86eAAAAA1BMVEUzZswgIiSpAAAADElEQVQI12NgGHoAAAC0AAFecZC/AAAAAElFTkSuQmCC"
    )!

    /// `![alt](photo.png)` and `<img src=…>` beside the note or from `content/` go through the image
    /// step: a <picture> with AVIF/WebP, width/height, the placeholder, lazy after the first;
    /// the author's width wins (height in proportion); remote images stay as they are.
    @Test func noteImagesAreResized() throws {
        let f = try Fixture(files: [
            "site.yml": Self.head,
            "content/notes/a.md":
                "---\ntitle: A\n---\n![first](shot.png)\n\n<p align=\"center\"><img width=\"20\" alt=\"B\" src=\"/pics/b.png\"></p>\n\n![far](https://example.org/x.png)\n"
        ])
        defer { f.remove() }
        try f.write("content/notes/shot.png", Self.png)
        try f.write("content/pics/b.png", Self.png)
        _ = try f.build().get()
        let a = try f.read("public/notes/a/index.html")
        let pictures = a.matches(of: /<picture>.*?<\/picture>/).map { String($0.output) }
        #expect(pictures.count == 2)
        #expect(
            pictures[0].contains("<source type=\"image/avif\"") && pictures[0].contains("<source type=\"image/webp\""))
        #expect(
            pictures[0].contains(" width=\"40\" height=\"30\" alt=\"first\" style=\"background-color:#")
                && !pictures[0].contains("loading="))
        #expect(
            pictures[1].contains(" width=\"20\" height=\"15\" alt=\"B\"") && pictures[1].contains("loading=\"lazy\""))
        #expect(a.contains("<img src=\"https://example.org/x.png\" alt=\"far\">"))
        // The files named exist.
        for src in a.matches(of: /\/assets\/img\/[0-9a-f]+-40\.(avif|webp|png)/) {
            #expect(FileManager.default.fileExists(atPath: f.output.path + String(src.output.0)), "\(src.output.0)")
        }
    }

    @Test func aMissingOrOutsideImageIsAnErrorAtItsLine() throws {
        let f = try Fixture(files: [
            "site.yml": Self.head,
            "content/notes/a.md": "---\ntitle: A\n---\nText\n\n![gone](gone.png)\n",
            "content/notes/b.md": "<img src=\"../../secret.png\">\n"
        ])
        defer { f.remove() }
        #expect(
            f.errors() == [
                "content/notes/a.md:6: error: image 'content/notes/gone.png' does not exist",
                "content/notes/b.md:1: error: image '../../secret.png' leaves content/"
            ])
    }
}
