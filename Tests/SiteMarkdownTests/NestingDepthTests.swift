import Testing
@testable import SiteMarkdown

/// The nesting a note may have (512 elements, as browsers), measured as the HTML parser would
/// nest its elements: never much less, so that the parser's quadratic work stays bounded.
@Suite struct NestingDepthTests {
    func deep(_ n: Int, _ open: String, _ inner: String = "x") -> Bool {
        NestingDepth.exceeds(String(repeating: open, count: n) + inner)
    }

    @Test func upToTheLimit() {
        #expect(!deep(512, "<div>"))
        #expect(deep(513, "<div>"))
        #expect(deep(513, "<DIV class=\"a\">"))
    }

    /// Elements that close when the next of their kind starts, void ones, and SVG's `<x/>` do not nest.
    @Test func elementsThatDoNotNest() {
        #expect(!deep(10_000, "<p>"))
        #expect(!deep(10_000, "<li>"))
        #expect(!deep(10_000, "<br>"))
        #expect(!deep(10_000, "<div></div>"))
        #expect(!NestingDepth.exceeds("<svg>" + String(repeating: "<path d=\"M0 0\"/>", count: 10_000) + "</svg>"))
    }

    /// What the parser nests though it looks closed: `<x/>` in HTML (after leaving SVG, or in its
    /// `foreignObject`), and elements whose end tag is stray or misnested.
    @Test func elementsThatNestThoughTheyLookClosed() {
        #expect(NestingDepth.exceeds("<svg><p>" + String(repeating: "<x-a/>", count: 600)))
        #expect(NestingDepth.exceeds("<svg><foreignObject>" + String(repeating: "<x-a/>", count: 600)))
        #expect(NestingDepth.exceeds(String(repeating: "<div></span>", count: 600)))
    }

    /// Markup inside comments and raw text is text.
    @Test func commentsAndRawTextOpenNothing() {
        let divs = String(repeating: "<div>", count: 600)
        #expect(!NestingDepth.exceeds("<!--" + divs + "-->"))
        #expect(!NestingDepth.exceeds("<script>" + divs + "</script>"))
        #expect(!NestingDepth.exceeds("<textarea>" + divs + "</TEXTAREA>"))
    }

    /// Markdown nests too: 600 `>` are 600 block quotes.
    @Test func aNoteNestedTooDeepIsRefused() throws {
        let renderer = MarkdownRenderer()
        #expect(throws: MarkdownError.nestedTooDeep(limit: 512)) {
            try renderer.render(String(repeating: ">", count: 600) + " x\n", MarkdownRenderer.Context())
        }
        #expect(
            try renderer.render(String(repeating: ">", count: 100) + " x\n", MarkdownRenderer.Context()).html.contains(
                "x"))
        // Raw HTML goes through the parser, which the limit is for.
        #expect(throws: MarkdownError.nestedTooDeep(limit: 512)) {
            try renderer.render(String(repeating: "<div>", count: 600) + "x\n", MarkdownRenderer.Context())
        }
        #expect(
            try renderer.render(String(repeating: "<div>", count: 500) + "x\n", MarkdownRenderer.Context()).html
                .contains("x"))
    }
}
