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
        let cache = PageCache(saveWait: 0)
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

    /// The file at `name` as the server opens it.
    func opened(_ name: String) -> ServedFile? {
        guard case .file(let f)? = StaticFiles(folder: folder, root: "/").open(name) else { return nil }
        return f
    }

    func body(_ version: PageCache.Version) -> String {
        if case .body(let b) = version { return String(buffer: b) }
        return "\(version)"
    }

    @Test func aFileRewrittenInPlaceServesItsLastCompleteVersionUntilTheSaveWait() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("big.bin")
        try Data("one".utf8).write(to: file)
        let patient = PageCache(saveWait: 3600), eager = PageCache(saveWait: 0)
        #expect(body(patient.version(try #require(opened("big.bin")), page: false)) == "one")
        // Truncated in place, then written: the same inode, changed less than the save wait ago.
        #expect(truncate(file.path, 0) == 0)
        #expect(body(patient.version(try #require(opened("big.bin")), page: false)) == "one")
        let handle = try FileHandle(forWritingTo: file)
        try handle.write(contentsOf: Data("two!".utf8))
        try handle.close()
        #expect(body(patient.version(try #require(opened("big.bin")), page: false)) == "one")
        #expect(body(eager.version(try #require(opened("big.bin")), page: false)) == "two!")
        // A new file renamed over it (as sitegen writes) is served at once.
        let fresh = folder.appendingPathComponent(".new")
        try Data("three".utf8).write(to: fresh)
        #expect(rename(fresh.path, file.path) == 0)
        #expect(body(patient.version(try #require(opened("big.bin")), page: false)) == "three")
    }

    @Test func aFileOpenForWritingIsNotRead() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("big.bin")
        try Data("one".utf8).write(to: file)
        let cache = PageCache(saveWait: 0)
        let writer = try FileHandle(forWritingTo: file)
        #expect(cache.version(try #require(opened("big.bin")), page: false) == .busy)
        try writer.close()
        #expect(body(cache.version(try #require(opened("big.bin")), page: false)) == "one")
        let again = try FileHandle(forWritingTo: file)
        defer { try? again.close() }
        try again.truncate(atOffset: 0)
        #expect(body(cache.version(try #require(opened("big.bin")), page: false)) == "one")
    }

    @Test func aFileThatChangesWhileItIsReadIsNotTakenForWhole() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a.txt")
        try Data("abc".utf8).write(to: file)
        let grown = try #require(opened("a.txt"))
        try Data("abcdef".utf8).write(to: file)
        #expect(grown.contents() == nil)
        let rewritten = try #require(opened("a.txt"))
        try Data("xyzxyz".utf8).write(to: file)
        // The same size, maybe within one tick of the file system's clock: a modification time
        // of its own marks the change (as a program copying times would).
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1)], ofItemAtPath: file.path)
        #expect(rewritten.contents() == nil)
        #expect(try #require(opened("a.txt")).contents().map { String(buffer: $0) } == "xyzxyz")
    }

    @Test func aFileOverHalfTheCapacityIsSentFromTheFileOnceUnchanged() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(repeating: 65, count: 80).write(to: folder.appendingPathComponent("big.bin"))
        try Data(repeating: 65, count: 40).write(to: folder.appendingPathComponent("small.bin"))
        let eager = PageCache(capacity: 100, saveWait: 0), patient = PageCache(capacity: 100, saveWait: 3600)
        #expect(eager.version(try #require(opened("big.bin")), page: false) == .file)
        #expect(patient.version(try #require(opened("big.bin")), page: false) == .busy)
        #expect(
            body(patient.version(try #require(opened("small.bin")), page: false)) == String(repeating: "A", count: 40))
        #expect(patient.storedBytes == 40)
    }
}
