import Foundation
import SiteCore
import SiteRender
import Testing
@testable import SiteBuild

/// `serve`'s promise, tested as a property: after any sequence of ordinary edits the folder a
/// `SiteSession` keeps is byte for byte what a full build of the same sources writes into an
/// empty folder (every file and folder), and a broken edit fails both and changes nothing.
/// A warm build (`sitegen build` again into the same output with the same cache) is held to
/// the same, its record, notes cache and output damaged now and then (`WarmDamage`).
/// Random sites and edits come from seeds (`DifferentialRun`, `SiteSpec`); a mismatch names
/// the seed, the edit, the path (serve or warm build) and the edits so far, and
/// `scripts/differential.sh SEEDS EDITS` repeats it.
@Suite struct DifferentialRebuildTests {
    @Test(arguments: DifferentialSeeds.fixed) func fixedSeed(_ seed: UInt64) throws {
        try DifferentialRun(seed: seed, edits: DifferentialSeeds.edits(of: seed), warm: DifferentialSeeds.fixedWarm)
            .run()
    }

    /// The seeds of `DIFFERENTIAL_SEEDS` (scripts/differential.sh), known failures included; a
    /// mismatch starts a new session (or empties the warm output and cache) and the edits go on,
    /// so one seed can show several causes. A warm build follows every edit unless
    /// `DIFFERENTIAL_WARM` says `some` or `none`.
    @Test(.enabled(if: !DifferentialSeeds.requested.isEmpty), arguments: DifferentialSeeds.requested)
    func requestedSeed(_ seed: UInt64) throws {
        try DifferentialRun(
            seed: seed, edits: DifferentialSeeds.requestedEdits, warm: DifferentialSeeds.requestedWarm, goesOn: true
        ).run()
    }

