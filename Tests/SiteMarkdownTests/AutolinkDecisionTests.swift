import Foundation
import Testing
@testable import SiteMarkdown

/// GFM's `autolink` extension is left out of a parse where it could link nothing
/// (`Cmark.Autolink`): the output must be what cmark-gfm writes with it on, and the extension must
/// be left out where the note has links only in link destinations (the corpus's common case).
@Suite struct AutolinkDecisionTests {
    static func marked(_ markdown: String) -> MarkedHTML {
        Cmark.render(markdown, options: MarkdownOptions(), removeRawHTML: false, tagfilter: false)
    }

    @Test(arguments: [
        ("plain text, *emphasis* and `code`", Cmark.Autolink.no),
        ("ww.example.org and a:/b", .no),
        ("mail me@example.org", .yes),
        ("```swift\n@MainActor func f() {}\n```", .yes),
        ("see www.example.org", .ifText),
        ("see [x](https://example.org)", .ifText),
        ("ftp://example.org", .ifText)
    ])
    func whatTheRawTextAsksFor(markdown: String, expected: Cmark.Autolink) {
        #expect(Cmark.Autolink.needed(by: markdown) == expected)
    }

    @Test(arguments: [
        ("<p><a href=\"https://example.org\">x</a></p>\n", false),
        ("<p><img src=\"www.example.org/a.png\" alt=\"\" /></p>\n", false),
        ("<p>x</p>\n<p>see https://example.org</p>\n", true),
        ("<p>www.example.org</p>", true),
        ("www.example.org<p>x</p>", true),
        ("<p>x</p>www.example.org", true),
        ("<p>x<!-- https://a.org --></p>", false)
    ])
    func whatTheHTMLTextHolds(html: String, expected: Bool) {
        #expect(Cmark.Autolink.mayLink(html: html) == expected)
    }

    @Test(
        arguments: [
            // (Markdown, whether the extension ran, the link cmark-gfm makes or nil)
            (
                "Links only [in destinations](https://example.org/a) and ![images](https://example.org/b.png).", false,
                nil
            ),
            ("Nothing to link: www and http:/x.", false, nil),
            ("A bare https://example.org/x.", true, "<a href=\"https://example.org/x\">https://example.org/x</a>"),
            ("A bare www.example.org.", true, "<a href=\"http://www.example.org\">www.example.org</a>"),
            (
                "[x](https://example.org) then http://example.com", true,
                "<a href=\"http://example.com\">http://example.com</a>"
            ),
            ("[unclosed http://example.org", true, nil),
            ("`http://example.org` in code", true, nil),
            ("me@example.org", true, "<a href=\"mailto:me@example.org\">me@example.org</a>")
        ] as [(String, Bool, String?)])
    func theExtensionRunsOnlyWhereItCouldLink(markdown: String, autolinked: Bool, link: String?) throws {
        let marked = Self.marked(markdown)
        #expect(marked.autolinked == autolinked, "\(markdown)")
        if let link { #expect(marked.html.contains(link), "\(marked.html)") }
        guard CmarkGFMCommand.path != nil else { return }
        #expect(marked.html == (try CmarkGFMCommand.render(markdown, options: MarkdownOptions())))
    }

    @Test func turnedOffItNeverRuns() {
        var options = MarkdownOptions()
        options.autolinks = false
        let marked = Cmark.render(
            "https://example.org me@example.org", options: options, removeRawHTML: false,
            tagfilter: false)
        #expect(!marked.autolinked)
        #expect(!marked.html.contains("<a "))
    }
}
