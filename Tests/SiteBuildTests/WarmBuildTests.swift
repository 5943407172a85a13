import Foundation
import SiteCore
import SiteWrite
import Testing
@testable import SiteBuild

/// `sitegen build` with the last build's record (`BuildRecord`): only the pages whose parts
/// changed are made, the others are kept as they were, and the result is a cold build's bytes.
@Suite struct WarmBuildTests {
    /// The example site with a cache of its own (the record is the cache's), built once.
    final class Warm {
        let site: Fixture
        let cache: URL

        init() throws {
            site = try Fixture.exampleSite()
            cache = site.root.appendingPathComponent("own-cache")
            try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
            // The resized photos from the shared cache, so that no test resizes them again.
            try FileManager.default.createDirectory(
                at: Fixture.sharedCache.appendingPathComponent("images"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                at: cache.appendingPathComponent("images"),
                withDestinationURL: Fixture.sharedCache.appendingPathComponent("images"))
            let first = try build()
            #expect(first.pages > 100)
        }

        deinit { site.remove() }

        var options: BuildOptions {
            var o = BuildOptions(source: site.root, output: site.output, cacheDir: cache)
            o.incremental = true
            return o
        }

        func build(_ change: (inout BuildOptions) -> Void = { _ in }) throws(Diagnostics) -> BuildReport {
            var o = options
            change(&o)
            return try SiteBuilder.build(o)
        }

        var recordFile: URL { BuildRecord.path(options) }

        /// The output equals a cold build's (an empty output folder, no record) of the same sources.
        func expectSameAsColdBuild(_ when: String) throws {
            let cold = site.root.appendingPathComponent("cold-\(UUID().uuidString)")
            let coldCache = site.root.appendingPathComponent("cold-cache-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: coldCache, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                at: coldCache.appendingPathComponent("images"),
                withDestinationURL: Fixture.sharedCache.appendingPathComponent("images"))
            defer {
                try? FileManager.default.removeItem(at: cold)
                try? FileManager.default.removeItem(at: coldCache)
            }
            _ = try SiteBuilder.build(BuildOptions(source: site.root, output: cold, cacheDir: coldCache))
            let expected = try site.snapshot(of: cold), actual = try site.snapshot()
            #expect(Set(actual.keys) == Set(expected.keys), "\(when): the same files")
            let differing = expected.keys.filter { actual[$0] != expected[$0] }.sorted()
            #expect(differing.isEmpty, "\(when): \(differing.prefix(5))")
        }

        func inode(_ file: String) -> UInt64? { FileStamp.of(site.output.path + "/" + file)?.inode }
    }

    /// Sources with new times but the same bytes: the build runs (`UnchangedBuild` cannot tell
    /// by the times) and makes no page.
    @Test func nothingChangedMakesNoPage() throws {
        let w = try Warm()
        let before = w.inode("bounties/index.html")
        #expect(utimes(w.site.root.appendingPathComponent("content/bounties/bounties.json").path, nil) == 0)
        let report = try w.build()
        #expect(report.unchanged == nil, "the build ran")
        #expect(report.pages == 0)
        #expect(report.notices.isEmpty, "\(report.notices)")
        #expect(w.inode("bounties/index.html") == before)
        try w.expectSameAsColdBuild("with nothing changed")
    }

    @Test func oneNoteEditedMakesItsPages() throws {
        let w = try Warm()
        let notes = try FileManager.default.contentsOfDirectory(
            atPath: w.site.root.appendingPathComponent("content/notes").path
        ).filter { $0.hasSuffix(".md") }.sorted()
        let note = "content/notes/" + notes[0]
        try w.site.write(note, try w.site.read(note) + "\nOne more line.\n")
        let report = try w.build()
        #expect(report.pages > 0 && report.pages < 20, "\(report.pages) pages made")
        try w.expectSameAsColdBuild("after one note edited")
    }

    /// A page file changed or removed by hand is made again: the record names the file written,
    /// not its path.
    @Test func anOutputFileChangedByHandIsMadeAgain() throws {
        let w = try Warm()
        let page = w.site.output.appendingPathComponent("bounties/index.html")
        let bytes = try Data(contentsOf: page)
        var edited = bytes
        edited[edited.count / 2] ^= 0x20  // same size, other bytes
        try edited.write(to: page)
        try FileManager.default.removeItem(at: w.site.output.appendingPathComponent("trends/index.html"))
        let report = try w.build()
        #expect(report.pages == 2)
        try w.expectSameAsColdBuild("after two output files changed by hand")
    }

