import Foundation
import Testing
@testable import SiteRender

/// Values are escaped for HTML, and values a browser would run as a URL are neutralised where
/// they start a URL attribute.
@Suite struct SafeHTMLTests {
    func render(_ template: String, _ context: [String: Any]) throws -> String {
        try templateLibrary(["t": template]).render("t", context)
    }

    static func escaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
            of: ">", with: "&gt;"
        )
        .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
    }

    @Test func escapesTheFiveCharacters() {
        #expect(SafeHTML.escape(#"<a href="x">'&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        #expect(SafeHTML.escape("플레인 text") == "플레인 text")
        #expect(SafeHTML.escape("") == "")
    }

    /// Each special character alone, so the pre-scan that skips plain text must know all five:
    /// a lone `'` left raw would close a single-quoted attribute.
    @Test(arguments: [("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("'", "&#39;")])
    func eachSpecialCharacterAloneIsEscaped(raw: String, escaped: String) throws {
        #expect(SafeHTML.escape("Ocean\(raw)s Eleven") == "Ocean\(escaped)s Eleven")
        #expect(SafeHTML.escape(raw) == escaped)
        let html = try render("<img alt='{{v}}' title=\"{{v}}\">", ["v": "x\(raw) onerror=alert(1) y"])
        #expect(html == "<img alt='x\(escaped) onerror=alert(1) y' title=\"x\(escaped) onerror=alert(1) y\">")
    }

    @Test(arguments: [
        "javascript:alert(1)", "JaVaScRiPt:alert(1)", "  javascript:alert(1)", "\u{1}\u{8}javascript:alert(1)",
        "java\tscript:alert(1)", "java\nscript:alert(1)", "jav\r\nascript:alert(1)", "vbscript:msgbox(1)",
        "data:text/html,<script>alert(1)</script>", "DATA:image/svg+xml;base64,PHN2Zz4=", "javascript:"
    ])
    func unsafeSchemesAreNeutralisedInURLAttributes(value: String) throws {
        let html = try render(
            #"<a href="{{v}}">{{v}}</a><img src='{{v}}' alt="{{v}}"><form action={{v}}></form><a HREF = "{{v}}">x</a>"#,
            ["v": value])
        let inert = SafeHTML.neutralisedURL
        #expect(html.hasPrefix(#"<a href="\#(inert)">"#), "\(html)")
        #expect(html.contains(#"<img src='\#(inert)' alt=""#), "\(html)")
        #expect(html.contains("<form action=\(inert)></form>"), "\(html)")
        #expect(html.contains(#"<a HREF = "\#(inert)">x</a>"#), "\(html)")
        // As text and in other attributes the value stays (escaped), without the marks.
        #expect(html.contains(">\(Self.escaped(value))</a>"), "\(html)")
        #expect(html.contains(#"alt="\#(Self.escaped(value))""#), "\(html)")
        #expect(!html.unicodeScalars.contains { $0.value == 0xFDD0 || $0.value == 0xFDD1 }, "no mark is left")
    }

    @Test(arguments: [
        "https://example.org/a?b=c&d", "/bounties/luffy/", "mailto:a@example.org", "tel:+82-2-123",
        "javascript-guide.html", "java script:alert(1)", "#top", "./data:x", "notes/data:1"
    ])
    func otherURLsStay(value: String) throws {
        let html = try render(#"<a href="{{v}}">x</a>"#, ["v": value])
        #expect(html == #"<a href="\#(Self.escaped(value))">x</a>"#)
    }

    @Test func aValueAfterAPrefixIsARelativePath() throws {
        // `{{root}}{{v}}` makes `/javascript:…`, a path on the site: nothing to neutralise.
        let html = try render(#"<a href="{{root}}{{v}}">x</a>"#, ["root": "/", "v": "javascript:alert(1)"])
        #expect(html == #"<a href="/javascript:alert(1)">x</a>"#)
    }

    @Test func marksInTheDataAreEscapedAndRawHTMLIsTheTemplatesChoice() throws {
        // A value holding the noncharacters sitegen marks with cannot fake a mark.
        let mark = { (v: UInt32) in String(Character(Unicode.Scalar(v)!)) }  // not writable as literals
        let fake = mark(0xFDD0) + "javascript:alert(1)" + mark(0xFDD1)
        let html = try render(#"<a href="{{v}}">x</a>"#, ["v": fake])
        #expect(html == #"<a href="&#xFDD0;javascript:alert(1)&#xFDD1;">x</a>"#)
        // Triple mustache is the template asking for raw HTML: left as it is.
        let raw = try render(#"<a href="{{{v}}}">x</a>"#, ["v": "javascript:alert(1)"])
        #expect(raw == #"<a href="javascript:alert(1)">x</a>"#)
    }

    @Test func partialsAndParentsEscapeTheSameWay() throws {
        let html = try templateLibrary([
            "base": #"<main>{{$body}}{{/body}}</main>"#,
            "link": #"<a href="{{v}}">{{v}}</a>"#,
            "page": "{{<base}}{{$body}}{{>link}}<img src=\"{{v}}\">{{/body}}{{/base}}"
        ]).render("page", ["v": "javascript:x"])
        let inert = SafeHTML.neutralisedURL
        #expect(html == #"<main><a href="\#(inert)">javascript:x</a><img src="\#(inert)"></main>"#)
    }

    /// The pragma sitegen puts first does not shift swift-mustache's line numbers: it notices the
    /// unclosed tag at the line break after `{{oops`, the start of line 3 (not 4).
    @Test func syntaxErrorsKeepTheirLineNumbers() throws {
        do {
            _ = try templateLibrary(["t": "line 1\nline 2 {{oops\nline 3\n"])
            Issue.record("no error")
        } catch {
            #expect(
                error.items.map(\.description) == [
                    "templates/t.mustache:3:1: error: template syntax error: a tag is not closed with }}"
                ])
        }
    }
}
