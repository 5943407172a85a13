import Foundation
import SiteCore
import SiteWrite
import Testing
@testable import SiteBuild

/// An incremental build whose sources and output are as the last one left them does nothing
/// (`UnchangedBuild`); any change to either, or a record without a census, runs the build.
@Suite struct UnchangedBuildTests {
    typealias Warm = WarmBuildTests.Warm

    @Test func nothingChangedIsCheckedNotBuilt() throws {
        let w = try Warm()
        let page = w.site.output.path + "/bounties/index.html"
        let before = try #require(FileStamp.of(page))
        let changes = w.site.root.appendingPathComponent("changes.json")
        let report = try w.build { $0.changesFile = changes }
        #expect(report.unchanged ?? 0 > 100, "\(report.unchanged ?? -1) sources checked")
        #expect(report.pages == 0 && report.files == 0)
        #expect(report.filesKept > 1000)
        #expect(FileStamp.of(page) == before)
        #expect(try Data(contentsOf: changes) == OutputChanges().json)
        #expect(report.changes == OutputChanges())
        try w.expectSameAsColdBuild("with nothing changed")
    }

    /// A change the census must see, made after the first build.
    enum Change: String, CaseIterable {
        case editedWithTimesPutBack, added, removed, templateAdded, outputFileAdded, outputEditedWithTimePutBack
        case outputFolderRemoved, recordWithoutCensus
    }

    @Test(arguments: Change.allCases)
    func aChangeRunsTheBuild(_ change: Change) throws {
        let w = try Warm()
        let notes = w.site.root.appendingPathComponent("content/notes").path
        let note = try #require(
            FileManager.default.contentsOfDirectory(atPath: notes).sorted().first { $0.hasSuffix(".md") })
        switch change {
        case .editedWithTimesPutBack:
            // Same inode, same size, same times: only the status change time differs.
            try Self.flipByteKeepingTimes(notes + "/" + note, at: nil)
        case .added:
            try w.site.write("content/notes/zz-added.md", "---\ntitle: Added\n---\nA new note.\n")
        case .removed:
            try FileManager.default.removeItem(atPath: notes + "/" + note)
        case .templateAdded:
            try w.site.write("templates/unused-partial.mustache", "<p>not used</p>\n")
        case .outputFileAdded:
            try w.site.write("\(w.site.output.lastPathComponent)/stray.txt", "left by hand\n")
        case .outputEditedWithTimePutBack:
            try Self.flipByteKeepingTimes(w.site.output.path + "/bounties/index.html", at: 100)
        case .outputFolderRemoved:
            try FileManager.default.removeItem(at: w.site.output.appendingPathComponent("trends"))
        case .recordWithoutCensus:
            var record = try BuildRecord.decode(try Data(contentsOf: w.recordFile))
            #expect(record.census != nil)
            record.census = nil
            try record.encoded().write(to: w.recordFile)
        }
        let report = try w.build()
        #expect(report.unchanged == nil, "\(change): the build ran")
        try w.expectSameAsColdBuild("after \(change)")
        #expect(try w.build().unchanged != nil, "\(change): the next build has nothing to do")
    }

    /// Another highlighter (or none) than the record's runs the build: code may be highlighted
    /// otherwise.
    @Test func anotherHighlighterRunsTheBuild() throws {
        let w = try Warm()
        var record = try BuildRecord.decode(try Data(contentsOf: w.recordFile))
        let census = try #require(record.census)
        record.census?.context = census.context &+ 1
        try record.encoded().write(to: w.recordFile)
        #expect(try w.build().unchanged == nil)
    }

    /// A plain build reads no record: it runs whatever the last incremental build recorded.
    @Test func aPlainBuildAlwaysRuns() throws {
        let w = try Warm()
        let report = try w.build { $0.incremental = false }
        #expect(report.unchanged == nil && report.pages > 100)
    }

    /// A build that warned keeps no census: the next one runs, and says it again.
    @Test func aBuildThatWarnedIsNotSkipped() throws {
        let w = try Warm()
        try w.site.write("content/notes/zz-raw.md", "---\ntitle: Raw\n---\n<div onclick=\"y()\">b</div>\n")
        let first = try w.build()
        #expect(!first.warnings.isEmpty)
        let again = try w.build()
        #expect(again.unchanged == nil && again.warnings == first.warnings)
    }

    /// Writes the byte at `offset` (nil: the last but one, in a note's text) flipped in place,
    /// then puts the access and modification times back as `touch -r` does.
    static func flipByteKeepingTimes(_ path: String, at offset: UInt64?) throws {
        var before = stat()
        #expect(stat(path, &before) == 0)
        let offset = offset ?? UInt64(before.st_size - 2)
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: offset)
        let byte = try #require(try handle.read(upToCount: 1)).first!
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: Data([byte ^ 0x20]))
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }
}
