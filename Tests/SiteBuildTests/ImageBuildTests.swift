import Foundation
import Synchronization
import Testing
@testable import SiteBuild
@testable import SiteImages
import SiteCore
import SiteWrite

/// The image phase end to end: real libvips on real files, the cache's counts, hostile files.
@Suite struct ImageBuildTests {
    static func photo(_ n: String) throws -> Data {
        try Data(contentsOf: Fixture.repository.appendingPathComponent("content/pinterest/photos/\(n).jpg"))
    }

    /// A site of one collection whose items name `files` (content/ paths), resized by `images`.
    func site(
        _ files: [String: Data], refs: [String],
        images: String = "{ fields: file, widths: [100, 200], formats: [webp, jpeg] }"
    ) throws -> Fixture {
        let items = refs.enumerated().map { "{\"name\": \"p\($0.offset)\", \"file\": \"\($0.element)\"}" }.joined(
            separator: ",\n")
        let f = try Fixture(files: [
            "site.yml": """
            title: T
            baseURL: https://example.org/
            collections:
              pics:
                data: pics.json
                slug: name
                images: \(images)
                layout: { kind: grid, columns: { 0: 2 } }
            """,
            "content/pics.json": "[\n\(items)\n]\n"
        ])
        for (path, data) in files { try f.write("content/\(path)", data) }
        return f
    }

    func options(_ f: Fixture) -> BuildOptions {
        var o = BuildOptions(source: f.root, output: f.output)
        o.cacheGrace = 0
        return o
    }

    func counts(_ f: Fixture) throws -> (Int, Int) {
        let r = try SiteBuilder.build(options(f))
        return (r.imagesProcessed, r.imagesCached)
    }

