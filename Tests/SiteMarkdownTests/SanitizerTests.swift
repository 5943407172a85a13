import Foundation
import Testing
@testable import SiteMarkdown

/// The raw HTML allowlist: one test per construct kept and per construct removed, and the
/// mutation-XSS corpus (`fuzz/seeds/sanitizer/`, also the fuzzer's seeds).
@Suite struct SanitizerTests {
    /// The allowlist mode without the tag filter, so that the sanitiser alone meets `<script>` & co.
    static let renderer: MarkdownRenderer = {
        var o = MarkdownOptions()
        o.tagfilter = false
        return MarkdownRenderer(options: o)
    }()

    static func sanitise(_ html: String) throws -> RenderedMarkdown {
        try renderer.render(html, MarkdownRenderer.Context())
    }

    @Test(arguments: [
        ("<p align=\"center\">x</p>", "<p align=\"center\">x</p>"),
        (
            "<div align=\"right\" dir=\"rtl\" lang=\"ar\" title=\"t\">x</div>",
            "<div align=\"right\" dir=\"rtl\" lang=\"ar\" title=\"t\">x</div>"
        ),
        (
            "<img width=\"250\" height=\"100\" alt=\"B\" src=\"https://x.org/a.png\">",
            "<img width=\"250\" height=\"100\" alt=\"B\" src=\"https://x.org/a.png\">"
        ),
        ("<img src=\"shots/a.png\" alt=\"rel\">", "<img src=\"shots/a.png\" alt=\"rel\">"),
        ("<a href=\"https://x.org/\" title=\"t\">x</a>", "<a href=\"https://x.org/\" title=\"t\">x</a>"),
        ("<a href=\"http://x.org/\">x</a>", "<a href=\"http://x.org/\">x</a>"),
        ("<a href=\"mailto:dev@example.org\">m</a>", "<a href=\"mailto:dev@example.org\">m</a>"),
        ("<a href=\"../other/\">r</a>", "<a href=\"../other/\">r</a>"),
        ("<a href=\"#usage\">f</a>", "<a href=\"#usage\">f</a>"),
        (
            "<details open><summary>More</summary>text</details>",
            "<details open=\"\"><summary>More</summary>text</details>"
        ),
        (
            "<kbd>Ctrl</kbd><sup>2</sup><sub>i</sub><ins>n</ins><del>o</del><s>s</s><mark>m</mark><small>s</small>",
            "<kbd>Ctrl</kbd><sup>2</sup><sub>i</sub><ins>n</ins><del>o</del><s>s</s><mark>m</mark><small>s</small>"
        ),
        ("<ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby>", "<ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby>"),
        (
            "<b>b</b><i>i</i><em>e</em><strong>s</strong><code>c</code><tt>t</tt><abbr title=\"x\">a</abbr><q cite=\"https://x.org\">q</q>",
            "<b>b</b><i>i</i><em>e</em><strong>s</strong><code>c</code><tt>t</tt><abbr title=\"x\">a</abbr><q cite=\"https://x.org\">q</q>"
        ),
        ("<p>a<br>b</p><hr>", "<p>a<br>b</p><hr>"),
        ("<pre>x\n  y</pre>", "<pre>x\n  y</pre>"),
        ("<pre>\n\nx</pre>", "<pre>\n\nx</pre>"),  // the parser drops the first line break: written back
        ("<blockquote cite=\"https://x.org\">q</blockquote>", "<blockquote cite=\"https://x.org\">q</blockquote>"),
        (
            "<table border=\"1\"><tr><td colspan=\"2\" valign=\"top\">c</td></tr></table>",
            "<table border=\"1\"><tbody><tr><td colspan=\"2\" valign=\"top\">c</td></tr></tbody></table>"
        ),
        (
            "<ol start=\"3\" type=\"a\"><li>x</li></ol><ul><li>y</li></ul><dl><dt>t</dt><dd>d</dd></dl>",
            "<ol start=\"3\" type=\"a\"><li>x</li></ol><ul><li>y</li></ul><dl><dt>t</dt><dd>d</dd></dl>"
        ),
        (
            "<picture><source media=\"(prefers-color-scheme: dark)\" srcset=\"https://x.org/d.png\"><img src=\"https://x.org/l.png\" alt=\"l\"></picture>",
            "<picture><source media=\"(prefers-color-scheme: dark)\" srcset=\"https://x.org/d.png\"><img src=\"https://x.org/l.png\" alt=\"l\"></picture>"
        ),
        (
            "<figure><img src=\"a.png\" alt=\"\"><figcaption>c</figcaption></figure>",
            "<figure><img src=\"a.png\" alt=\"\"><figcaption>c</figcaption></figure>"
        ),
        (
            "<span aria-label=\"x\" role=\"note\">s</span><time datetime=\"2024-01-01\">t</time>",
            "<span aria-label=\"x\" role=\"note\">s</span><time datetime=\"2024-01-01\">t</time>"
        )
    ])
    func kept(html: String, expected: String) throws {
        let out = try Self.sanitise(html)
        #expect(
            out.html.trimmingCharacters(in: .newlines) == expected
                || out.html.trimmingCharacters(in: .newlines) == "<p>\(expected)</p>")
        #expect(out.removed == [])
    }

    /// `html` parsed and written again as it is (trusted, nothing added).
    static func reparsed(_ html: String) -> String {
        let settings = HTMLRewriter.Settings(
            trusted: true, rootPath: "/", idPrefix: "", prefixHeadings: false, reservedIDs: [],
            labels: MarkdownLabels(), codeBlocks: PlainCodeBlocks(), decorateHeadings: false)
        return HTMLRewriter.rewrite(MarkedHTML(html: html, marker: "sitegen-m0"), settings: settings).html
    }

    /// Trees the parser builds but would not build again from their HTML come out as HTML that
    /// parses back to itself: what is left out is the nesting (`nested`), never the text.
    @Test(arguments: [
        // A heading inside a heading, once the element between them is removed.
        ("<h1>a<custom-element><h2>b</h2></custom-element></h1>", "<h2", ["a", "b"]),
        // A code block (written by sitegen) inside a paragraph a raw `<p>` left open.
        ("<p>\n\n```\ncode\n```\n", "<p><pre", ["code"]),
        // A table cell outside any table (gumbo keeps one whose tag is full of vertical tabs).
        ("r<td\u{B}\u{B}>&amp;x</td>", "<td", ["&amp;x"]),
        // A footnote reference inside a link.
        ("[see[^1]](https://x.org/)\n\n[^1]: note\n", "data-footnote-ref", ["see", "note"])
    ])
    func nestingTheParserWouldUndo(markdown: String, nested: String, words: [String]) throws {
        let html = try Self.sanitise(markdown).html
        // The parser writes sitegen's valueless attributes with an empty value.
        let spelled = html.replacingOccurrences(of: " data-footnotes>", with: " data-footnotes=\"\">")
            .replacingOccurrences(of: " data-footnote-backref ", with: " data-footnote-backref=\"\" ")
        #expect(Self.reparsed(html) == spelled)
        for word in words { #expect(html.contains(word)) }
        #expect(!html.contains(nested), "\(html)")
    }

    /// Control characters and noncharacters in code come out as the U+FFFD a parser makes of them
    /// (no reference keeps them all: `&#x89;` is `‰`); tab and form feed stay.
    @Test func controlCharactersInCodeParseBackToThemselves() throws {
        let odd =
            "a\u{5}b\u{89}c\u{7F}d" + String(Unicode.Scalar(0xFDD0)!) + "e" + String(Unicode.Scalar(0x1FFFF)!)
            + "f\u{C}\tg"
        let html = try Self.sanitise("```\n" + odd + "\n```\n").html
        #expect(html.contains("a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e\u{FFFD}f\u{C}\tg"), "\(html)")
        // Each alone (no other reason to look closer), as sitegen's other text may hold them (cmark
        // replaces noncharacters itself).
        for scalar: UInt32 in [0x5, 0x89, 0x7F, 0xFDD0, 0xFFFF, 0x1FFFF] {
            #expect(
                HTMLText.escape("x" + String(Unicode.Scalar(scalar)!) + "y") == "x\u{FFFD}y",
                "U+\(String(scalar, radix: 16))")
        }
        // What the parser makes of them raw, which the output must match.
        #expect(
            Self.reparsed("<p>" + odd + "</p>")
                == "<p>a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e\u{FFFD}f\u{C}\tg</p>")
        #expect(Self.reparsed(html) == html)
    }

    /// A block inside an `object` does not close the `p` around it (the object bounds the scope
    /// a `p` is closed in), so the paragraph is kept.
    /// The convenience's two modes: the allowlist, or trusted HTML as written.
    @Test func allowRawHTMLChoosesTrustedOrTheAllowlist() {
        #expect(MarkdownRenderer(allowRawHTML: false).render("<b onclick=\"x()\">b</b>\n") == "<p><b>b</b></p>\n")
        #expect(
            MarkdownRenderer(allowRawHTML: true).render("<b onclick=\"x()\">b</b>\n")
                == "<p><b onclick=\"x()\">b</b></p>\n")
    }

    @Test func aParagraphAroundAnObjectIsKept() {
        let html = MarkdownRenderer(allowRawHTML: true).render("<p><object><div>x</div></object></p>\n")
        #expect(html.hasPrefix("<p><object><div>x</div></object></p>"), "\(html)")
        #expect(Self.reparsed(html) == html)
    }

    @Test func rawHeadingsGetIDsToo() throws {
        let out = try Self.sanitise("<h1 align=\"center\">Bounty App</h1>\n")
        #expect(
            out.html
                == "<h1 id=\"bounty-app\" align=\"center\">Bounty App<a class=\"heading-anchor\" href=\"#bounty-app\" aria-label=\"Link to this section: Bounty App\"></a></h1>\n"
        )
    }

    @Test(arguments: [
        ("<script>alert(1)</script>", "", "<script>"),
        ("<style>p { color: red }</style>", "", "<style>"),
        ("<iframe src=\"https://evil.example/\"></iframe>", "", "<iframe>"),
        ("<object data=\"x.swf\"><param name=\"a\" value=\"b\"></object>", "", "<object>"),
        ("<embed src=\"x.swf\">", "", "<embed>"),
        ("<form action=\"https://evil.example/\">name</form>", "name", "<form>"),
        ("<input type=\"text\" value=\"x\">", "", "<input>"),
        ("<button onclick=\"x()\">b</button>", "", "<button>"),
        ("<textarea>t</textarea>", "", "<textarea>"),
        ("<select><option>o</option></select>", "", "<select>"),
        ("<svg><circle r=\"5\"/></svg>", "", "<svg>"),
        ("<math><mi>x</mi></math>", "", "<math>"),
        ("<video src=\"v.mp4\"></video>", "", "<video>"),
        ("<audio src=\"a.mp3\"></audio>", "", "<audio>"),
        ("<template><p>t</p></template>", "", "<template>"),
        ("<noscript>n</noscript>", "", "<noscript>"),
        ("<base href=\"https://evil.example/\">", "", "<base>"),
        ("<link rel=\"stylesheet\" href=\"x.css\">", "", "<link>"),
        ("<meta http-equiv=\"refresh\" content=\"0;url=https://evil.example/\">", "", "<meta>"),
        ("<font color=\"red\">f</font>", "f", "<font>"),
        ("<center>c</center>", "c", "<center>"),
        ("<marquee>m</marquee>", "m", "<marquee>"),
        ("<custom-element>c</custom-element>", "c", "<custom-element>"),
        ("<div onclick=\"x()\">d</div>", "<div>d</div>", "onclick=\"…\""),
        ("<img src=\"a.png\" onerror=\"x()\" alt=\"\">", "<img src=\"a.png\" alt=\"\">", "onerror=\"…\""),
        (
            "<details ontoggle=\"x()\"><summary>s</summary></details>", "<details><summary>s</summary></details>",
            "ontoggle=\"…\""
        ),
        ("<p style=\"position:fixed\">p</p>", "<p>p</p>", "style=\"…\""),
        ("<p class=\"x\">p</p>", "<p>p</p>", "class=\"…\""),
        ("<p id=\"main\">p</p>", "<p>p</p>", "id=\"…\""),
        ("<a name=\"top\">a</a>", "<a>a</a>", "name=\"…\""),
        ("<p data-x=\"1\">p</p>", "<p>p</p>", "data-x=\"…\""),
        (
            "<a href=\"https://x.org\" target=\"_blank\" onmouseover=\"x()\">a</a>", "<a href=\"https://x.org\">a</a>",
            "target=\"…\""
        ),
        ("<a href=\"javascript:alert(1)\">a</a>", "<a>a</a>", "href=\"javascript:…\""),
        ("<a href=\"JaVaScRiPt:alert(1)\">a</a>", "<a>a</a>", "href=\"javascript:…\""),
        ("<a href=\"java&#x09;script:alert(1)\">a</a>", "<a>a</a>", "href=\"javascript:…\""),
        ("<a href=\"java\nscript:alert(1)\">a</a>", "<a>a</a>", "href=\"javascript:…\""),
        ("<a href=\"&#106;avascript:alert(1)\">a</a>", "<a>a</a>", "href=\"javascript:…\""),
        ("<a href=\"&#x6A;&#x61;vascript&colon;alert(1)\">a</a>", "<a>a</a>", "href=\"javascript:…\""),
        ("<a href=\"  javascript:alert(1)\">a</a>", "<a>a</a>", "href=\"javascript:…\""),
        ("<a href=\"vbscript:msgbox\">a</a>", "<a>a</a>", "href=\"vbscript:…\""),
        ("<a href=\"data:text/html,<script>alert(1)</script>\">a</a>", "<a>a</a>", "href=\"data:…\""),
        ("<a href=\"file:///etc/passwd\">a</a>", "<a>a</a>", "href=\"file:…\""),
        ("<img src=\"data:image/svg+xml,<svg onload=alert(1)>\" alt=\"\">", "<img alt=\"\">", "src=\"data:…\""),
        ("<img src=\"javascript:alert(1)\" alt=\"\">", "<img alt=\"\">", "src=\"javascript:…\""),
        (
            "<picture><source srcset=\"a.png, javascript:alert(1) 2x\"></picture>", "<picture><source></picture>",
            "srcset=\"javascript:…\""
        ),
        (
            "<blockquote cite=\"javascript:alert(1)\">q</blockquote>", "<blockquote>q</blockquote>",
            "cite=\"javascript:…\""
        )
    ])
    func removed(html: String, expected: String, what: String) throws {
        let out = try Self.sanitise(html)
        let text = out.html.trimmingCharacters(in: .newlines)
        #expect(text == expected || text == "<p>\(expected)</p>" || (expected.isEmpty && text == "<p></p>"))
        #expect(out.removed.contains(what), "removed: \(out.removed)")
    }

    /// Schemes as browsers read them: spaces and controls before, tabs and line breaks inside.
    @Test func schemesAreReadAsBrowsersReadThem() {
        #expect(HTMLAllowlist.scheme(of: " \u{1}\u{1F}javascript:x") == "javascript")
        #expect(HTMLAllowlist.scheme(of: "ja\tva\nscr\ript:x") == "javascript")
        #expect(HTMLAllowlist.scheme(of: "HTTPS://x") == "https")
        #expect(HTMLAllowlist.scheme(of: "a/b:c") == nil)
        #expect(HTMLAllowlist.scheme(of: "?a:b") == nil)
        #expect(HTMLAllowlist.scheme(of: "java script:x") == nil)  // a relative path to browsers
        #expect(HTMLAllowlist.scheme(of: ":x") == "")
        #expect(!HTMLAllowlist.allows(url: "a.png 1x, data:x 2x", in: "srcset"))
        #expect(HTMLAllowlist.allows(url: "a.png 1x, https://x/b.png 2x", in: "srcset"))
    }

    /// A comment is dropped without a warning (READMEs are full of them).
    @Test func commentsGoSilently() throws {
        let out = try Self.sanitise("a <!-- TODO --> b\n")
        #expect(out.html == "<p>a  b</p>\n")
        #expect(out.removed == [])
    }

    /// Markdown's own link destinations meet the same rules as raw HTML's.
    @Test func markdownLinksAreCheckedToo() throws {
        let out = try Self.sanitise("[x](javascript:alert(1)) ![i](data:image/png;base64,AAAA) [ok](https://x.org)\n")
        #expect(out.html == "<p><a>x</a> <img alt=\"i\"> <a href=\"https://x.org\">ok</a></p>\n")
    }

    /// Nothing the author writes can pass for a marker of sitegen's own markup.
    @Test func markersCannotBeForged() throws {
        let out = try Self.sanitise("<sitegen-m0 data-k=\"t1\"></sitegen-m0>\n\n```\ncode\n```\n")
        #expect(!out.html.contains("checkbox"))
        #expect(out.html.contains("<pre class=\"code\" tabindex=\"0\"><code>code\n</code></pre>"))
        #expect(out.removed == ["<sitegen-m0>"])
        let upper = try Self.sanitise(
            "<SITEGEN-M0 data-k=\"c0\"></SITEGEN-M0> <sitegen-m1 data-k=\"c0\">\n\n```\ncode\n```\n")
        #expect(upper.html.components(separatedBy: "<pre").count == 2)  // the one real block, once
    }

    /// Nesting deeper than any stack (and than a note may nest): walked without recursion.
    @Test func deepNestingDoesNotOverflow() {
        let html = String(repeating: "<div>", count: 10_000) + "x"
        let out = HTMLRewriter.rewrite(MarkedHTML(html: html, marker: "sitegen-m0"), settings: Self.allowlistOnly)
        #expect(out.html.contains("x"))
    }

    static var corpus: [(String, String)] {
        let folder = CommonMarkSpecTests.root.appendingPathComponent("fuzz/seeds/sanitizer")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().compactMap { name in
            (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)).map { (name, $0) }
        }
    }

    /// Each known mutation-XSS input comes out with no script-running markup, and as HTML that
    /// parses back to itself: sanitising the output again removes and changes nothing. (As the
    /// fuzzer does, sitegen's own markup that the allowlist would refuse is left out: footnotes,
    /// task boxes, heading anchors, code block classes.)
    @Test func mutationXSSCorpus() {
        let corpus = Self.corpus
        #expect(corpus.count >= 20)
        var options = MarkdownOptions()
        options.footnotes = false; options.taskLists = false
        for (name, input) in corpus {
            for tagfilter in [false, true] {
                let out = HTMLRewriter.rewrite(
                    Cmark.render(input, options: options, removeRawHTML: false, tagfilter: tagfilter),
                    settings: Self.allowlistOnly
                ).html
                let lower = out.lowercased()
                // Text escapes `<`: these can only be tags. Handlers are what a second pass would remove.
                for bad in [
                    "<script", "<style", "<svg", "<math", "<iframe", "<noscript", "<xmp", "<textarea", "<title",
                    "<object",
                    "href=\"javascript", "src=\"javascript", "srcdoc=\""
                ] {
                    #expect(!lower.contains(bad), "\(name): \(bad) in \(out)")
                }
                let again = HTMLRewriter.rewrite(
                    MarkedHTML(html: out, marker: "sitegen-m0"), settings: Self.allowlistOnly)
                #expect(again.removed == [], "\(name): a second pass removed \(again.removed) from \(out)")
                #expect(again.html == out, "\(name): a second pass changed \(out)")
            }
        }
    }

    struct BareCodeBlocks: CodeBlockFormatter {
        func html(for block: FencedCode) -> String { "<pre><code>" + HTMLText.escape(block.code) + "</code></pre>" }
    }

    static let allowlistOnly = HTMLRewriter.Settings(
        trusted: false, rootPath: "/", idPrefix: "", prefixHeadings: false, reservedIDs: [],
        labels: MarkdownLabels(), codeBlocks: BareCodeBlocks(), decorateHeadings: false)
}
