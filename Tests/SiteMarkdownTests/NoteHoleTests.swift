import Testing
@testable import SiteMarkdown

/// A note's links to other notes and its local images are holes in its HTML (`NoteHole`), filled
/// by position once the build knows them: no token is written or searched for.
@Suite struct NoteHoleTests {
    let trusted = MarkdownRenderer(allowRawHTML: true)
    let context = MarkdownRenderer.Context(folder: "notes")

    func filled(_ r: RenderedMarkdown, urls: [String]) -> String {
        NoteHole.fill(r.html, holes: r.holes, noteURL: { urls[$0] }, image: { "<I\($0)>" })
    }

    /// Both HTML passes (the scan without raw HTML, the parser with it) leave the same holes.
    @Test func linksAndImagesAreHolesInBothPasses() throws {
        let markdown = "[one](other.md#x) and ![shot](shot.png) [two](../b.md)"
        let urls = ["/notes/other/#x", "/b/?q=1&r=\"2\""]
        let scanned = try MarkdownRenderer().render(markdown + "\n", context)
        let parsed = try MarkdownRenderer().render(markdown + " <em>raw</em>\n", context)
        #expect(scanned.html == "<p><a href=\"\">one</a> and  <a href=\"\">two</a></p>\n")
        #expect(scanned.holes.map(\.fill) == [.noteLink(0), .image(0), .noteLink(1)])
        #expect(
            filled(scanned, urls: urls)
                == "<p><a href=\"/notes/other/#x\">one</a> and <I0> "
                + "<a href=\"/b/?q=1&amp;r=&quot;2&quot;\">two</a></p>\n")
        #expect(parsed.holes == scanned.holes)
        #expect(filled(parsed, urls: urls).hasPrefix(String(filled(scanned, urls: urls).dropLast(5))))
        #expect(scanned.noteLinks.map(\.written) == ["other.md#x", "../b.md"])
    }

    /// A note without holes keeps its HTML: the same storage, not a copy of it.
    @Test func aNoteWithoutHolesIsNotCopied() throws {
        let r = try MarkdownRenderer().render(String(repeating: "Some text, long enough. ", count: 20), context)
        let filled = filled(r, urls: [])
        #expect(filled == r.html && r.holes.isEmpty)
        let a = r.html.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
        let b = filled.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
        #expect(a != nil && a == b)
    }

    /// What a token would have been is text like any other: filling changes nothing there.
    @Test func textThatLooksLikeATokenStaysText() throws {
        let r = try trusted.render(
            "<a href=\"sitegen-note:0\">a</a> <sitegen-m0 data-i=\"0\"></sitegen-m0> [b](b.md)\n", context)
        #expect(r.holes.map(\.fill) == [.noteLink(0)])
        let out = filled(r, urls: ["/b/"])
        #expect(out.contains("href=\"sitegen-note:0\"") && out.contains("<a href=\"/b/\">b</a>"))
        #expect(!out.contains("<I0>"))
    }

    /// A `pre` whose first newline is doubled (the parser drops one) moves the holes after it; one
    /// that starts with an image does not start with the newline after it.
    @Test func aNewlineKeptInAPreMovesTheHolesAfterIt() throws {
        let shifted = try trusted.render("<pre>\n\nx <img src=\"a.png\"></pre>\n", context)
        #expect(filled(shifted, urls: []) == "<pre>\n\nx <I0></pre>\n")
        let first = try trusted.render("<pre><img src=\"a.png\">\ny</pre>\n", context)
        #expect(filled(first, urls: []) == "<pre><I0>\ny</pre>\n")
    }
}
