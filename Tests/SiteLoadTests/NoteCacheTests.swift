import Foundation
import Testing
import SiteCore
import SiteMarkdown
@testable import SiteLoad

/// The note cache's parts: `BinaryCoding` (what it stores notes as) and its file, read back.
@Suite struct NoteCacheTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-notecache-\(UUID().uuidString)")

    func write(_ files: [String: String]) throws -> ContentTree {
        for (path, text) in files {
            let url = root.appendingPathComponent("content/\(path)")
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return try ContentTree.scan(root.appendingPathComponent("content"))
    }

    static let notes = [
        "notes/a.md": """
        ---
        title: A
        date: 2024-01-31
        tags: [x, "y"]
        item: bounties/luffy
        toc: true
        n: 12
        f: -0.0
        big: 1e308
        nothing: null
        list: [1, [2, {k: v}], 2024-02-01]
        ---
        ## Head *one*

        Text[^1] with <span onclick="x">raw</span> and [b](b.md#top).

        ```swift
        let x = 1
        ```

        - [ ] task

        [^1]: A note.
        """,
        "notes/b.md": "Plain, no front matter.\n",
        "notes/d.md": "---\ndraft: true\n---\nDraft\n"
    ]

    /// A loaded note with every kind of field comes back equal (fields' values of each type,
    /// headings, links, warnings, the attachment).
    @Test func notesComeBackEqual() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let content = try write(Self.notes)
        let loader = NoteLoader(content: content, notesCollection: nil, includeDrafts: false)
        let a = try #require(try loader.load("notes/a.md"))
        #expect(!a.warnings.isEmpty && !a.headings.isEmpty && !a.noteLinks.isEmpty && a.attachment != nil)
        let bytes = try BinaryCoding.encode(Optional(a))
        #expect(try BinaryCoding.decode(Note?.self, from: Data(bytes)) == a)
        let none: Note? = nil
        #expect(try BinaryCoding.decode(Note?.self, from: Data(try BinaryCoding.encode(none))) == .some(nil))
        let odd: [Value] = [.double(.infinity), .double(-0.0), .int(.min), .date(Date(timeIntervalSince1970: -1e9))]
        #expect(try BinaryCoding.decode([Value].self, from: Data(try BinaryCoding.encode(odd))) == odd)
        let nan = try BinaryCoding.decode(Value.self, from: Data(try BinaryCoding.encode(Value.double(.nan))))
        #expect(nan.typeName == "number" && "\(nan)".contains("nan"))
    }

    /// Bytes cut short, or any one byte changed, are an error or a value: never a trap.
    @Test func wrongBytesThrowOrDecodeButNeverTrap() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let content = try write(Self.notes)
        let loader = NoteLoader(content: content, notesCollection: "bounties", includeDrafts: false)
        let bytes = try BinaryCoding.encode(try loader.load("notes/a.md"))
        for n in 0..<bytes.count {
            #expect(throws: (any Error).self) { try BinaryCoding.decode(Note?.self, from: Data(bytes[..<n])) }
        }
        for i in stride(from: 0, to: bytes.count, by: 3) {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var wrong = bytes
                wrong[i] ^= flip
                _ = try? BinaryCoding.decode(Note?.self, from: Data(wrong))
            }
        }
    }

    /// Keys a type asks out of the order they were written in, and keys missing (an optional's
    /// nil), are found through the container's index.
    @Test func keysOutOfOrderAndMissing() throws {
        struct Written: Codable { var a: Int, b: String, c: [String: Int] }
        struct Read: Codable { var c: [String: Int], a: Int, d: String?, b: String }
        let written = Written(a: 1, b: "two", c: ["x": 3, "y": 4])
        let read = try BinaryCoding.decode(Read.self, from: Data(try BinaryCoding.encode(written)))
        #expect(read.a == 1 && read.b == "two" && read.c == ["x": 3, "y": 4] && read.d == nil)
        #expect(throws: DecodingError.self) {
            try BinaryCoding.decode(Written.self, from: Data(try BinaryCoding.encode(["a": 1])))
        }
    }

    /// Every setting is in the key: changing any one changes the digest.
    @Test func everySettingChangesTheKey() {
        let base = NoteLoader.Settings(
            notesCollection: nil, includeDrafts: false, rootPath: "/", markdown: MarkdownOptions(),
            labels: MarkdownLabels(), reservedIDs: ["main"], highlight: false)
        var changed: [NoteLoader.Settings] = []
        func with(_ change: (inout NoteLoader.Settings) -> Void) {
            var s = base
            change(&s)
            changed.append(s)
        }
        with { $0.notesCollection = "bounties" }
        with { $0.includeDrafts = true }
        with { $0.rootPath = "/sub/" }
        with { $0.markdown.smart = true }
        with { $0.markdown.html = .trusted }
        with { $0.labels.task = "Tâche" }
        with { $0.reservedIDs = ["main", "top"] }
        with { $0.highlight = true }
        let digests = Set([base].map(NoteCache.settingsDigest) + changed.map(NoteCache.settingsDigest))
        #expect(digests.count == changed.count + 1)
        #expect(NoteCache.settingsDigest(base) == NoteCache.settingsDigest(base))
    }

    /// An entry whose bytes do not decode (a file whose checksum matched, of a sitegen whose
    /// `Note` differed) is not used: its note is rendered again, with one warning.
    @Test func anEntryThatDoesNotDecodeIsRenderedAgain() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let content = try write(Self.notes)
        let loader = NoteLoader(content: content, notesCollection: "bounties", includeDrafts: false)
        let key = NoteCache.key(
            settings: NoteCache.settingsDigest(loader.settings),
            bytes: try content.read("notes/b.md"))
        let body = ByteSink()
        body.bytes = [1, 0, 0, 0]
        body.entry("notes/b.md", key, try BinaryCoding.encode(["not": "a note"]))
        let folder = root.appendingPathComponent("cache")
        let cache = NoteCache(folder: folder)
        try NoteCache.write(cache.header(of: body.bytes), body.bytes, to: cache.file)
        let reread = NoteCache(folder: folder)
        let note = try NoteLoader(content: content, settings: loader.settings, cache: reread).load("notes/b.md")
        #expect(note?.html == (try loader.load("notes/b.md"))?.html)
        #expect(reread.counts == (1, 0))
        #expect(reread.warnings.map(\.message).first?.hasPrefix("note cache: an entry cannot be read") == true)
    }

    /// A cache saved and read again gives back every note (drafts left out too) equal, with
    /// nothing rendered; a note edited since misses.
    @Test func aSavedCacheGivesTheNotesBack() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let content = try write(Self.notes)
        let folder = root.appendingPathComponent("cache/notes")
        let first = NoteCache(folder: folder)
        let cold = try NoteLoader(content: content, notesCollection: "bounties", includeDrafts: false, cache: first)
            .loadAll()
        first.save(threads: 2)
        #expect(first.counts == (3, 0) && first.warnings.isEmpty)
        _ = try write(["notes/b.md": "Edited.\n"])
        let second = NoteCache(folder: folder)
        let warm = try NoteLoader(content: content, notesCollection: "bounties", includeDrafts: false, cache: second)
            .loadAll()
        #expect(second.counts == (1, 2) && second.warnings.isEmpty)
        #expect(warm[0] == cold[0] && warm[1].html.contains("Edited."))
    }
}
