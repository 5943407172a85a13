import Foundation
import Testing
@testable import SiteWrite

/// sitemap.xml by the sitemaps.org rules: at most 50,000 URLs a file, XML-escaped text.
@Suite struct SitemapTests {
    static func urls(_ n: Int) -> [(loc: String, lastModified: String?)] {
        (0..<n).map { ("https://example.org/p/\($0)/", nil) }
    }

    static func locs(_ xml: String) -> [String] {
        xml.matches(of: /<loc>([^<]*)<\/loc>/).map { String($0.1) }
    }

    @Test func exactly50000URLsAreOneFile() {
        let files = Sitemap.files(urls: Self.urls(50_000), indexBase: "https://example.org/")
        #expect(files.map(\.name) == ["sitemap.xml"])
        #expect(Self.locs(files[0].xml).count == 50_000)
        #expect(files[0].xml.contains("<urlset "))
    }

    @Test func oneMoreIsAnIndexOfTwo() {
        let files = Sitemap.files(urls: Self.urls(50_001), indexBase: "https://example.org/")
        #expect(files.map(\.name) == ["sitemap.xml", "sitemap-1.xml", "sitemap-2.xml"])
        #expect(files[0].xml.contains("<sitemapindex "))
        #expect(Self.locs(files[0].xml) == ["https://example.org/sitemap-1.xml", "https://example.org/sitemap-2.xml"])
        #expect(Self.locs(files[1].xml).count == 50_000)
        #expect(Self.locs(files[2].xml) == ["https://example.org/p/50000/"])
    }

    /// Each special character alone, so the pre-scan that skips plain text must know all of them.
    @Test(arguments: [
        ("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("'", "&apos;"), ("\u{1}", ""), ("\u{FFFE}", "")
    ])
    func eachSpecialCharacterAloneIsEscaped(raw: String, escaped: String) {
        #expect(Sitemap.escape("a\(raw)b") == "a\(escaped)b")
    }

    @Test func plainTextIsKept() {
        #expect(Sitemap.escape("https://example.org/%ED%95%9C/?q=1\t\n") == "https://example.org/%ED%95%9C/?q=1\t\n")
        #expect(Sitemap.escape("한글 🌊") == "한글 🌊")
    }
}
