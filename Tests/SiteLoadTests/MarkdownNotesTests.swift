import Foundation
import Testing
import SiteCore
import SiteMarkdown
@testable import SiteLoad

/// `markdown:` in site.yml, and what a note's loading makes of GFM: warnings, headings, code.
@Suite struct MarkdownConfigTests {
    static let head = "title: T\nbaseURL: https://x.org/\n"

    @Test func defaultsAreGitHubs() throws {
        let c = try SiteConfig.parse(Self.head, file: "site.yml")
        #expect(c.markdown == MarkdownOptions())
        #expect(c.markdown.tables && c.markdown.footnotes && !c.markdown.smart && c.markdown.html == .allowlist)
    }

    @Test func extensionsTurnOffAndSmartOn() throws {
        let c = try SiteConfig.parse(
            Self.head + """
                markdown:
                  tables: false
                  strikethrough: false
                  autolinks: false
                  taskLists: false
                  footnotes: false
                  tagfilter: false
                  smart: true
                  html: trusted

                """, file: "site.yml")
        var want = MarkdownOptions()
        want.tables = false; want.strikethrough = false; want.autolinks = false; want.taskLists = false
        want.footnotes = false; want.tagfilter = false; want.smart = true; want.html = .trusted
        #expect(c.markdown == want)
        #expect(try SiteConfig.parse(Self.head + "markdown: { html: none }\n", file: "site.yml").markdown.html == .none)
    }

    @Test func mistakesAreErrorsAtTheirLine() {
        #expect(
            configErrors(Self.head + "markdown:\n  tabels: false\n")
                == [
                    "site.yml:4:3: error: unknown key 'markdown.tabels'; did you mean 'tables'? (expected one of: autolinks, footnotes, html, smart, strikethrough, tables, tagfilter, taskLists)"
                ])
        #expect(
            configErrors(Self.head + "markdown:\n  html: unsafe\n")
                == ["site.yml:4:9: error: 'markdown.html' must be one of allowlist, none, trusted (found 'unsafe')"])
        #expect(
            configErrors(Self.head + "markdown:\n  smart: yes please\n")
                == ["site.yml:4:10: error: 'markdown.smart' must be true or false"])
        #expect(
            configErrors(Self.head + "markdown: gfm\n")
                == ["site.yml:3:11: error: 'markdown' must be a mapping of names to values, found 'gfm'"])
    }
}

@Suite struct MarkdownNotesTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-notes-\(UUID().uuidString)")

    func load(_ text: String, markdown: MarkdownOptions = MarkdownOptions()) throws -> Note? {
        let url = root.appendingPathComponent("notes/n.md")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return try NoteLoader(
            content: try ContentTree.scan(root), notesCollection: "bounties", includeDrafts: false,
            markdown: markdown, reservedIDs: ["main"]
        ).load("notes/n.md")
    }

    /// One warning per note, at the line of the first thing removed, naming everything removed.
    @Test func removedHTMLIsOneWarningAtItsLine() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let note = try #require(
            try load(
                "---\ntitle: N\n---\nText\n\n<p align=\"center\" style=\"x\">a</p>\n<div onclick=\"y()\">b</div>\n<script>alert(1)</script>\n",
                markdown: {
                    var o = MarkdownOptions(); o.tagfilter = false; return o
                }()))
        #expect(
            note.warnings.map(\.warningDescription) == [
                "content/notes/n.md:6: warning: raw HTML removed by the allowlist: style=\"…\", onclick=\"…\", <script> (front matter 'unsafeHTML: true' keeps a trusted note's HTML as written)"
            ])
        #expect(note.html.contains("<p align=\"center\">a</p>") && !note.html.contains("alert"))
    }

    @Test func trustedAndCleanNotesWarnNothing() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try load("---\nunsafeHTML: true\n---\n<div onclick=\"y()\">b</div>\n")?.warnings == [])
        #expect(try load("<p align=\"center\">ok</p>\n")?.warnings == [])
    }

    @Test func headingsCodeAndContents() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let note = try #require(
            try load("---\ntoc: true\n---\n# Main\n## Usage\n```swift=\nlet a = 1\n```\n```\nplain\n```\n"))
        #expect(note.headings.map(\.id) == ["main-1", "usage"])  // `main` is the theme's
        #expect(note.showsContents)
        #expect(note.codeLanguages == ["swift"])
        #expect(
            note.html.contains(
                "<pre class=\"code\" tabindex=\"0\"><code class=\"language-swift\">let a = 1\n</code></pre>"))
        #expect(try load("# A\n")?.showsContents == false)
    }

    /// A note attached to an item shares its page with others: its heading ids carry its slug,
    /// and its own `#fragment` links follow.
    @Test func attachedNotesPrefixTheirHeadingIDs() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let note = try #require(try load("---\nitem: luffy\nslug: log\n---\n[see](#usage)\n\n## Usage\n"))
        #expect(note.headings.map(\.id) == ["log-usage"])
        #expect(note.html.contains("<a href=\"#log-usage\">see</a>"))
    }

    @Test func tomlFrontMatterIsAnErrorAtLine1() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(
            throws: Diagnostic(
                file: "content/notes/n.md", line: 1, column: 1,
                "TOML front matter ('+++') is not supported: sitegen reads YAML front matter between '---' lines")
        ) {
            try load("+++\ntitle = \"N\"\n+++\nText\n")
        }
    }
}
