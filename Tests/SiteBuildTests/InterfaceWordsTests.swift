import Testing
@testable import SiteBuild

/// The words of `site.yml`'s `words:` reach the pages: the labels, the tags' title and the counts.
@Suite struct InterfaceWordsTests {
    @Test func wordsFromSiteYmlAreWhatThePagesSay() throws {
        let yml =
            "title: Harbour\nbaseURL: https://example.org/\nlanguage: ko\n"
            + "words: { skipLink: Jump, tags: Labels, items: { one: \"{n} note\", other: \"{n} notes\" } }\n"
        let f = try HostingTests.site(extraFiles: ["site.yml": yml])
        defer { f.remove() }
        _ = try f.build().get()
        let index = try f.read("public/tags/index.html")
        #expect(
            index.contains(#"<span class="tag-count">1 note</span>"#)
                && index.contains(#"<span class="tag-count">2 notes</span>"#))
        #expect(
            index.contains(#"<meta property="og:title" content="Labels">"#)
                && index.contains(##"<a class="skip-link" href="#main">Jump</a>"##))
        // The words not replaced stay the language's: Korean here.
        #expect(index.contains(#"aria-label="주요 메뉴""#))
        let notes = try f.read("public/notes/index.html")
        #expect(notes.contains(">#Labels</a>"))
    }
}
