import Foundation
import SiteCore
import Testing
@testable import SiteBuild

/// The note cache in whole builds (issue 48): a build where nothing changed renders no Markdown
/// and writes the bytes a build without the cache writes; what a note is made of changing (its
/// file, an image it shows, a setting) is seen; a bad cache file is a warning, never trusted.
@Suite struct NoteCacheBuildTests {
    static let files = [
        "site.yml": """
        title: T
        baseURL: https://example.org/
        collections:
          things:
            data: things.json
            slug: name
            detail: { template: detail, url: "/things/{slug}/" }
        """,
        "content/things.json": "[{\"name\": \"one\"}]",
        "content/notes/a.md": """
        ---
        title: Harbour notes
        date: 2024-01-31
        tags: [sea, Port]
        toc: true
        ---
        ## Tides

        See [b](b.md#usage) and the footnote[^1].

        ```swift
        let tide = 1
        ```

        [^1]: Here.
        """,
        "content/notes/b.md": "---\ntitle: B\n---\n## Usage\n\nWith <span onclick=\"x()\">raw HTML</span>.\n",
        "content/notes/c.md": "---\ntitle: C\nitem: things/one\n---\n## Setup\n",
        "content/notes/d.md": "---\ntitle: D\ndraft: true\n---\nDraft.\n",
        "content/notes/e.md": "---\ntitle: E\n---\n![a picture](pic.svg)\n",
        "content/notes/pic.svg": svg(40, 30)
    ]

