import Testing
@testable import SiteCheck

/// The sitemap reader finds every `<loc>` and only those, where they are written.
@Suite struct SitemapTests {
    func read(_ xml: String) -> SitemapFile {
        var bytes = Array(xml.utf8)
        return bytes.withUnsafeMutableBufferPointer { SitemapFile.read(UnsafeBufferPointer($0)) }
    }

    func urls(_ xml: String) -> [String] { read(xml).entries.map(\.url) }

    @Test func commentsAreSkipped() {
        #expect(urls("<urlset><!-- <loc>/commented/</loc> --><url><loc>/a/</loc></url></urlset>") == ["/a/"])
        #expect(urls("<urlset><!-- not closed <loc>/b/</loc>") == [])
    }

    @Test func indexAndEntries() {
        let index = read("<?xml version=\"1.0\"?>\n<sitemapindex><sitemap><loc>/s1.xml</loc></sitemap></sitemapindex>")
        #expect(index.isIndex && index.entries == [.init(url: "/s1.xml", line: 2, column: 29)])
        #expect(!read("<urlset><url><loc>/a/</loc></url></urlset>").isIndex)
        #expect(
            urls("<urlset><url><loc>/a/</loc></url><url><loc>/cut-off/") == ["/a/"],
            "a <loc> without its end is dropped")
    }

    @Test func locText() {
        #expect(urls("<loc>\n  /a/?x=1&amp;y=2 \t</loc>") == ["/a/?x=1&y=2"])
        #expect(urls("<loc><![CDATA[/a&amp;b/]]></loc>") == ["/a&amp;b/"], "CDATA is not decoded")
        #expect(urls("<loc>/x/<![CDATA[y]]>&amp;z</loc>") == ["/x/y&z"])
        #expect(
            urls("<loc><![CDATA[/open</loc><loc>/next/]]></loc>").first?.hasSuffix("CDATA[/open") == true,
            "a CDATA section ends inside its <loc>")
    }
}