    /// A file edited in place (same inode, same size) whose modification time was put back, as
    /// `touch -r` does: its change time tells.
    @Test func anOutputFileEditedWithItsTimePutBackIsMadeAgain() throws {
        let w = try Warm()
        let page = w.site.output.appendingPathComponent("bounties/index.html").path
        var before = stat()
        #expect(stat(page, &before) == 0)
        let handle = try #require(FileHandle(forUpdatingAtPath: page))
        try handle.seek(toOffset: 100)
        let byte = try #require(try handle.read(upToCount: 1)).first!
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: Data([byte ^ 0x20]))
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, page, &times, 0) == 0)
        #expect(FileStamp.of(page)?.seconds == Int64(before.st_mtim.tv_sec))
        #expect(try w.build().pages == 1)
        try w.expectSameAsColdBuild("after an edit in place with the time put back")
    }

    /// An output restored from elsewhere (new inodes, as a CI cache restores it) is kept when its
    /// files hold what the record says.
    @Test func aRestoredOutputIsKeptByItsBytes() throws {
        let w = try Warm()
        let copy = w.site.root.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: w.site.output, to: copy)
        try FileManager.default.removeItem(at: w.site.output)
        try FileManager.default.moveItem(at: copy, to: w.site.output)
        let report = try w.build()
        #expect(report.pages == 0)
        try w.expectSameAsColdBuild("after the output was restored")
    }

    /// A build killed after its swap but before its record was kept leaves the last build's
    /// record beside the new output: pages whose files changed are made again, the others kept.
    @Test func anOlderRecordBesideANewerOutputIsSafe() throws {
        let w = try Warm()
        let older = try Data(contentsOf: w.recordFile)
        let data = "content/bounties/bounties.json"
        try w.site.write(data, try w.site.read(data).replacingOccurrences(of: "16000000", with: "1600000000"))
        #expect(try w.build().pages > 0)
        try older.write(to: w.recordFile)
        _ = try w.build()
        try w.expectSameAsColdBuild("with the record of the build before the last")
    }

    @Test func otherOptionsIgnoreTheRecord() throws {
        let w = try Warm()
        let report = try w.build { $0.includeDrafts = true }
        #expect(report.pages > 100)
        #expect(
            report.notices.contains { $0.contains("not used: it was made with other options") }, "\(report.notices)")
    }

    @Test func aDamagedRecordIsIgnored() throws {
        let w = try Warm()
        var bytes = try Data(contentsOf: w.recordFile)
        bytes[bytes.count / 2] ^= 1
        try bytes.write(to: w.recordFile)
        let report = try w.build()
        #expect(report.pages > 100)
        #expect(report.notices == ["\(w.recordFile.path): not used: it is damaged; every page is made"])
        try w.expectSameAsColdBuild("after a damaged record")
        #expect(try w.build().pages == 0, "the record was written anew")
    }

    @Test func aRecordOfAnotherProgramIsIgnored() throws {
        let w = try Warm()
        var record = try BuildRecord.decode(try Data(contentsOf: w.recordFile))
        record.header.program &+= 1
        try record.encoded().write(to: w.recordFile)
        let report = try w.build()
        #expect(report.pages > 100)
        #expect(report.notices.contains { $0.contains("it was made by another build of sitegen") })
    }

    @Test func aChangedConfigurationMakesEveryPage() throws {
        let w = try Warm()
        try w.site.write("site.yml", try w.site.read("site.yml") + "\n# a comment\n")
        let report = try w.build()
        #expect(report.pages > 100)
        #expect(report.notices.contains { $0.contains("site.yml changed since") })
        try w.expectSameAsColdBuild("after site.yml changed")
    }
}

