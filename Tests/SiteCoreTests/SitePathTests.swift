import Foundation
import PropertyBased
import Testing
@testable import SiteCore

/// URL patterns filled with encoded slugs, and the output file a site path is written to.
@Suite struct SitePathTests {
    @Test func fillEncodesEverySlugToken() {
        #expect(SitePath.fill("/bounties/{slug}/", slug: "루피") == "/bounties/%EB%A3%A8%ED%94%BC/")
        #expect(SitePath.fill("/{x}/{slug}-{slug}/{", slug: "a b") == "/{x}/a%20b-a%20b/{", "other braces stay")
        #expect(SitePath.fill("/plain/", slug: "x") == "/plain/")
    }

    @Test func fileOfASitePath() {
        #expect(SitePath.file(for: "/bounties/luffy/") == "bounties/luffy/index.html")
        #expect(SitePath.file(for: "/") == "index.html")
        #expect(SitePath.file(for: "") == "index.html")
        #expect(SitePath.file(for: "/404.html") == "404.html")
        #expect(SitePath.file(for: "/people/%EB%A3%A8%ED%94%BC/") == "people/루피/index.html")
        #expect(SitePath.file(for: "/100%zz/") == "100%zz/index.html", "a malformed escape stays as written")
    }

    @Test func encodePathKeepsSlashes() {
        #expect(SitePath.encodePath("photos/a b/c~d.jpg") == "photos/a%20b/c~d.jpg")
        #expect(SitePath.encodePath("a//b/") == "a//b/")
    }

    /// Any text, including every ASCII byte and multi-byte scalars.
    static let texts = Gen.int(in: 0...0x2FF).array(of: 0...12).map { codes in
        String(String.UnicodeScalarView(codes.compactMap { Unicode.Scalar(UInt32($0 < 0x80 ? $0 : $0 * 37 + 0x80)) }))
    }

    /// Against Foundation: the same bytes as `addingPercentEncoding` with RFC 3986's unreserved
    /// set, and decoding gives the text back.
    @Test func encodeSegmentMatchesFoundation() async {
        let unreserved = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        await propertyCheck(input: Self.texts) { text in
            let encoded = SitePath.encodeSegment(text)
            #expect(encoded == text.addingPercentEncoding(withAllowedCharacters: unreserved))
            #expect(encoded.removingPercentEncoding == text)
        }
    }
}
