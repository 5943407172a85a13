import Foundation
import Testing
@testable import SiteWrite

/// A census tells by stamps whether files and folders are as it found them, and by bytes for
/// those stamped within its racy window.
@Suite struct FileCensusTests {
    final class Folder {
        let path: String
        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("census-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path + "/sub", withIntermediateDirectories: true)
            try Data("one".utf8).write(to: URL(fileURLWithPath: path + "/a.txt"))
            try Data("two".utf8).write(to: URL(fileURLWithPath: path + "/sub/b.txt"))
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        func walk() throws -> [(path: String, kind: FileCensus.Kind)] {
            try #require(FileCensus.walk(["a.txt", "sub", "absent"], in: path))
        }

        /// A census taken `after` nanoseconds after the newest stamp.
        func census(after: Int64) throws -> FileCensus {
            let entries = try walk()
            let newest =
                entries.compactMap { FileCensus.status(path + "/" + $0.path)?.1 }
                .map { FileCensus.newest($0, changeTime: true) }.max() ?? 0
            return try #require(
                FileCensus.take(entries, in: path, changeTime: true, now: newest + after, threads: 2))
        }
    }

    @Test func walksFoldersBeforeWhatTheyHold() throws {
        let f = try Folder()
        let found = try f.walk()
        #expect(found.map(\.path) == ["a.txt", "sub", "absent", "sub/b.txt"])
        #expect(found.map(\.kind) == [.file, .folder, .absent, .file])
    }

    /// Past its limit of entries a walk gives up (no census: the build runs), in bounded memory.
    @Test func aWalkPastItsLimitHasNoCensus() throws {
        let f = try Folder()
        #expect(FileCensus.walk(["a.txt", "sub", "absent"], in: f.path, limit: 4)?.count == 4)
        #expect(FileCensus.walk(["a.txt", "sub", "absent"], in: f.path, limit: 3) == nil)
    }

    @Test func anOldCensusComparesStampsOnly() throws {
        let f = try Folder()
        let census = try f.census(after: 10_000_000_000)
        #expect(census.entries.allSatisfy { $0.digest == nil })
        #expect(census.unchanged(in: f.path, threads: 2))
    }

    /// Entries stamped within the window keep their digest, and differing bytes under the same
    /// stamp are told (the recorded digest stands for bytes read before an edit in the same tick).
    @Test func aRecentEntryIsComparedByItsBytes() throws {
        let f = try Folder()
        var census = try f.census(after: 1_000_000)
        #expect(census.entries.filter { $0.kind != .absent }.allSatisfy { $0.digest != nil })
        #expect(census.unchanged(in: f.path, threads: 2))
        let file = try #require(census.entries.firstIndex { $0.path == "sub/b.txt" })
        census.entries[file].digest! &+= 1
        #expect(!census.unchanged(in: f.path, threads: 2))
        var folderCensus = try f.census(after: 1_000_000)
        let folder = try #require(folderCensus.entries.firstIndex { $0.path == "sub" })
        folderCensus.entries[folder].digest! &+= 1
        #expect(!folderCensus.unchanged(in: f.path, threads: 2))
    }

    /// The output's census: a recent change time alone (files linked, their old folder removed)
    /// does not make an entry racy.
    @Test func theOutputsCensusJudgesByTheModificationTime() throws {
        let f = try Folder()
        // Modified long ago, its status changed now (as a kept file linked into a new folder).
        for file in ["a.txt", "sub/b.txt"] {
            var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 5), timespec(tv_sec: 1_000_000_000, tv_nsec: 5)]
            #expect(utimensat(AT_FDCWD, f.path + "/" + file, &times, 0) == 0)
        }
        let entries = try f.walk().filter { $0.kind == .file }
        let stamp = try #require(FileStamp.of(f.path + "/a.txt"))
        let census = try #require(
            FileCensus.take(entries, in: f.path, changeTime: false, now: stamp.changed + 1_000_000, threads: 1))
        #expect(census.entries.allSatisfy { $0.digest == nil })
        let withChangeTime = try #require(
            FileCensus.take(entries, in: f.path, changeTime: true, now: stamp.changed + 1_000_000, threads: 1))
        #expect(withChangeTime.entries.allSatisfy { $0.digest != nil })
    }

    @Test func seesWhatChanged() throws {
        for change in 0..<4 {
            let f = try Folder()
            let census = try f.census(after: 10_000_000_000)
            switch change {
            case 0: try Data("three".utf8).write(to: URL(fileURLWithPath: f.path + "/a.txt"))
            case 1: try Data("new".utf8).write(to: URL(fileURLWithPath: f.path + "/sub/c.txt"))
            case 2:
                try FileManager.default.createDirectory(atPath: f.path + "/absent", withIntermediateDirectories: false)
            default: try FileManager.default.removeItem(atPath: f.path + "/sub/b.txt")
            }
            #expect(!census.unchanged(in: f.path, threads: 2), "change \(change)")
        }
    }

    /// Another build linking and unlinking a file the output shares with the image cache changes
    /// its status change time, not what it holds; a file of one link is told by that time.
    @Test func aLinkedFileIsJudgedWithoutItsChangeTime() throws {
        let f = try Folder()
        #expect(link(f.path + "/a.txt", f.path + "/cache-copy") == 0)
        let census = try f.census(after: 10_000_000_000)
        #expect(census.entries.first { $0.path == "a.txt" }?.linked == true)
        #expect(census.entries.first { $0.path == "sub/b.txt" }?.linked == false)
        for file in ["a.txt", "sub/b.txt"] {
            #expect(link(f.path + "/" + file, f.path + "/other-build") == 0)
            #expect(unlink(f.path + "/other-build") == 0)
        }
        let unchanged = census.entries.filter { $0.kind != .absent }.map { entry in
            FileCensus.status(f.path + "/" + entry.path).map { entry.matches($0.1) } ?? false
        }
        #expect(unchanged == [true, true, false], "a.txt, sub, sub/b.txt")
    }

    /// What a stamp cannot vouch for stops the census: a link to a folder could lead anywhere.
    @Test func aLinkToAFolderHasNoCensus() throws {
        let f = try Folder(), elsewhere = try Folder()
        try FileManager.default.createSymbolicLink(
            atPath: f.path + "/sub/elsewhere", withDestinationPath: elsewhere.path)
        #expect(FileCensus.walk(["sub"], in: f.path) == nil)
        // A link to a file is followed: its target's stamp is the entry's.
        try FileManager.default.removeItem(atPath: f.path + "/sub/elsewhere")
        try FileManager.default.createSymbolicLink(
            atPath: f.path + "/sub/linked.txt", withDestinationPath: elsewhere.path + "/a.txt")
        let found = try #require(FileCensus.walk(["sub"], in: f.path))
        #expect(found.map(\.path) == ["sub", "sub/b.txt", "sub/linked.txt"])
    }

    @Test func theWindowIsWiderWhereTimesHaveNoFraction() {
        let fine = FileStamp(inode: 1, size: 1, seconds: 5, nanoseconds: 7, changed: 5_000_000_007)
        let coarse = FileStamp(inode: 1, size: 1, seconds: 5, nanoseconds: 0, changed: 5_000_000_000)
        #expect(FileCensus.racyWindow(fine) == 100_000_000)
        #expect(FileCensus.racyWindow(coarse) == 2_000_000_000)
    }
}
