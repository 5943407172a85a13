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
            "content/notes/n.md": "---\ntitle: '\(hostile.replacingOccurrences(of: "'", with: "''"))'\nsummary: \"\(hostile.replacingOccurrences(of: "\"", with: "\\\""))\"\n---\nBody <b>raw</b> & text.\n",
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
        // Markdown's raw HTML stays out (cmark's safe mode).
        let note = String(decoding: try #require(pages["notes/n/index.html"] ?? nil), as: UTF8.self)
        #expect(!note.contains("<b>raw</b>"))
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
}
