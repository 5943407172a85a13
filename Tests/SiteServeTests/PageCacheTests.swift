import Foundation
import NIOCore
import Testing
@testable import SiteServe

/// Pages kept with the live-reload script in them, while their file is unchanged.
@Suite struct PageCacheTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-pages-\(UUID().uuidString)")

    func text(_ b: ByteBuffer?) -> String { b.map { String(buffer: $0) } ?? "<nil>" }

    /// The page at `url` as the server finds it, if it is there.
    func served(_ cache: PageCache, _ url: URL) -> ByteBuffer? {
        guard case .file(let f)? = StaticFiles(folder: folder, root: "/").open(url.lastPathComponent) else {
            return nil
        }
        return cache.page(f)
    }

    @Test func aPageWrittenAgainIsServedAnewAndAMissingOneIsNone() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("index.html")
        try Data("<p>one</p></body>".utf8).write(to: page)
        let cache = PageCache()
        let first = text(served(cache, page))
        #expect(first.hasPrefix("<p>one</p><script") && first.hasSuffix("</body>"))
        #expect(text(served(cache, page)) == first)
        // As sitegen writes pages: a new file renamed over the old one, of the same size.
        let fresh = folder.appendingPathComponent(".new")
        try Data("<p>two</p></body>".utf8).write(to: fresh)
        #expect(rename(fresh.path, page.path) == 0)
        #expect(text(served(cache, page)).hasPrefix("<p>two</p><script"))
        // Written in place, another size.
        try Data("<p>three</p></body>".utf8).write(to: page)
        #expect(text(served(cache, page)).hasPrefix("<p>three</p><script"))
        try FileManager.default.removeItem(at: page)
        #expect(served(cache, page) == nil)
    }

    @Test func pastItsCapacityItStartsAgainAndStillAnswers() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = PageCache(capacity: 300)
        for k in 0..<20 {
            let page = folder.appendingPathComponent("p\(k).html")
            try Data("<p>\(k)</p>".utf8).write(to: page)
            #expect(text(served(cache, page)).hasPrefix("<p>\(k)</p><script"))
        }
        #expect(cache.storedBytes <= 300)
    }
}
