import Foundation
import Testing
@testable import SiteWrite

/// The feed's XML on its own: the feed's date is its newest entry's (the epoch without one, never
/// the clock), and every text an entry carries is escaped.
@Suite struct AtomFeedTests {
    func feed(_ entries: [AtomFeed.Entry]) -> String {
        AtomFeed(
            url: "https://example.org/feed.xml", pageURL: "https://example.org/notes/", base: "https://example.org/",
            title: "Notes", author: "Nami", language: "en", entries: entries
        ).xml
    }

    @Test func theFeedIsAsNewAsItsNewestEntry() {
        let xml = feed([
            AtomFeed.Entry(url: "https://example.org/a/", title: "A", updated: AtomFeed.timestamp(day: "2024-01-02")),
            AtomFeed.Entry(url: "https://example.org/b/", title: "B", updated: AtomFeed.timestamp(day: "2025-03-04")),
            AtomFeed.Entry(url: "https://example.org/c/", title: "C", updated: AtomFeed.timestamp(day: "2023-12-31"))
        ])
        #expect(xml.contains("<generator>sitegen</generator>"))
        #expect(
            xml.components(separatedBy: "<updated>").dropFirst().first?.hasPrefix("2025-03-04T00:00:00Z</updated>")
                == true)
        #expect(feed([]).contains("  <updated>1970-01-01T00:00:00Z</updated>\n"))
    }

    @Test func summariesAndContentAreEscaped() {
        let xml = feed([
            AtomFeed.Entry(
                url: "https://example.org/a/", title: "A", updated: "2024-01-02T00:00:00Z",
                summary: "Tom & <Jerry>", html: "<p>a &amp; b</p>")
        ])
        #expect(xml.contains("    <summary>Tom &amp; &lt;Jerry&gt;</summary>\n"))
        #expect(xml.contains("    <content type=\"html\">&lt;p&gt;a &amp;amp; b&lt;/p&gt;</content>\n"))
        #expect(!feed([AtomFeed.Entry(url: "u", title: "A", updated: "x")]).contains("<summary>"))
    }
}
