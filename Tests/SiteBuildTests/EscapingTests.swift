import Foundation
import SiteCore
import Testing
@testable import SiteBuild

/// Values from datasets and front matter are text wherever the built-in theme prints them:
/// element text, attributes, URLs, the JSON search index. A dataset cannot inject markup.
@Suite struct EscapingTests {
    static let hostile = #"<script>alert(1)</script> "q" 'a' & </title><img src=x onerror=alert(2)>"#

    static func site() throws -> Fixture {
        let json = try JSONSerialization.data(withJSONObject: [["id": "one", "name": hostile, "note": hostile]])
        return try Fixture(files: [
            "site.yml": """
            title: T
            baseURL: https://example.org/
            description: "\(hostile.replacingOccurrences(of: "\"", with: "\\\""))"
            collections:
              things:
                title: Things
                data: things.json
                slug: id
                card: { title: name, subtitle: note }
                search: { url: /search/things.json, fields: [name, note] }
            """,
            "content/things.json": String(decoding: json, as: UTF8.self),
            "content/notes/n.md":
                "---\ntitle: '\(hostile.replacingOccurrences(of: "'", with: "''"))'\nsummary: \"\(hostile.replacingOccurrences(of: "\"", with: "\\\""))\"\n---\nBody <b onclick=\"x()\">raw</b> <script>alert(3)</script> & text.\n"
        ])
    }

    @Test func hostileValuesAreTextInEveryPage() throws {
        let f = try Self.site()
        defer { f.remove() }
        _ = try f.build().get()
        let pages = try f.snapshot().filter { $0.key.hasSuffix(".html") }
        #expect(pages.count >= 5)
        for (path, data) in pages {
            let html = String(decoding: data ?? Data(), as: UTF8.self)
            #expect(!html.contains("<script>alert(1)"), "\(path): a <script> from the data is markup")
            #expect(!html.contains("<img src=x"), "\(path): an <img> from the data is markup")
            #expect(!html.contains("</title><img"), "\(path): </title> from the data closes the title")
            #expect(!html.contains("onerror=alert(2)>\""), "\(path)")
            // Every quote from the data inside an attribute is escaped: no attribute value ends early.
            #expect(!html.contains("\"q\" 'a'"), "\(path): quotes from the data are not escaped")
        }
        let item = String(decoding: try #require(pages["things/one/index.html"] ?? nil), as: UTF8.self)
        #expect(item.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the value is shown as text")
        // Markdown's raw HTML goes through the allowlist: <b> stays, its handler and <script> go.
        let note = String(decoding: try #require(pages["notes/n/index.html"] ?? nil), as: UTF8.self)
        #expect(note.contains("<b>raw</b>") && !note.contains("onclick") && !note.contains("<script>alert(3)"))
    }

    @Test func theSearchIndexIsJSONHoldingTheText() throws {
        let f = try Self.site()
        defer { f.remove() }
        _ = try f.build().get()
        let data = try Data(contentsOf: f.output.appendingPathComponent("search/things.json"))
        let index = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let items = try #require(index["items"] as? [[String: Any]])
        #expect(items.first?["title"] as? String == Self.hostile, "the title round-trips as text")
    }

    /// A template printing a dataset field as a link: `javascript:` and `data:` values become an
    /// inert URL, an https link stays, and the value is still text where it is shown.
    @Test func linkFieldsWithScriptSchemesAreNeutralised() throws {
        let items: [[String: String]] = [
            ["id": "js", "link": " JavaScript:alert(document.domain)"],
            ["id": "data", "link": "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="],
            ["id": "web", "link": "https://example.org/?a=1&b=2"]
        ]
        let json = try JSONSerialization.data(withJSONObject: items)
        let f = try Fixture(files: [
            "site.yml": """
            title: T
            baseURL: https://example.org/
            collections:
              links:
                data: links.json
                slug: id
                fields: { link: string }
                list: { template: links-list, url: /links/ }
                detail: { template: links-item, url: "/links/{slug}/" }
            """,
            "content/links.json": String(decoding: json, as: UTF8.self),
            "templates/links-list.mustache":
                "<ul>{{#items}}<li><a href=\"{{link}}\">{{link}}</a></li>{{/items}}</ul>\n",
            "templates/links-item.mustache": "<p><a href='{{item.link}}' title=\"{{item.link}}\">go</a></p>\n"
        ])
        defer { f.remove() }
        _ = try f.build().get()
        let list = try f.read("public/links/index.html")
        let inert = "about:invalid#sitegen-unsafe-url"
        #expect(
            list == """
                <ul><li><a href="\(inert)"> JavaScript:alert(document.domain)</a></li>\
                <li><a href="\(inert)">data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==</a></li>\
                <li><a href="https://example.org/?a=1&amp;b=2">https://example.org/?a=1&amp;b=2</a></li></ul>

                """)
        #expect(
            try f.read("public/links/js/index.html")
                == "<p><a href='\(inert)' title=\" JavaScript:alert(document.domain)\">go</a></p>\n")
        #expect(
            try f.read("public/links/web/index.html")
                == "<p><a href='https://example.org/?a=1&amp;b=2' title=\"https://example.org/?a=1&amp;b=2\">go</a></p>\n"
        )
    }

    /// Raw HTML goes through the allowlist; a note keeps all of it with `unsafeHTML: true`.
    @Test func rawHTMLInMarkdownOnlyWhereANoteOptsIn() throws {
        let body = "<b>raw</b> <i style=\"x\">i</i> [x](javascript:alert(1))\n"
        let f = try Fixture(files: [
            "site.yml": "title: T\nbaseURL: https://example.org/\n",
            "content/notes/safe.md": "---\ntitle: Safe\n---\n" + body,
            "content/notes/trusted.md": "---\ntitle: Trusted\nunsafeHTML: true\n---\n" + body
        ])
        defer { f.remove() }
        _ = try f.build().get()
        let safe = try f.read("public/notes/safe/index.html")
        #expect(safe.contains("<b>raw</b>") && safe.contains("<i>i</i>"))
        #expect(!safe.contains("javascript:alert"), "the allowlist drops javascript: links")
        let trusted = try f.read("public/notes/trusted/index.html")
        #expect(
            trusted.contains("<b>raw</b>") && trusted.contains("<i style=\"x\">i</i>")
                && trusted.contains("javascript:alert"))
        try f.write("content/notes/trusted.md", "---\ntitle: Trusted\nunsafeHTML: yes please\n---\n" + body)
        #expect(f.errors() == ["content/notes/trusted.md:3: error: front matter 'unsafeHTML' must be true or false"])
    }
}