    static func svg(_ width: Int, _ height: Int) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\"></svg>\n"
    }

    func site() throws -> Fixture { try Fixture(files: Self.files) }

    func build(
        _ f: Fixture, output: URL? = nil, cache: URL? = nil, baseURL: String? = nil, drafts: Bool = false,
        threads: Int = Parallelism.cores
    ) throws -> BuildReport {
        var o = BuildOptions(
            source: f.root, output: output ?? f.output, baseURL: baseURL, includeDrafts: drafts, cacheDir: cache)
        o.threads = threads
        o.incremental = true
        return try SiteBuilder.build(o)
    }

    func cacheFile(_ f: Fixture) -> URL { f.root.appendingPathComponent(".sitegen-cache/notes/notes.bin") }

    /// The cache's warnings (those naming its file).
    func cacheWarnings(_ f: Fixture, _ r: BuildReport) -> [String] {
        r.warnings.filter { $0.location.file == cacheFile(f).path }.map(\.message)
    }

    @Test func aWarmBuildRendersNoMarkdownAndWritesTheSameBytes() throws {
        let f = try site()
        defer { f.remove() }
        let cold = try build(f)
        #expect((cold.notesRendered, cold.notesCached) == (5, 0))  // the draft too: left out from the cache
        let before = try f.snapshot()
        for threads in [1, 2, 5] {
            let warm = try build(f, threads: threads)
            #expect((warm.notesRendered, warm.notesCached) == (0, 5))
            #expect(try f.snapshot() == before)
            #expect(warm.warnings == cold.warnings && warm.warnings.count == 1)
        }
        // A build with another, empty cache writes the same bytes.
        let other = f.root.appendingPathComponent("other")
        let fresh = try build(f, output: other, cache: f.root.appendingPathComponent("cache2"))
        #expect(fresh.notesRendered == 5 && fresh.warnings == cold.warnings)
        #expect(try f.snapshot(of: other) == before)
    }

    @Test func anEditedNoteIsRenderedAgain() throws {
        let f = try site()
        defer { f.remove() }
        _ = try build(f)
        try f.write("content/notes/b.md", "---\ntitle: B\n---\n## Usage\n\nEdited.\n")
        let r = try build(f)
        #expect((r.notesRendered, r.notesCached) == (1, 4))
        #expect(try f.read("public/notes/b/index.html").contains("<p>Edited.</p>"))
        #expect(r.warnings.isEmpty)  // its raw HTML is gone, and the warning with it
    }

    /// The key covers a note's file, not the images it shows: they are sized again from their
    /// files, so a changed image changes the page, and a missing one is the error a fresh load gives.
    @Test func anEditedImageUpdatesItsPicture() throws {
        let f = try site()
        defer { f.remove() }
        _ = try build(f)
        #expect(try f.read("public/notes/e/index.html").contains(" width=\"40\" height=\"30\" alt=\"a picture\""))
        try f.write("content/notes/pic.svg", Self.svg(80, 20))
        let r = try build(f)
        #expect(r.notesCached == 5)
        #expect(try f.read("public/notes/e/index.html").contains(" width=\"80\" height=\"20\" alt=\"a picture\""))
        try FileManager.default.removeItem(at: f.root.appendingPathComponent("content/notes/pic.svg"))
        #expect(
            f.errors() == ["content/notes/e.md:4: error: image 'content/notes/pic.svg' does not exist"])
    }

    @Test func changedSettingsMiss() throws {
        let f = try site()
        defer { f.remove() }
        _ = try build(f)
        let sub = try build(f, baseURL: "https://example.org/sub/")
        #expect((sub.notesRendered, sub.notesCached) == (5, 0))
        #expect(try f.read("public/notes/a/index.html").contains("<a href=\"/sub/notes/b/#usage\">b</a>"))
        let drafts = try build(f, drafts: true)
        #expect((drafts.notesRendered, drafts.notesCached) == (5, 0))
        #expect(FileManager.default.fileExists(atPath: f.output.appendingPathComponent("notes/d/index.html").path))
        #expect(try build(f, drafts: true).notesCached == 5)
    }

    /// What is done to the cache file after a build, and the reason the next build gives.
    enum Harm: String, CaseIterable {
        case damaged, truncated, otherVersion, otherFormat, notACache, empty

        func apply(_ bytes: inout Data) {
            switch self {
            case .damaged:
                // A letter of a note's HTML: a file that reads, whose checksum alone tells.
                let at = bytes.firstRange(of: Data("Harbour".utf8))!.lowerBound
                bytes[at] = UInt8(ascii: "X")
            case .truncated: bytes = bytes.prefix(bytes.count / 2)
            case .otherVersion:
                let at = bytes.firstRange(of: Data(SitegenVersion.current.utf8))!.lowerBound
                bytes[at] = UInt8(ascii: "9")
            case .otherFormat: bytes[NoteCacheBuildTests.magicCount] = 99
            case .notACache: bytes = Data("hello".utf8)
            case .empty: bytes = Data()
            }
        }

        var reason: String {
            switch self {
            case .damaged: "it is damaged (its checksum does not match its bytes)"
            case .truncated: "it is cut short"
            case .otherVersion: "it was written by sitegen 9"
            case .otherFormat: "it is of format 99, this sitegen's is"
            case .notACache, .empty: "it is not a note cache"
            }
        }
    }

    static let magicCount = "sitegen note cache\n".utf8.count

    @Test(arguments: Harm.allCases)
    func aBadCacheIsIgnoredWithOneWarning(_ harm: Harm) throws {
        let f = try site()
        defer { f.remove() }
        _ = try build(f)
        let before = try f.snapshot()
        var bytes = try Data(contentsOf: cacheFile(f))
        harm.apply(&bytes)
        try bytes.write(to: cacheFile(f))
        let r = try build(f)
        let warnings = cacheWarnings(f, r)
        #expect(warnings.count == 1 && warnings[0].hasPrefix("note cache ignored: \(harm.reason)"), "\(warnings)")
        #expect((r.notesRendered, r.notesCached) == (5, 0))
        #expect(try f.snapshot() == before)
        // The file was written again, whole.
        let again = try build(f)
        #expect(again.notesCached == 5 && cacheWarnings(f, again).isEmpty)
    }

    /// A file larger than any cache (sparse: 600 MB in no time) is a warning, never read.
    @Test func aHugeCacheIsIgnoredUnread() throws {
        let f = try site()
        defer { f.remove() }
        _ = try build(f)
        #expect(truncate(cacheFile(f).path, 600 << 20) == 0)
        let r = try build(f)
        #expect(cacheWarnings(f, r).first?.hasPrefix("note cache ignored: it is larger than 512 MB") == true)
        #expect((r.notesRendered, r.notesCached) == (5, 0))
    }

    /// A cache file that cannot be read (a folder in its place) is a warning, and so is its
    /// writing, which fails there too.
    @Test func anUnreadableCacheIsAWarning() throws {
        let f = try site()
        defer { f.remove() }
        _ = try build(f)
        let before = try f.snapshot()
        try FileManager.default.removeItem(at: cacheFile(f))
        try FileManager.default.createDirectory(at: cacheFile(f), withIntermediateDirectories: false)
        let r = try build(f)
        let warnings = cacheWarnings(f, r)
        #expect(warnings.count == 2 && warnings[0].hasPrefix("note cache ignored: it cannot be read"), "\(warnings)")
        #expect(warnings.last?.hasPrefix("note cache not written: cannot write") == true)
        #expect(r.notesRendered == 5)
        #expect(try f.snapshot() == before)
    }

    @Test func anUnwritableCacheFolderIsAWarning() throws {
        let f = try site()
        defer { f.remove() }
        try f.write(".sitegen-cache/notes", "a file where the folder would be\n")
        let r = try build(f)
        let notes = f.root.appendingPathComponent(".sitegen-cache/notes").path
        #expect(
            cacheWarnings(f, r) == [
                "note cache not written: cannot make \(notes): not a folder (notes are kept no further)"
            ])
        #expect(try f.read("public/notes/b/index.html").contains("raw HTML"))
        #expect(try build(f).notesRendered == 5)
    }

    /// The file is replaced by a rename: a reader of the old one (another build) keeps it whole,
    /// and a build that used exactly its entries leaves it as it was. Temporary files of writers
    /// gone for an hour are removed; a newer one (a build writing now) is left.
    @Test func theFileIsReplacedAtomically() throws {
        let f = try site()
        defer { f.remove() }
        _ = try build(f)
        let old = f.root.appendingPathComponent("old.bin")
        try FileManager.default.linkItem(at: cacheFile(f), to: old)
        let oldBytes = try Data(contentsOf: old)
        _ = try build(f)
        #expect(try inode(cacheFile(f)) == inode(old))
        let folder = cacheFile(f).deletingLastPathComponent()
        let (stale, fresh) = (folder.appendingPathComponent(".tmp-1-a"), folder.appendingPathComponent(".tmp-2-b"))
        try Data().write(to: stale)
        try Data().write(to: fresh)
        try FileManager.default.setAttributes([.modificationDate: Date() - 3700], ofItemAtPath: stale.path)
        try f.write("content/notes/b.md", "Edited.\n")
        _ = try build(f)
        #expect(try Data(contentsOf: old) == oldBytes)
        #expect(try Data(contentsOf: cacheFile(f)) != oldBytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [".tmp-2-b", "notes.bin"])
    }

    func inode(_ url: URL) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int
    }

    /// The file holds the entries the last build used: a note removed leaves it.
    @Test func theFileHoldsTheNotesOfTheLastBuild() throws {
        let f = try site()
        defer { f.remove() }
        _ = try build(f)
        #expect(try Data(contentsOf: cacheFile(f)).firstRange(of: Data("notes/c.md".utf8)) != nil)
        try FileManager.default.removeItem(at: f.root.appendingPathComponent("content/notes/c.md"))
        let r = try build(f)
        #expect((r.notesRendered, r.notesCached) == (0, 4))
        #expect(try Data(contentsOf: cacheFile(f)).firstRange(of: Data("notes/c.md".utf8)) == nil)
    }
}
