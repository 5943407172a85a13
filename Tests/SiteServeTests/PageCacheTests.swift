import Foundation
import NIOCore
import Testing
@testable import SiteServe

/// Pages kept with the live-reload script in them, while their file is unchanged.
@Suite struct PageCacheTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-pages-\(UUID().uuidString)")

    func text(_ b: ByteBuffer?) -> String { b.map { String(buffer: $0) } ?? "<nil>" }

    @Test func aPageWrittenAgainIsServedAnewAndAMissingOneIsNone() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("index.html")
        try Data("<p>one</p></body>".utf8).write(to: page)
        let cache = PageCache()
        let first = text(cache.page(at: page.path))
        #expect(first.hasPrefix("<p>one</p><script") && first.hasSuffix("</body>"))
        #expect(text(cache.page(at: page.path)) == first)
        // As sitegen writes pages: a new file renamed over the old one, of the same size.
        let fresh = folder.appendingPathComponent(".new")
        try Data("<p>two</p></body>".utf8).write(to: fresh)
        #expect(rename(fresh.path, page.path) == 0)
        #expect(text(cache.page(at: page.path)).hasPrefix("<p>two</p><script"))
        // Written in place, another size.
        try Data("<p>three</p></body>".utf8).write(to: page)
        #expect(text(cache.page(at: page.path)).hasPrefix("<p>three</p><script"))
        try FileManager.default.removeItem(at: page)
        #expect(cache.page(at: page.path) == nil)
    }

    @Test func pastItsCapacityItStartsAgainAndStillAnswers() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = PageCache(capacity: 300)
        for k in 0..<20 {
            let page = folder.appendingPathComponent("p\(k).html")
            try Data("<p>\(k)</p>".utf8).write(to: page)
            #expect(text(cache.page(at: page.path)).hasPrefix("<p>\(k)</p><script"))
        }
        #expect(cache.storedBytes <= 300)
    }
}
