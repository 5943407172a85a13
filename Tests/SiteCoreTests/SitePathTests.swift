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

    @Test func stemAndFolderOfNotePaths() {
        #expect(SitePath.stem(of: "notes/hello.md") == "hello")
        #expect(SitePath.stem(of: "notes/v1.2.MD") == "v1.2", "only the last extension goes")
        #expect(SitePath.stem(of: "a/b/.md") == ".md", "a name whose only dot comes first has no extension")
        #expect(SitePath.stem(of: "README") == "README")
        #expect(SitePath.folder(of: "notes/a/b.md") == "notes/a")
        #expect(SitePath.folder(of: "b.md") == "")
        #expect(SitePath.stem(of: "a") == "a" && SitePath.folder(of: "a") == "", "where Foundation traps")
        #expect(SitePath.extension(of: "notes/v1.2.MD") == "MD" && SitePath.extension(of: "a.b/c") == "")
        #expect(SitePath.extension(of: "a/.md") == "" && SitePath.extension(of: "data.json") == "json")
    }

    /// Relative file paths as the content scan gives them: segments of letters (of two scripts),
    /// dots, dashes and underscores. None is one character long: swift-corelibs-foundation traps
    /// on those (`("a" as NSString).deletingLastPathComponent`), so the oracle cannot read them.
    /// No segment is `.` or `..`, which name folders, never a file the scan lists (NSString keeps
    /// `..` whole as a stem; CI's random seed once drew `_/..`).
    static let segments = Gen.element(of: ["a", "B", ".", "-", "_", "한", "md", "😀"]).map { $0 ?? "a" }
        .array(of: 1...5).map { (parts: [String]) -> String in
            let segment = parts.joined()
            return segment == "." || segment == ".." ? segment + "a" : segment
        }
    static let filePaths = segments.array(of: 1...3).map { $0.joined(separator: "/") }
        .map { $0.count < 2 ? "notes/" + $0 : $0 }

    /// Against Foundation, which sitegen used before: NSString's `lastPathComponent`,
    /// `deletingPathExtension`, `deletingLastPathComponent` and `pathExtension`.
    @Test func stemFolderAndExtensionMatchNSString() async {
        await propertyCheck(input: Self.filePaths) { path in
            let ns = path as NSString
            #expect(SitePath.stem(of: path) == (ns.lastPathComponent as NSString).deletingPathExtension, "\(path)")
            #expect(SitePath.folder(of: path) == ns.deletingLastPathComponent, "\(path)")
            #expect(SitePath.extension(of: path) == ns.pathExtension, "\(path)")
        }
    }

    /// Any text, including every ASCII byte and multi-byte scalars.
    static let texts = Gen.int(in: 0...0x2FF).array(of: 0...12).map { codes in
        String(String.UnicodeScalarView(codes.compactMap { Unicode.Scalar(UInt32($0 < 0x80 ? $0 : $0 * 37 + 0x80)) }))
    }

    /// Slugs of ASCII text made on bytes are the slugs Unicode's properties make; other text is
    /// left to them.
    @Test func asciiSlugsMatchTheUnicodeRules() async {
        let ascii = Gen.int(in: 0...0x7F).array(of: 0...16).map { codes in
            String(decoding: codes.map { UInt8($0) }, as: UTF8.self)
        }
        await propertyCheck(input: ascii) { text in
            #expect(Slug.makeASCII(text) == Slug.makeUnicode(text), "\(Array(text.utf8))")
        }
        await propertyCheck(input: Self.texts) { text in
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                #expect(Slug.makeASCII(text) == Slug.makeUnicode(text), "\(Array(text.utf8))")
            } else {
                #expect(Slug.makeASCII(text) == nil)
            }
            #expect(Slug.make(text) == Slug.makeUnicode(text))
        }
        #expect(Slug.makeASCII("__Luffy  D. Monkey!_9") == "__luffy-d-monkey-_9")
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
