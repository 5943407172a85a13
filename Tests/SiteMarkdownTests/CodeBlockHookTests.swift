import Testing
@testable import SiteMarkdown

/// A formatter that shows what it was given.
struct EchoBlocks: CodeBlockFormatter {
    func html(for block: FencedCode) -> String { "<x-code lang=\"\(block.language ?? "-")\" info=\"\(block.info)\">\(block.code)</x-code>" }
}

@Suite struct CodeBlockHookTests {
    @Test func fencedBlocksWithInfoGoThroughTheFormatterAsTrustedMarkup() {
        let (html, hasCode) = MarkdownRenderer(codeBlocks: EchoBlocks()).renderNote("a\n\n```swift {2}\nlet <b>\n```\n\n<i>raw</i>\n")
        #expect(html == "<p>a</p>\n<x-code lang=\"swift\" info=\"swift {2}\">let <b>\n</x-code>\n<p><!-- raw HTML omitted -->raw<!-- raw HTML omitted --></p>\n")
        #expect(hasCode)
    }

    @Test func blocksWithoutInfoAndNotesWithoutCode() {
        let renderer = MarkdownRenderer(codeBlocks: EchoBlocks())
        let (html, hasCode) = renderer.renderNote("```\nplain\n```\n\n    indented\n")
        #expect(html == "<pre><code>plain\n</code></pre>\n<pre><code>indented\n</code></pre>\n")
        #expect(!hasCode)
        #expect(MarkdownRenderer().render("```swift\nx\n```\n") == "<pre><code class=\"language-swift\">x\n</code></pre>\n")
        #expect(PlainCodeBlocks().html(for: FencedCode(info: "a\"b", language: "a\"b", code: "<&>\n"))
                == "<pre class=\"code\"><code class=\"language-a&quot;b\">&lt;&amp;&gt;\n</code></pre>")
    }
}