/// The record's file: read back as written; anything else refused whole.
@Suite struct BuildRecordFileTests {
    static let record = BuildRecord(
        header: .init(program: 1, options: 2, configuration: 3, output: "/out"),
        parts: BuildPass.PartTable(
            parts: [.site, .collection("books"), .note("content/notes/a.md"), .notes, .tags],
            versions: [10, 11, nil, 13, 14]),
        pages: [
            .init(
                file: "index.html", record: .init(template: 7, path: "/", reads: [0, 3], bytes: 99),
                stamp: FileStamp(inode: 5, size: 6, seconds: 7, nanoseconds: 8, changed: 9))
        ],
        census: .init(
            sources: FileCensus(
                entries: [
                    .init(path: "site.yml", kind: .file, stamp: stamp, digest: 42),
                    .init(path: "templates", kind: .absent, stamp: stamp, digest: nil)
                ], changeTime: true),
            output: FileCensus(
                entries: [.init(path: ".", kind: .folder, stamp: stamp, digest: nil)], changeTime: false),
            context: 77))
    static let stamp = FileStamp(inode: 1, size: 2, seconds: 3, nanoseconds: 4, changed: 5)

    @Test func readsBackWhatWasWritten() throws {
        let back = try BuildRecord.decode(Self.record.encoded())
        #expect(back.header == Self.record.header)
        #expect(back.parts.parts == Self.record.parts.parts && back.parts.versions == Self.record.parts.versions)
        #expect(back.pages.map(\.file) == ["index.html"] && back.pages[0].stamp == Self.record.pages[0].stamp)
        #expect(back.pages[0].record.reads == [0, 3] && back.pages[0].record.bytes == 99)
        #expect(back.census == Self.record.census)
    }

    @Test func refusesWhatIsNotWhole() {
        let bytes = Self.record.encoded()
        func reason(_ data: Data) -> String? {
            do {
                _ = try BuildRecord.decode(data)
                return nil
            } catch { return error.reason }
        }
        #expect(reason(Data("hello".utf8)) == "it is not a sitegen build record")
        #expect(reason(bytes.prefix(bytes.count - 1)) == "it is damaged")
        for k in stride(from: 30, to: bytes.count, by: 17) {
            var flipped = bytes
            flipped[k] ^= 0x10
            #expect(reason(flipped) != nil, "byte \(k) flipped")
        }
    }

    /// A record file larger than any record is not read (a sparse file of 300 MB: bounded time
    /// and memory).
    @Test func refusesAHugeFileUnread() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let options = BuildOptions(
            source: folder, output: folder.appendingPathComponent("out"), cacheDir: folder.appendingPathComponent("c"))
        let path = BuildRecord.path(options)
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path.path, contents: nil))
        #expect(truncate(path.path, 300 << 20) == 0)
        let (record, notice) = BuildRecord.load(options, header: Self.record.header)
        #expect(record == nil)
        #expect(notice == "\(path.path): not used: it is larger than 256 MB; every page is made")
    }

    /// A page count the bytes left cannot hold is refused before anything is reserved for it
    /// (the reader would ask for terabytes).
    @Test func refusesAPageCountItsBytesCannotHold() {
        let empty = BuildRecord(
            header: Self.record.header, parts: BuildPass.PartTable(parts: [], versions: []), pages: [])
        var bytes = empty.encoded().dropLast(8)
        // After the magic line, four words, the output's length and text, and the part count.
        let at = bytes.startIndex + 21 + 8 * 4 + 8 + 4 + 8
        let count: UInt64 = 1 << 40
        withUnsafeBytes(of: count.littleEndian) { for k in 0..<8 { bytes[at + k] = $0[k] } }
        var d = StableDigest()
        d.combine(Data(bytes))
        var whole = Data(bytes)
        withUnsafeBytes(of: d.value.littleEndian) { whole.append(contentsOf: $0) }
        #expect(throws: BuildRecord.Ignored.self) { try BuildRecord.decode(whole) }
    }

    /// A record whose digest is right but whose counts are not (written by another program) is
    /// refused without reserving what it claims.
    @Test func refusesImpossibleCounts() {
        var bytes = Self.record.encoded().dropLast(8)
        // The part count sits after the magic line, four words and the output's length and text.
        let at = bytes.startIndex + 21 + 8 * 4 + 8 + 4
        for k in 0..<8 { bytes[at + k] = 0xff }
        var d = StableDigest()
        d.combine(Data(bytes))
        var whole = Data(bytes)
        withUnsafeBytes(of: d.value.littleEndian) { whole.append(contentsOf: $0) }
        #expect(throws: BuildRecord.Ignored.self) { try BuildRecord.decode(whole) }
    }
}
