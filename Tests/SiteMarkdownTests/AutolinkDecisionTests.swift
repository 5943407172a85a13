import Foundation
import PropertyBased
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
        ("ftp://example.org", .ifText),
        ("wwww.example.org", .ifText),
        ("x::// y", .ifText)
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

    /// The byte-by-byte reading these functions had before they used `memchr`: the oracle.
    static func oracleLinkStart(_ bytes: [UInt8], from: Int, to: Int) -> Bool {
        var i = from
        while i + 2 < to {
            switch bytes[i] {
            case UInt8(ascii: "w")
            where i + 3 < to && bytes[i + 1] == bytes[i] && bytes[i + 2] == bytes[i]
                && bytes[i + 3] == UInt8(ascii: "."):
                return true
            case UInt8(ascii: ":") where bytes[i + 1] == UInt8(ascii: "/") && bytes[i + 2] == UInt8(ascii: "/"):
                return true
            default: i += 1
            }
        }
        return false
    }

    static func oracleMayLink(_ b: [UInt8]) -> Bool {
        var inTag = false
        for i in b.indices {
            switch b[i] {
            case UInt8(ascii: "<"): inTag = true
            case UInt8(ascii: ">"): inTag = false
            case UInt8(ascii: ":")
            where !inTag && i + 2 < b.count && b[i + 1] == UInt8(ascii: "/") && b[i + 2] == UInt8(ascii: "/"):
                return true
            case UInt8(ascii: "w")
            where !inTag && i + 3 < b.count && b[i + 1] == b[i] && b[i + 2] == b[i] && b[i + 3] == UInt8(ascii: "."):
                return true
            default: break
            }
        }
        return false
    }

    /// Texts of the bytes that matter (tags' brackets, `:`, `/`, `w`, `.`, `@`) among others.
    static let texts = Gen.element(of: Array("<>:/w.@a ").map { UInt8(ascii: $0.unicodeScalars.first!) })
        .map { $0 ?? 0x61 }.array(of: 0...24)

    @Test func theSameAsReadingEveryByte() async {
        await propertyCheck(input: Self.texts) { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(Cmark.Autolink.mayLink(html: text) == Self.oracleMayLink(bytes), "\(text)")
            let expected: Cmark.Autolink =
                bytes.contains(UInt8(ascii: "@"))
                ? .yes : Self.oracleLinkStart(bytes, from: 0, to: bytes.count) ? .ifText : .no
            #expect(Cmark.Autolink.needed(by: text) == expected, "\(text)")
        }
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