    /// The same seed makes the same site and edits: a reported seed reproduces.
    @Test func aSeedMakesTheSameSiteAndEdits() {
        func trace(_ seed: UInt64) -> [String] {
            var dice = Dice(seed: seed)
            var spec = SiteSpec.random(&dice)
            var out = [spec.summary]
            for _ in 0..<30 { out.append(spec.randomEdit(&dice)) }
            return out + spec.files.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.hashValue)" }
        }
        #expect(trace(5) == trace(5))
        #expect(trace(5) != trace(6))
    }

    /// Each damage of a warm build's cache and output does what it says, and nothing where
    /// there is nothing to damage: a test of the test's support.
    @Test func theWarmDamagesDoWhatTheySay() throws {
        let f = try Fixture(files: [:])
        defer { f.remove() }
        let cache = f.root.appendingPathComponent("cache"), output = f.root.appendingPathComponent("out")
        var dice = Dice(seed: 1)
        for damage in WarmDamage.allCases {
            #expect(damage.apply(cache: cache, output: output, &dice).contains("no "), "\(damage) on nothing")
        }
        let page = "<html>Page</html>\n", record = Data(repeating: 7, count: 64)
        let recordFile = WarmCache.record(cache: cache, output: output)
        func reset() throws {
            try FileManager.default.createDirectory(
                at: recordFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try record.write(to: recordFile)
            try f.write("cache/\(WarmCache.notes)/a", "note")
            try f.write("out/a/index.html", page)
        }
        func status() -> stat {
            var s = stat()
            _ = stat(output.appendingPathComponent("a/index.html").path, &s)
            return s
        }
        for damage in WarmDamage.allCases {
            try reset()
            let before = status()
            _ = damage.apply(cache: cache, output: output, &dice)
            let (kept, after) = (try? Data(contentsOf: recordFile), status())
            let text = try? f.read("out/a/index.html")
            switch damage {
            case .recordCut: #expect(kept.map { $0.count < 64 && record.starts(with: $0) } == true)
            case .recordGarbled: #expect(kept != nil && kept != record)
            case .recordDeleted: #expect(kept == nil)
            case .notesDeleted: #expect(!FileManager.default.fileExists(atPath: cache.path + "/" + WarmCache.notes))
            case .pageDeleted: #expect(text == nil)
            case .pageEdited: #expect(text.map { $0.count > page.count } == true && after.st_ino == before.st_ino)
            case .pageEditedSameSize, .pageEditedTimeKept:
                #expect(text != page && text?.lowercased() == page.lowercased() && after.st_ino == before.st_ino)
                let sameTime =
                    after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec
                #expect(sameTime || damage == .pageEditedSameSize)
            }
        }
    }

    /// The three dataset writers give what sitegen reads as the same items.
    @Test func theDatasetFormatsReadAlike() throws {
        var dice = Dice(seed: 1)
        var spec = SiteSpec.random(&dice)
        spec.collections = [spec.collections[0]]
        spec.collections[0].ownedBy = nil
        (spec.notes, spec.overview) = ([:], nil)
        if let t = spec.collections[0].detail, t != "detail" {
            spec.templates[t] = spec.itemTemplate(spec.collections[0].name)
        }
        var pages: [String] = []
        for format in DataFormat.allCases {
            spec.collections[0].format = format
            let f = try Fixture(files: [:])
            defer { f.remove() }
            for (path, data) in spec.files { try f.write(path, data) }
            if case .failure(let e) = f.build() { Issue.record("\(format): \(e)") }
            pages.append(try f.read("public/\(spec.collections[0].name)/index.html"))
        }
        #expect(Set(pages).count == 1, "one list page for the four formats")
    }

    // MARK: - The issue's reproductions

    /// A folder of a site with a session over it, compared with full builds of the same sources.
    struct Served {
        let site: Fixture
        var session: SiteSession
        var live: URL { site.root.appendingPathComponent("live") }

        init(_ site: Fixture) throws {
            self.site = site
            session = try SiteSession(BuildOptions(source: site.root, output: site.root.appendingPathComponent("live")))
        }

        mutating func edit(_ path: String, _ text: String) throws {
            try site.write(path, text)
            _ = try session.update([path])
        }

        /// What differs from a full build into an empty folder (nothing when the session is right).
        func differences() throws -> String {
            let fresh = site.root.appendingPathComponent("fresh")
            try? FileManager.default.removeItem(at: fresh)
            _ = try SiteBuilder.build(BuildOptions(source: site.root, output: fresh))
            let a = try site.snapshot(of: live), b = try site.snapshot(of: fresh)
            let differing = DifferentialRun.differing(a, b)
            return differing.isEmpty ? "" : DifferentialRun.excerpts(differing, a, b)
        }

        func page(_ path: String) throws -> String {
            try String(contentsOf: live.appendingPathComponent(path), encoding: .utf8)
        }
    }

    static let feedLink = #"<link rel="alternate" type="application/atom+xml""#
    static let tagsLink = #"<p class="tags-link"><a href="/tags/">"#

    /// The starter site: its only dated standalone note loses its date before the session
    /// starts (no feed), then gets one back: the feed comes back, and with it the feed link in
    /// the head of every page, list and item pages included.
    @Test func aDateBackOnTheOnlyDatedNoteBringsBackTheFeedLink() throws {
        let site = try Fixture(files: [:])
        defer { site.remove() }
        try StarterSite.write(to: site.root)
        let welcome = try site.read("content/notes/welcome.md")
        try site.write("content/notes/welcome.md", welcome.replacingOccurrences(of: "date: 2026-01-01\n", with: ""))
        var s = try Served(site)
        #expect(try !s.page("books/index.html").contains(Self.feedLink))
        try s.edit("content/notes/welcome.md", welcome.replacingOccurrences(of: "2026-01-01", with: "2026-02-02"))
        let differences = try s.differences()
        let list = try s.page("books/index.html"), item = try s.page("books/the-little-prince/index.html")
        #expect(list.contains(Self.feedLink) && item.contains(Self.feedLink))
        #expect(differences.isEmpty, "\(differences)")
    }

    /// The first tag on a standalone note makes the tag index (`site.tags`), whose link a site's
    /// base template shows on every page; removing the last tag removes both. (The built-in
    /// theme links it from the notes' list only, which shows the note: past 50 notes, from the
    /// pages not showing it.) Each way from a session started before the edit.
    @Test(arguments: [true, false]) func theFirstTagAddedOrTheLastRemovedChangesTheTagIndexLink(adding: Bool) throws {
        let untagged = "---\ntitle: Plain\ndate: 2026-01-01\n---\nText.\n"
        let tagged = untagged.replacingOccurrences(of: "date:", with: "tags: [swift]\ndate:")
        let base = try #require(BuiltinTheme.templates["base"]).replacingOccurrences(
            of: "</footer>", with: "{{#site.tags}}<a href=\"{{site.tags}}\">#</a>{{/site.tags}}</footer>")
        let site = try Fixture(files: [
            "site.yml": "title: T\nbaseURL: https://example.org/\n",
            "content/notes/plain.md": adding ? untagged : tagged,
            "templates/base.mustache": base
        ])
        defer { site.remove() }
        var s = try Served(site)
        try s.edit("content/notes/plain.md", adding ? tagged : untagged)
        let differences = try s.differences(), notFound = try s.page("404.html")
        #expect(notFound.contains("<a href=\"/tags/\">#</a>") == adding)
        #expect(differences.isEmpty, "\(differences)")
    }

    /// A tag is named as the first note spells it (`Swift`, `swift`: one page): respelling it
    /// renames it on the tag index too. Found by seed 10.
    @Test func aRespeltTagIsRenamedOnTheTagIndex() throws {
        let note = "---\ntitle: Tagged\ntags: [Swift]\n---\nText.\n"
        let site = try Fixture(files: [
            "site.yml": "title: T\nbaseURL: https://example.org/\n", "content/notes/tagged.md": note
        ])
        defer { site.remove() }
        var s = try Served(site)
        try s.edit("content/notes/tagged.md", note.replacingOccurrences(of: "[Swift]", with: "[swift]"))
        let differences = try s.differences(), index = try s.page("tags/index.html")
        #expect(index.contains("#swift</a>"))
        #expect(differences.isEmpty, "\(differences)")
    }

    /// The only note showing a picture becomes a draft: the picture's resized files go, and the
    /// picture is published as a plain content file again. Found by seed 7.
    @Test func theLastNotePictureGoneTakesItsFilesAlong() throws {
        let note = "---\ntitle: Picture\n---\n![a picture](/media/a.png)\n"
        let site = try Fixture(files: [
            "site.yml": "title: T\nbaseURL: https://example.org/\n", "content/notes/picture.md": note,
            "content/notes/other.md": "Text.\n"
        ])
        defer { site.remove() }
        try site.write("content/media/a.png", SiteSpec.picture("fuzz/seeds/vips/a.png"))
        var s = try Served(site)
        try s.edit("content/notes/picture.md", note.replacingOccurrences(of: "---\n!", with: "draft: true\n---\n!"))
        let differences = try s.differences()
        #expect(differences.isEmpty, "\(differences)")
    }

    /// A picture with the same bytes as one already shown makes the same files: sharing them
    /// again from the image cache (a hard link renamed over a link to the same file, which
    /// rename(2) leaves as it is) must leave no temporary file behind. Found by seed 20.
    @Test func aPictureWithTheBytesOfAnotherLeavesNoTemporaryFile() throws {
        let site = try Fixture(files: [
            "site.yml": "title: T\nbaseURL: https://example.org/\n",
            "content/notes/one.md": "---\ntitle: One\n---\n![b](/media/b.png)\n"
        ])
        defer { site.remove() }
        let picture = SiteSpec.picture("content/photos/users/sam_okoro.png")
        try site.write("content/media/b.png", picture)
        try site.write("content/media/a.png", picture)
        var s = try Served(site)
        try s.edit("content/notes/two.md", "---\ntitle: Two\n---\n![a](/media/a.png)\n")
        let differences = try s.differences()
        #expect(differences.isEmpty, "\(differences)")
    }

    /// A site of one collection whose item shows a picture, and a note attached to it showing the
    /// same picture (two recipes of one source).
    static let pictureSite = [
        "site.yml": """
        title: T
        baseURL: https://example.org/
        collections:
          books: { data: books.json, slug: id, images: { fields: image, formats: [webp, jpeg] } }
        """,
        "content/books.json": #"[{"id": "b-1", "title": "One", "image": "media/a.png"}]"#,
        "content/notes/one.md": "---\ntitle: One\nitem: books/b-1\n---\n![a](/media/a.png)\n"
    ]

    /// A picture replaced by another (new bytes, same name): the pages showing it get the new
    /// files, in the session and in a full build after it. Found by seeds 1008, 1025, 1030, 1092.
    @Test(arguments: [false, true]) func aReplacedPictureIsShownAnew(sharedWithAnItem: Bool) throws {
        var files = Self.pictureSite
        if !sharedWithAnItem { files["content/books.json"] = #"[{"id": "b-1", "title": "One"}]"# }
        let site = try Fixture(files: files)
        defer { site.remove() }
        try site.write("content/media/a.png", SiteSpec.picture("fuzz/seeds/vips/a.png"))
        var s = try Served(site)
        try site.write("content/media/a.png", SiteSpec.picture("content/photos/users/sam_okoro.png"))
        _ = try s.session.update(["content/media/a.png"])
        let differences = try s.differences(), page = try s.page("books/b-1/index.html")
        let full = try String(
            contentsOf: site.root.appendingPathComponent("fresh/books/b-1/index.html"), encoding: .utf8)
        #expect(page.contains("-128.avif 128w") && full.contains("-128.avif 128w"))
        #expect(!full.contains("srcset=\"\""), "a full build after the session")
        #expect(differences.isEmpty, "\(differences)")
    }

    /// A note linking another is in the feed with its HTML: the other's new slug changes the
    /// link in feed.xml too, also when the other (undated) is not in the feed. Found by seed 1007.
    @Test func theFeedFollowsALinkedNotesNewSlug() throws {
        let other = "---\ntitle: Other\n---\nText.\n"
        let site = try Fixture(files: [
            "site.yml": "title: T\nbaseURL: https://example.org/\n", "content/notes/other.md": other,
            "content/notes/linking.md": "---\ntitle: Linking\ndate: 2026-01-02\n---\nSee [it](other.md).\n"
        ])
        defer { site.remove() }
        var s = try Served(site)
        try s.edit("content/notes/other.md", other.replacingOccurrences(of: "title:", with: "slug: moved\ntitle:"))
        let differences = try s.differences(), feed = try s.page("feed.xml")
        #expect(feed.contains("/notes/moved/"))
        #expect(differences.isEmpty, "\(differences)")
    }

    /// A misspelt name in `tag.mustache` is a template error like one in `note.mustache`: the
    /// check must cover every template a page is rendered with, not a hand-kept list.
    @Test(arguments: ["note", "tag", "tags"]) func aTypoInANotesTemplateIsAnError(_ name: String) throws {
        let template = try #require(BuiltinTheme.templates[name]).replacingOccurrences(
            of: "{{$content}}", with: "{{$content}}{{taggd}}")
        let site = try Fixture(files: [
            "site.yml": "title: T\nbaseURL: https://example.org/\n",
            "content/notes/tagged.md": "---\ntitle: Tagged\ntags: [swift]\n---\nText.\n",
            "templates/\(name).mustache": template
        ])
        defer { site.remove() }
        let errors = site.errors()
        let found = errors.contains { $0.contains("\(name).mustache") && $0.contains("taggd") }
        #expect(found, "\(errors)")
    }
}
