import Foundation
import Testing
import SiteCore
@testable import SiteWrite

/// A build keeps the previous output's files whose bytes did not change (hard links: the same
/// inode and time), writes the others anew, and lists what it added, changed and removed (issue
/// 48). Real files in a temporary folder; the command line's cases are in e2e/test_build_changes.py.
@Suite struct PreviousOutputTests {
    typealias Place = OutputStageTests.Place

    static func status(_ path: String) -> stat {
        var s = stat()
        return lstat(path, &s) == 0 ? s : stat()
    }

    /// Inode and modification time (ns) of a file of the output.
    static func identity(_ place: Place, _ relative: String) -> [Int] {
        let s = status(place.output.appendingPathComponent(relative).path)
        return [Int(s.st_ino), s.st_mtim.tv_sec * 1_000_000_000 + s.st_mtim.tv_nsec]
    }

    /// A site written from `files` (path → text), its changes listed in `list` when given.
    @discardableResult
    static func build(_ place: Place, _ files: [String: String], list: String? = nil) throws -> OutputStage.Listed? {
        let stage = try OutputStage(output: place.output)
        for (path, text) in files { try stage.write(text, to: path, source: "t") }
        return try stage.commit(listingChangesIn: list)
    }

    static func listed(_ path: String) throws -> OutputChanges {
        try JSONDecoder().decode(OutputChanges.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func unchangedFilesAreKeptAndTheOthersListed() throws {
        let place = try Place()
        defer { place.remove() }
        let list = place.parent.appendingPathComponent("changes.json").path
        let first = try Self.build(
            place, ["a.html": "same", "b.html": "old", "c/d.html": "x", "gone.html": "g", "e": "file", "f/g": "g"],
            list: list)
        #expect(first?.changes == OutputChanges(added: ["a.html", "b.html", "c/d.html", "e", "f/g", "gone.html"]))
        #expect(try Self.listed(list) == first?.changes)
        let before = ["a.html", "b.html", "c/d.html"].map { Self.identity(place, $0) }
        let stage = try OutputStage(output: place.output)
        let files = ["a.html": "same", "b.html": "new", "c/d.html": "x", "e/f.html": "now a folder", "f": "a file"]
        for (path, text) in files {
            try stage.write(text, to: path, source: "t")
        }
        #expect(stage.keptFiles == 2)
        let second = try stage.commit(listingChangesIn: list)
        #expect(Self.identity(place, "a.html") == before[0])
        #expect(Self.identity(place, "c/d.html") == before[2])
        #expect(Self.identity(place, "b.html")[0] != before[1][0])
        #expect(try place.files() == files)
        let expected = OutputChanges(added: ["e/f.html", "f"], changed: ["b.html"], removed: ["e", "f/g", "gone.html"])
        #expect(second?.changes == expected)
        #expect(second?.problem == nil)
        #expect(try Self.listed(list) == expected)
        #expect(try place.siblings() == ["changes.json"])
        #expect(Self.status(place.output.appendingPathComponent("a.html").path).st_nlink == 1)
    }

    /// The bytes decide, not the size: the same size with other bytes, or the same bytes and more.
    @Test(arguments: [
        ("aaa", "aab"), ("abcd", "abc"), ("abc", "abcd"), ("", "x"),
        (String(repeating: "y", count: 200_000), String(repeating: "y", count: 199_999) + "z")
    ])
    func otherBytesAreWrittenAnew(before: String, after: String) throws {
        let place = try Place()
        defer { place.remove() }
        try Self.build(place, ["p.html": before])
        let inode = Self.identity(place, "p.html")[0]
        let listed = try Self.build(place, ["p.html": after], list: place.parent.appendingPathComponent("l").path)
        #expect(try place.files() == ["p.html": after])
        #expect(Self.identity(place, "p.html")[0] != inode)
        #expect(listed?.changes == OutputChanges(changed: ["p.html"]))
    }

    /// A large file with the same bytes (compared a chunk at a time) and an empty one are kept.
    @Test func largeAndEmptyFilesWithTheSameBytesAreKept() throws {
        let place = try Place()
        defer { place.remove() }
        let files = ["big": String(repeating: "0123456789", count: 30_000), "empty": ""]
        try Self.build(place, files)
        let before = files.keys.sorted().map { Self.identity(place, $0) }
        let listed = try Self.build(place, files, list: place.parent.appendingPathComponent("l").path)
        #expect(files.keys.sorted().map { Self.identity(place, $0) } == before)
        #expect(listed?.changes == OutputChanges())
    }

    /// A file that is also linked elsewhere (a user's link: edits there would change the site), or
    /// whose permissions were changed, is written anew: the same bytes, so not listed.
    @Test(arguments: ["linked", "chmod"])
    func aFileTouchedBesidesItsBytesIsWrittenAnew(how: String) throws {
        let place = try Place()
        defer { place.remove() }
        try Self.build(place, ["p.html": "same"])
        let path = place.output.appendingPathComponent("p.html").path
        let mode = Self.status(path).st_mode
        if how == "linked" {
            #expect(link(path, place.parent.appendingPathComponent("mine").path) == 0)
        } else {
            #expect(chmod(path, 0o600) == 0)
        }
        let inode = Self.identity(place, "p.html")[0]
        let listed = try Self.build(place, ["p.html": "same"], list: place.parent.appendingPathComponent("l").path)
        #expect(Self.identity(place, "p.html")[0] != inode)
        #expect(Self.status(path).st_mode == mode)
        #expect(Self.status(path).st_nlink == 1)
        #expect(listed?.changes == OutputChanges())
    }

    /// A link in the previous output is not followed: neither to a file with the same bytes, nor
    /// through a folder outside it. The new files are files of their own.
    @Test func linksInThePreviousOutputAreNotFollowed() throws {
        let place = try Place()
        defer { place.remove() }
        try Self.build(place, ["keep.html": "k"])
        let fm = FileManager.default
        let outside = place.parent.appendingPathComponent("outside")
        try fm.createDirectory(at: outside, withIntermediateDirectories: false)
        try Data("same".utf8).write(to: outside.appendingPathComponent("p.html"))
        try fm.createSymbolicLink(
            atPath: place.output.appendingPathComponent("p.html").path, withDestinationPath: outside.path + "/p.html")
        try fm.createSymbolicLink(
            atPath: place.output.appendingPathComponent("dir").path, withDestinationPath: outside.path)
        try fm.createSymbolicLink(
            atPath: place.output.appendingPathComponent("alias.html").path, withDestinationPath: "keep.html")
        let keep = Self.identity(place, "keep.html")[0]
        let listed = try Self.build(
            place, ["keep.html": "k", "alias.html": "k", "p.html": "same", "dir/p.html": "same"],
            list: place.parent.appendingPathComponent("l").path)
        #expect(Self.identity(place, "alias.html")[0] != keep)
        let theirs = Self.status(outside.appendingPathComponent("p.html").path).st_ino
        for path in ["p.html", "dir/p.html"] {
            let s = Self.status(place.output.appendingPathComponent(path).path)
            #expect(s.st_mode & S_IFMT == S_IFREG && s.st_ino != theirs, "\(path)")
        }
        #expect(Self.status(outside.appendingPathComponent("p.html").path).st_nlink == 1)
        #expect(listed?.changes == OutputChanges(changed: ["alias.html", "dir/p.html", "p.html"], removed: ["dir"]))
    }

    /// Something other than a regular file (a FIFO, opened without blocking) is not kept, even
    /// where it reads as the same bytes.
    @Test func onlyRegularFilesAreKept() throws {
        let place = try Place()
        defer { place.remove() }
        try Self.build(place, ["keep.html": "k"])
        #expect(mkfifo(place.output.appendingPathComponent("empty").path, 0o644) == 0)
        let listed = try Self.build(
            place, ["keep.html": "k", "empty": ""], list: place.parent.appendingPathComponent("l").path)
        #expect(Self.status(place.output.appendingPathComponent("empty").path).st_mode & S_IFMT == S_IFREG)
        #expect(listed?.changes == OutputChanges(changed: ["empty"]))
    }

    /// Copied files are compared as written ones; shared ones (the image cache's) stay links to
    /// the cache and are compared only for the list.
    @Test func copiedAndSharedFilesAreComparedToo() throws {
        let place = try Place()
        defer { place.remove() }
        let source = place.parent.appendingPathComponent("source").path
        let cached = place.parent.appendingPathComponent("cached").path
        try Data("copied".utf8).write(to: URL(fileURLWithPath: source))
        try Data("pixels".utf8).write(to: URL(fileURLWithPath: cached))
        @discardableResult func build() throws -> OutputStage.Listed? {
            let stage = try OutputStage(output: place.output)
            try stage.copy(source, to: "c.txt", source: "t")
            try stage.share(cached, to: "i.webp", source: "t")
            return try stage.commit(listingChangesIn: place.parent.appendingPathComponent("l").path)
        }
        try build()
        let copied = Self.identity(place, "c.txt")
        #expect(try build()?.changes == OutputChanges())
        #expect(Self.identity(place, "c.txt") == copied)
        #expect(Self.status(place.output.appendingPathComponent("i.webp").path).st_ino == Self.status(cached).st_ino)
        // The cache made again, with the same bytes: another inode, still unchanged.
        unlink(cached)
        try Data("pixels".utf8).write(to: URL(fileURLWithPath: cached))
        #expect(try build()?.changes == OutputChanges())
        #expect(Self.status(place.output.appendingPathComponent("i.webp").path).st_ino == Self.status(cached).st_ino)
        unlink(cached)
        try Data("pixelz".utf8).write(to: URL(fileURLWithPath: source))
        try Data("pixelz".utf8).write(to: URL(fileURLWithPath: cached))
        #expect(try build()?.changes == OutputChanges(changed: ["c.txt", "i.webp"]))
        #expect(Self.identity(place, "c.txt")[0] != copied[0])
    }

    /// A folder sitegen did not write (replaced with --force) is no previous output: nothing of it
    /// is kept or listed.
    @Test func aForeignFolderIsNoPreviousOutput() throws {
        let place = try Place()
        defer { place.remove() }
        try FileManager.default.createDirectory(at: place.output, withIntermediateDirectories: false)
        try Data("same".utf8).write(to: place.output.appendingPathComponent("p.html"))
        let inode = Self.identity(place, "p.html")[0]
        let stage = try OutputStage(output: place.output, force: true)
        try stage.write("same", to: "p.html", source: "t")
        let listed = try stage.commit(listingChangesIn: place.parent.appendingPathComponent("l").path)
        #expect(listed?.changes == OutputChanges(added: ["p.html"]))
        #expect(Self.identity(place, "p.html")[0] != inode)
    }

    /// Another build replaced the output while this one ran: its list compares with what it
    /// replaces, not with what it started from.
    @Test func theListComparesWithTheOutputTheSwapReplaces() throws {
        let place = try Place()
        defer { place.remove() }
        try Self.build(place, ["p.html": "1", "q.html": "q", "r.html": "r"])
        let slow = try OutputStage(output: place.output)
        try slow.write("1", to: "p.html", source: "t")
        try slow.write("q", to: "q.html", source: "t")
        try Self.build(place, ["p.html": "2", "q.html": "q", "s.html": "s"])
        let listed = try slow.commit(listingChangesIn: place.parent.appendingPathComponent("l").path)
        #expect(listed?.changes == OutputChanges(changed: ["p.html"], removed: ["s.html"]))
        #expect(try place.files() == ["p.html": "1", "q.html": "q"])
    }

    /// A build that fails leaves the list as it was, and nothing beside it.
    @Test func aFailedBuildLeavesTheListUntouched() throws {
        let place = try Place()
        defer { place.remove() }
        let list = place.parent.appendingPathComponent("changes.json").path
        try Self.build(place, ["p.html": "1"], list: list)
        let before = Self.status(list)
        let discarded = try OutputStage(output: place.output)
        try discarded.write("2", to: "p.html", source: "t")
        discarded.discard()
        // The swap refused: the output became someone else's folder during the build.
        let refused = try OutputStage(output: place.output)
        try refused.write("2", to: "p.html", source: "t")
        try FileManager.default.removeItem(at: place.output)
        try FileManager.default.createDirectory(at: place.output, withIntermediateDirectories: false)
        try Data("mine".utf8).write(to: place.output.appendingPathComponent("mine.txt"))
        #expect(throws: Diagnostic.self) { try refused.commit(listingChangesIn: list) }
        refused.discard()
        // The swap failed: its staging folder is gone.
        let failed = try OutputStage(output: place.output, force: true)
        try failed.write("3", to: "p.html", source: "t")
        try FileManager.default.removeItem(at: failed.staging)
        #expect(throws: Diagnostic.self) { try failed.commit(listingChangesIn: list) }
        failed.discard()
        let after = Self.status(list)
        #expect(after.st_ino == before.st_ino)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        #expect(try Self.listed(list) == OutputChanges(added: ["p.html"]))
        #expect(try place.siblings() == ["changes.json"])
    }

    /// The list cannot be put in place after the swap (a folder took its name): the site is
    /// replaced, the problem returned, and neither the list nor its temporary file is left.
    @Test func aListThatCannotBePutInPlaceIsAProblemAfterTheSwap() throws {
        let place = try Place()
        defer { place.remove() }
        let list = place.parent.appendingPathComponent("changes.json")
        try FileManager.default.createDirectory(
            at: list.appendingPathComponent("inside"), withIntermediateDirectories: true)
        let listed = try Self.build(place, ["p.html": "1"], list: list.path)
        #expect(listed?.problem?.message.hasPrefix("the site was written, but its list of changes could not") == true)
        #expect(try place.files() == ["p.html": "1"])
        #expect(try place.siblings() == ["changes.json"])
    }

    /// The list is JSON with a path a line; any path survives it.
    @Test func theListIsJSONWithAPathALine() throws {
        let text = String(decoding: OutputChanges(added: ["a/b.html", "c"], removed: ["d"]).json, as: UTF8.self)
        #expect(
            text == """
                {
                  "added": [
                    "a/b.html",
                    "c"
                  ],
                  "changed": [],
                  "removed": [
                    "d"
                  ]
                }

                """)
        let odd = OutputChanges(changed: ["quote\"/back\\slash", "line\nbreak\u{1}", "é/한"])
        #expect(try JSONDecoder().decode(OutputChanges.self, from: odd.json) == odd)
    }
}