    func entries(_ f: Fixture) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: f.root.appendingPathComponent(".sitegen-cache/images").path)
            .filter { $0.hasSuffix(".json") && $0 != "sources.json" }
    }

    @Test func coldWarmAndOneChangedBuildsDecodeOnlyWhatChanged() throws {
        let f = try site(
            ["a.jpg": try Self.photo("01"), "b.jpg": try Self.photo("02"), "c.jpg": try Self.photo("03")],
            refs: ["a.jpg", "b.jpg", "c.jpg"])
        defer { f.remove() }
        #expect(try counts(f) == (3, 0))
        #expect(try counts(f) == (0, 3))
        try f.write("content/b.jpg", try Self.photo("04"))
        #expect(try counts(f) == (1, 2))
        // b's old entry is no longer used: pruned.
        #expect(try entries(f).count == 3)
        let page = try f.read("public/pics/index.html")
        #expect(page.contains("<source type=\"image/webp\" srcset=\"/assets/img/"))
        #expect(page.matches(of: /-100\.webp 100w, \/assets\/img\/[0-9a-f]+-200\.webp 200w/).count == 3)
        // Sources are published only through their copies.
        #expect(!FileManager.default.fileExists(atPath: f.output.appendingPathComponent("a.jpg").path))
    }

    /// The site's resized images are hard links to the cache's files, which are read-only (a
    /// tool changing a site's file in place would change the cache's).
    @Test func publishedImagesAreTheCachesReadOnlyFiles() throws {
        let f = try site(["a.jpg": try Self.photo("01")], refs: ["a.jpg"])
        defer { f.remove() }
        _ = try SiteBuilder.build(options(f))
        // 100 and 200 px for the cards and the source's own width for the built-in detail page's
        // column (`detail`: 760 px, more than the photo has), in WebP and JPEG.
        let published = try Self.images(in: f.output.appendingPathComponent("assets/img").path)
        #expect(published.count == 6)
        for path in published {
            let cached = f.root.appendingPathComponent(".sitegen-cache/images/\((path as NSString).lastPathComponent)")
                .path
            let (site, cache) = (try Self.status(path), try Self.status(cached))
            #expect(site.st_ino == cache.st_ino && site.st_dev == cache.st_dev, "\(path)")
            #expect(cache.st_mode & 0o777 == 0o444, "\(cached)")
        }
    }

    /// A cache on another file system (here tmpfs, the site under the temporary folder) cannot
    /// be linked to: its files are copied.
    @Test func aCacheOnAnotherFileSystemIsCopiedFrom() throws {
        let f = try site(["a.jpg": try Self.photo("01")], refs: ["a.jpg"])
        let elsewhere = URL(fileURLWithPath: "/dev/shm/sitegen-test-cache-\(UUID().uuidString)")
        defer { f.remove(); try? FileManager.default.removeItem(at: elsewhere) }
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        #expect(
            try Self.status(elsewhere.path).st_dev != Self.status(f.root.path).st_dev,
            "/dev/shm is on the temporary folder's file system")
        var o = options(f)
        o.cacheDir = elsewhere
        _ = try SiteBuilder.build(o)
        // 100 and 200 px for the cards and the source's own width for the built-in detail page's
        // column (`detail`: 760 px, more than the photo has), in WebP and JPEG.
        let published = try Self.images(in: f.output.appendingPathComponent("assets/img").path)
        #expect(published.count == 6)
        for path in published {
            let cached = elsewhere.appendingPathComponent("images/\((path as NSString).lastPathComponent)").path
            #expect(try Self.status(path).st_ino != Self.status(cached).st_ino)
            #expect(
                FileManager.default.contents(atPath: path) == FileManager.default.contents(atPath: cached), "\(path)")
        }
    }

    static func images(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { "\(folder)/\($0)" }
    }

    static func status(_ path: String) throws -> stat {
        var s = stat()
        guard stat(path, &s) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return s
    }

    /// A changed photo's files are encoded while the pages are written: the write phase copies
    /// the cached images first and those being encoded only once they are done.
    @Test func imagesBeingEncodedAreCopiedOnlyWhenDone() throws {
        let f = try Fixture(files: ["cache/ready.webp": "ready"])
        defer { f.remove() }
        let cache = f.root.appendingPathComponent("cache").path
        let files = [
            PlannedFile(path: "img/ready.webp", kind: .image("\(cache)/ready.webp"), source: "ready"),
            PlannedFile(path: "img/late.webp", kind: .image("\(cache)/late.webp"), source: "late")
        ]
        let encodes = PendingEncodes()
        let gate = DispatchSemaphore(value: 0)
        encodes.add(["\(cache)/late.webp"])
        encodes.start {
            gate.wait()
            _ = FileManager.default.createFile(atPath: "\(cache)/late.webp", contents: Data("late".utf8))
        }
        let copied = DispatchSemaphore(value: 0)
        let failure = Mutex<Diagnostics?>(nil)
        let sink = LiveOutput(folder: f.output)
        Thread {
            do throws(Diagnostics) { try BuildPass.publishImages(files, encodes: encodes, to: sink, threads: 2) } catch
            { failure.withLock { $0 = error } }
            copied.signal()
        }.start()
        // The cached file is copied while the other is still being encoded …
        let ready = f.output.appendingPathComponent("img/ready.webp").path
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: ready), Date() < deadline { usleep(5_000) }
        #expect(try f.read("public/img/ready.webp") == "ready")
        #expect(!FileManager.default.fileExists(atPath: f.output.appendingPathComponent("img/late.webp").path))
        // … which is copied once done.
        gate.signal()
        #expect(copied.wait(timeout: .now() + 30) == .success)
        #expect(failure.withLock { $0 } == nil)
        #expect(try f.read("public/img/late.webp") == "late")
    }

    /// Waits until every file under `f`'s content/ changed longer ago than the digests' racy
    /// window (they are not remembered before), bounded.
    func waitUntilSettled(_ f: Fixture, _ names: [String]) throws {
        let paths = names.map { f.root.appendingPathComponent("content/\($0)").path }
        let deadline = Date().addingTimeInterval(10)
        while paths.contains(where: { SourceDigests.entry($0, hash: "", readAt: SourceDigests.now) == nil }),
            Date() < deadline
        {
            usleep(20_000)
        }
    }

    @Test func aWarmBuildReadsNoSourceAndAChangeOfTheSameSizeIsSeen() throws {
        let f = try site(["a.jpg": try Self.photo("01"), "b.jpg": try Self.photo("02")], refs: ["a.jpg", "b.jpg"])
        defer { f.remove() }
        try waitUntilSettled(f, ["a.jpg", "b.jpg"])
        var r = try SiteBuilder.build(options(f))
        #expect((r.imagesProcessed, r.imagesRead) == (2, 2))
        r = try SiteBuilder.build(options(f))
        #expect((r.imagesProcessed, r.imagesCached, r.imagesRead) == (0, 2, 0))
        // Same size, same name, one byte different in the middle of the picture's data.
        var bytes = try Self.photo("02")
        bytes[bytes.count / 2] ^= 0x5A
        try f.write("content/b.jpg", bytes)
        try waitUntilSettled(f, ["b.jpg"])
        r = try SiteBuilder.build(options(f))
        #expect((r.imagesProcessed, r.imagesCached, r.imagesRead) == (1, 1, 1))
        // Replaced by another file (a new inode), the same bytes as before: read, found in the cache.
        let replacement = f.root.appendingPathComponent("content/a2.jpg")
        try Self.photo("01").write(to: replacement)
        #expect(rename(replacement.path, f.root.appendingPathComponent("content/a.jpg").path) == 0)
        try waitUntilSettled(f, ["a.jpg"])
        r = try SiteBuilder.build(options(f))
        #expect((r.imagesProcessed, r.imagesCached, r.imagesRead) == (0, 2, 1))
    }

    @Test func aFileJustWrittenIsNotRemembered() throws {
        let f = try site(["a.jpg": try Self.photo("01")], refs: ["a.jpg"])
        defer { f.remove() }
        let path = f.root.appendingPathComponent("content/a.jpg").path
        let changed = try #require(SourceDigests.lastChange(path))
        #expect(SourceDigests.entry(path, hash: "h", readAt: changed) == nil)
        #expect(SourceDigests.entry(path, hash: "h", readAt: changed + 49_000_000) == nil)
        let later = try #require(SourceDigests.entry(path, hash: "h", readAt: changed + 3_000_000_000))
        let digests = SourceDigests().updated(with: [path: later], root: f.root.path, keeping: [path])
        #expect(digests.hash(of: path) == "h")
        #expect(digests.updated(with: [:], root: f.root.path, keeping: []).hash(of: path) == nil)
        #expect(digests.updated(with: [:], root: "/elsewhere", keeping: []).hash(of: path) == "h")
        try f.write("content/a.jpg", try Self.photo("02"))
        #expect(digests.hash(of: path) == nil)
    }

    @Test func anEntryABuildUsesIsRenewedSoAnotherBuildsPruneKeepsIt() throws {
        let f = try site(["a.jpg": try Self.photo("01")], refs: ["a.jpg"])
        defer { f.remove() }
        #expect(try counts(f) == (1, 0))
        let folder = f.root.appendingPathComponent(".sitegen-cache/images")
        let entry = try #require(try entries(f).first)
        let old = Date(timeIntervalSince1970: 946_684_800)
        try FileManager.default.setAttributes(
            [.modificationDate: old], ofItemAtPath: folder.appendingPathComponent(entry).path)
        #expect(try counts(f) == (0, 1))
        let renewed = try #require(
            try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(entry).path)[
                .modificationDate] as? Date)
        #expect(renewed.timeIntervalSinceNow > -3600, "used by the build, its time is renewed")
        // Another site's build sharing the cache keeps what this one used a moment ago.
        _ = ImageCache(folder: folder).prune(keeping: [], untouchedSince: Date().addingTimeInterval(-600))
        #expect(try entries(f) == [entry])
    }

    @Test func digestsReadBackAsWrittenAndAnotherFormatIsNone() {
        let e = { (h: String, n: Int64) in
            SourceDigests.Entry(
                device: 2049, inode: UInt64(n), size: 3_000_000 + n, modified: 1_700_000_000_123_456_789 + n,
                changed: 1_700_000_001_000_000_000 + n, hash: h)
        }
        let digests = SourceDigests(entries: [
            "/a b/c.jpg": e("ab12", 1), "/tab\there.jpg": e("cd34", 2), "/ünï/çödé.png": e("ef56", 3),
            "/line\nbreak.jpg": e("0", 4)
        ])
        let read = SourceDigests(text: Substring(digests.text))
        #expect(read.entries.count == 3, "a path with a line break is not kept")
        #expect(read.entries == digests.entries.filter { !$0.key.contains("\n") })
        #expect(
            SourceDigests(text: #"{"/a.jpg":{"hash":"ab12","device":1,"inode":2,"size":3,"modified":4,"changed":5}}"#)
                .entries.isEmpty)
        #expect(
            SourceDigests(text: Substring(digests.text.replacingOccurrences(of: "\t2049\t", with: "\tx\t"))).entries
                .isEmpty)
    }

    @Test func aBuildKilledMidWayLeavesACacheTheNextBuildUses() throws {
        let f = try site(["a.jpg": try Self.photo("01"), "b.jpg": try Self.photo("02")], refs: ["a.jpg", "b.jpg"])
        defer { f.remove() }
        #expect(try counts(f) == (2, 0))
        // What a build killed while storing an entry leaves: some files (one cut short), no JSON,
        // and a temporary file.
        let folder = f.root.appendingPathComponent(".sitegen-cache/images")
        let json = try #require(try entries(f).sorted().first)
        let key = String(json.dropLast(5))
        try FileManager.default.removeItem(at: folder.appendingPathComponent(json))
        let cut = folder.appendingPathComponent("\(key)-200.webp")
        let whole = try Data(contentsOf: cut)
        // A new file (the cache's are read-only, and the site's copy is a link to this one).
        try FileManager.default.removeItem(at: cut)
        try whole.prefix(10).write(to: cut)
        try Data("half".utf8).write(to: folder.appendingPathComponent(".tmp-1-x"))
        #expect(try counts(f) == (1, 1))
        #expect(try Data(contentsOf: cut) == whole)
        // An index whose files are not all there is no entry either.
        let other = try #require(try entries(f).sorted().last.map { String($0.dropLast(5)) })
        #expect(other != key)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("\(other)-100.jpg"))
        #expect(try counts(f) == (1, 1))
        let published = try FileManager.default.contentsOfDirectory(
            atPath: f.output.appendingPathComponent("assets/img").path)
        for name in published where name.hasPrefix(key) {
            #expect(
                try Data(contentsOf: f.output.appendingPathComponent("assets/img/\(name)"))
                    == Data(contentsOf: folder.appendingPathComponent(name)))
        }
    }

    /// Temporary files whose writer is gone (a killed build's, a failed one's: no process holds
    /// their lock) are deleted by the next build that uses the cache, also a failing one; a file
    /// a live writer holds is kept.
    @Test func temporaryFilesOfGoneWritersAreDeletedByTheNextBuild() throws {
        let f = try site(["a.jpg": try Self.photo("01")], refs: ["a.jpg"])
        defer { f.remove() }
        #expect(try counts(f) == (1, 0))
        let folder = f.root.appendingPathComponent(".sitegen-cache/images")
        for name in [".tmp-1-x", ".tmp-\(UUID().uuidString)", ".tmp-empty"] {
            try Data((name == ".tmp-empty" ? "" : "half").utf8).write(to: folder.appendingPathComponent(name))
        }
        let live = folder.appendingPathComponent(".tmp-live").path
        let fd = open(live, O_RDWR | O_CREAT, 0o600)
        defer { close(fd) }
        #expect(fd >= 0 && flock(fd, LOCK_EX) == 0)
        try f.write("content/n.md", "---\ntitle: N\nitem: pics/nope\n---\nText.\n")
        #expect(throws: Diagnostics.self) { try SiteBuilder.build(options(f)) }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        #expect(left == [".tmp-live"])
    }

    /// A build that fails while a photo's files are being encoded returns only once they are
    /// stored: nothing of it goes on writing to the cache. It fails after the image phase (a note
    /// attached to no item) or in it (another source cut short: its error is read again with
    /// libvips to itself, which also waits for the encodes). The photo is the example's
    /// widest, in AVIF too, so its encodes outlast the rest of the failing build.
    @Test(arguments: ["note", "cut"])
    func aFailedBuildEndsItsEncodesFirst(failure: String) throws {
        let photo = try Data(
            contentsOf: Fixture.repository.appendingPathComponent("content/photos/images/JhPbiLWp6Gx.jpg"))
        let files = failure == "cut" ? ["a.jpg": photo, "cut.jpg": photo.prefix(photo.count / 2)] : ["a.jpg": photo]
        let f = try site(
            files, refs: files.keys.sorted(), images: "{ fields: file, widths: [2160], formats: [avif, webp, jpeg] }")
        defer { f.remove() }
        if failure == "note" { try f.write("content/n.md", "---\ntitle: N\nitem: pics/nope\n---\nText.\n") }
        #expect(throws: Diagnostics.self) { try SiteBuilder.build(options(f)) }
        // The entry's JSON is written last, after every file.
        #expect(try entries(f).count == 1, "\(failure)")
    }

    /// The same for `serve`: an update that decodes a new photo and then fails (a note attached to
    /// no item, found by the model after the image phase) returns only once the photo is stored,
    /// so nothing of a failed update runs on into the next one.
    @Test func aFailedUpdateEndsItsEncodesFirst() throws {
        let f = try site(
            ["a.jpg": try Self.photo("01")], refs: ["a.jpg"],
            images: "{ fields: file, widths: [2160], formats: [avif, webp, jpeg] }")
        defer { f.remove() }
        var session = try SiteSession(options(f))
        #expect(try entries(f).count == 1)
        // The example's widest photo, with a comment of its own so that no cache has it.
        let photo = try Data(
            contentsOf: Fixture.repository.appendingPathComponent("content/photos/images/JhPbiLWp6Gx.jpg"))
        try f.write("content/big.jpg", photo + Data("\(UUID())".utf8))
        try f.write(
            "content/pics.json",
            "[{\"name\": \"p0\", \"file\": \"a.jpg\"}, {\"name\": \"p1\", \"file\": \"big.jpg\"}]\n")
        try f.write("content/n.md", "---\ntitle: N\nitem: pics/nope\n---\nText.\n")
        #expect(throws: Diagnostics.self) {
            try session.update(["content/big.jpg", "content/pics.json", "content/n.md"])
        }
        // The entry's JSON is written last, after every file.
        #expect(try entries(f).count == 2, "the failed update returned before the photo's encodes ended")
    }

    @Test func hostileImagesAreLocatedErrorsAndLeaveThePreviousOutput() throws {
        var bomb = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8))
        bomb += Data([0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0, 8, 2, 0, 0, 0, 0, 0, 0, 0])  // 100000 × 100000, RGB
        let good = try Self.photo("01")
        let f = try site(
            [
                "good.jpg": good, "cut.jpg": good.prefix(good.count / 2), "text.jpg": Data("not a picture\n".utf8),
                "bomb.png": bomb, "pic.bmp": Data("BM".utf8) + Data(count: 60)
            ],
            refs: ["good.jpg"])
        defer { f.remove() }
        _ = try SiteBuilder.build(options(f))
        let before = try f.read("public/pics/index.html")
        for (ref, message) in [
            (
                "cut.jpg",
                "content/pics.json:3:1: error: at [1].file: image 'content/cut.jpg': cannot decode: VipsJpeg: Premature end of input file"
            ),
            ("text.jpg", "content/pics.json:3:24: error: image 'content/text.jpg': not a JPEG file: bad signature"),
            (
                "bomb.png",
                "content/pics.json:3:24: error: image 'content/bomb.png' is 100000×100000 px, more than the limit of 100000000 pixels (images.maxPixels): refused before decoding"
            ),
            (
                "pic.bmp",
                "content/pics.json:3:24: error: 'content/pic.bmp' is not an image sitegen can size (png, jpg, gif, webp, svg)"
            )
        ] {
            try f.write(
                "content/pics.json",
                "[\n{\"name\": \"p0\", \"file\": \"good.jpg\"},\n{\"name\": \"p1\", \"file\": \"\(ref)\"}\n]\n")
            #expect(f.errors() == [message])
            #expect(try f.read("public/pics/index.html") == before, "\(ref)")
        }
    }
}
