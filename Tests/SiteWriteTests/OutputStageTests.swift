import Foundation
import Testing
import SiteCore
@testable import SiteWrite

/// The staging folder, the swap, and what killed builds leave beside the output (issue 21).
@Suite struct OutputStageTests {
    /// A temporary folder holding `public/`.
    struct Place {
        let parent: URL
        var output: URL { parent.appendingPathComponent("public") }

        init() throws {
            parent = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-stage-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        }

        /// Everything beside `public/`.
        func siblings() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: parent.path).filter { $0 != "public" }.sorted()
        }

        /// Relative path → text of every file under `public/`.
        func files() throws -> [String: String] {
            var out: [String: String] = [:]
            guard let walker = FileManager.default.enumerator(atPath: output.path) else { return out }
            while let rel = walker.nextObject() as? String {
                var dir: ObjCBool = false
                if FileManager.default.fileExists(atPath: output.appendingPathComponent(rel).path, isDirectory: &dir),
                    !dir.boolValue
                {
                    out[rel] = try String(contentsOf: output.appendingPathComponent(rel), encoding: .utf8)
                }
            }
            return out
        }

        func remove() { try? FileManager.default.removeItem(at: parent) }
    }

    @Test(arguments: ["a/../../x", "..", "../x", "a/..", "./a", "a/./b", "/etc/passwd", "a//b", "a/", "", "a\u{0}b"])
    func pathsLeavingTheStagingFolderAreRefused(path: String) throws {
        let place = try Place()
        defer { place.remove() }
        let stage = try OutputStage(output: place.output)
        #expect(!OutputStage.isSafe(path))
        #expect(throws: Diagnostic.self) { try stage.write("x", to: path, source: "t") }
        stage.discard()
        #expect(!FileManager.default.fileExists(atPath: place.parent.appendingPathComponent("x").path))
        #expect(try place.siblings() == [])
    }

    @Test func safePathsAreWritten() throws {
        let place = try Place()
        defer { place.remove() }
        let stage = try OutputStage(output: place.output)
        for path in ["index.html", "a/b/c.html", "..a/b", "a../b", ".well-known/x", ".../x", "b/..."] {
            #expect(OutputStage.isSafe(path))
            try stage.write(path, to: path, source: "t")
        }
        try stage.commit()
        #expect(
            try place.files() == [
                "index.html": "index.html", "a/b/c.html": "a/b/c.html", "..a/b": "..a/b", "a../b": "a../b",
                ".well-known/x": ".well-known/x", ".../x": ".../x", "b/...": "b/..."
            ])
    }

    @Test func filesCopiedAndWrittenFromManyThreadsIntoOneNewFolderAreAllThere() throws {
        let place = try Place()
        defer { place.remove() }
        let source = place.parent.appendingPathComponent("photo.webp")
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: source)
        let stage = try OutputStage(output: place.output)
        let paths = (0..<2000).map { "assets/img/\($0 % 10)/\($0).webp" }
        // Each folder is made by the first write into it, while the other threads write theirs.
        let failures = paths.parallelMap(threads: 8, minimumCount: 1) { path -> String? in
            do throws(Diagnostic) {
                if path.hasSuffix("0.webp") {
                    try stage.write(Data("w".utf8), to: path, source: "t")
                } else {
                    try stage.copy(source.path, to: path, source: "t")
                }
            } catch { return error.description }
            return nil
        }
        #expect(failures.compactMap { $0 } == [])
        try stage.commit()
        for path in paths {
            let data = try Data(contentsOf: place.output.appendingPathComponent(path))
            #expect(data == (path.hasSuffix("0.webp") ? Data("w".utf8) : bytes), "\(path)")
        }
        // A missing source is an error naming the file it was for.
        let again = try OutputStage(output: place.output)
        let gone = place.parent.appendingPathComponent("gone.webp").path
        #expect(
            throws: Diagnostic(
                file: "content/a.jpg", "cannot write a.webp: cannot read \(gone): No such file or directory")
        ) {
            try again.copy(gone, to: "a.webp", source: "content/a.jpg")
        }
        again.discard()
    }

    /// A shared file (the image cache's) is a hard link in a new site and in a served one; a
    /// copied file (content/) is a file of its own.
    @Test func sharedFilesAreLinkedAndCopiedFilesAreNot() throws {
        let place = try Place()
        defer { place.remove() }
        let original = place.parent.appendingPathComponent("cached.webp").path
        _ = FileManager.default.createFile(atPath: original, contents: Data("pixels".utf8))
        let stage = try OutputStage(output: place.output)
        try stage.share(original, to: "img/a.webp", source: "a")
        try stage.copy(original, to: "img/b.webp", source: "b")
        try stage.commit()
        let live = LiveOutput(folder: place.output)
        try live.share(original, to: "img/c.webp", source: "c")
        try live.copy(original, to: "img/d.webp", source: "d")
        let inode = { (path: String) -> UInt in
            var s = stat()
            return stat(path, &s) == 0 ? UInt(s.st_ino) : 0
        }
        #expect(
            try place.files() == [
                "img/a.webp": "pixels", "img/b.webp": "pixels", "img/c.webp": "pixels", "img/d.webp": "pixels"
            ])
        let folder = place.output.appendingPathComponent("img").path
        #expect(inode("\(folder)/a.webp") == inode(original))
        #expect(inode("\(folder)/c.webp") == inode(original))
        #expect(inode("\(folder)/b.webp") != inode(original))
        #expect(inode("\(folder)/d.webp") != inode(original))
    }

    @Test func aPathWrittenTwiceNamesBothSources() throws {
        let place = try Place()
        defer { place.remove() }
        let stage = try OutputStage(output: place.output)
        try stage.write("one", to: "a/index.html", source: "content/a.md")
        #expect(throws: Diagnostic(file: "content/b.md", "'a/index.html' is also written by content/a.md")) {
            try stage.write("two", to: "a/index.html", source: "content/b.md")
        }
        stage.discard()
    }

    @Test func commitReplacesThePreviousOutputWholeAndLeavesNothingBeside() throws {
        let place = try Place()
        defer { place.remove() }
        let first = try OutputStage(output: place.output)
        try first.write("old", to: "old.html", source: "t")
        try first.write("old", to: "kept/name.html", source: "t")
        try first.commit()
        let second = try OutputStage(output: place.output)
        #expect(try place.siblings().count == 2, "the staging folder and its lock while the build runs")
        try second.write("new", to: "new.html", source: "t")
        try second.write("new", to: "kept/name.html", source: "t")
        try second.commit()
        #expect(try place.files() == ["new.html": "new", "kept/name.html": "new"])
        #expect(try place.siblings() == [])
    }

    @Test func discardLeavesThePreviousOutputAsItWas() throws {
        let place = try Place()
        defer { place.remove() }
        let first = try OutputStage(output: place.output)
        try first.write("old", to: "index.html", source: "t")
        try first.commit()
        let failed = try OutputStage(output: place.output)
        try failed.write("new", to: "index.html", source: "t")
        failed.discard()
        #expect(try place.files() == ["index.html": "old"])
        #expect(try place.siblings() == [])
    }

    /// A build killed with `kill -9` leaves its staging folder, old folder and lock file; the next
    /// build removes them, but never those of a build that is still running.
    @Test func foldersOfAKilledBuildAreRemovedAndALiveBuildsKept() throws {
        let place = try Place()
        defer { place.remove() }
        let token = "4194000-17"
        for name in [".public.sitegen-\(token)", ".public.old-\(token)"] {
            try FileManager.default.createDirectory(
                at: place.parent.appendingPathComponent(name).appendingPathComponent("a"),
                withIntermediateDirectories: true)
        }
        // A real process holds the build's lock, as a running build does.
        let holder = Process()
        // The shell becomes `sleep` holding the lock itself, so killing it frees the lock (flock(1)
        // would leave an orphaned child holding it).
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = [
            "-c", "exec 9>\"$0\" && flock 9 && exec sleep 600",
            place.parent.appendingPathComponent(".public.sitegen-\(token).lock").path
        ]
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
        try waitUntil {
            Leftovers(output: place.output).isRunning(
                token, lock: place.parent.appendingPathComponent(".public.sitegen-\(token).lock").path)
        }

        let whileAlive = try OutputStage(output: place.output)
        whileAlive.discard()
        #expect(
            try place.siblings() == [
                ".public.old-\(token)", ".public.sitegen-\(token)", ".public.sitegen-\(token).lock"
            ])

        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        let afterDeath = try OutputStage(output: place.output)
        afterDeath.discard()
        #expect(try place.siblings() == [])
    }

    /// Without a lock file (sitegen before locks, or a build killed between lock and folder) the
    /// folder's process id decides.
    @Test func aFolderWithoutALockIsJudgedByItsProcess() throws {
        let place = try Place()
        defer { place.remove() }
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let me = ProcessInfo.processInfo.processIdentifier
        for name in [
            ".public.sitegen-\(gone.processIdentifier)-1", ".public.sitegen-\(me)-2", ".public.other",
            "public.sitegen-1-1"
        ] {
            try FileManager.default.createDirectory(
                at: place.parent.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        try OutputStage(output: place.output).discard()
        #expect(try place.siblings() == [".public.other", ".public.sitegen-\(me)-2", "public.sitegen-1-1"])
    }

    /// Two builds of one output at once: each swap replaces a whole site with a whole site.
    @Test func twoConcurrentBuildsEachLeaveAWholeSite() async throws {
        let place = try Place()
        defer { place.remove() }
        for round in 0..<10 {
            let results = await withTaskGroup(of: Bool.self) { group in
                for who in ["a", "b"] {
                    group.addTask {
                        do {
                            let stage = try OutputStage(output: place.output)
                            for k in 0..<50 { try stage.write("\(who)\(round)", to: "p\(k)/index.html", source: who) }
                            try stage.commit()
                            return true
                        } catch { return false }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results == [true, true])
            let texts = Set(try place.files().values)
            #expect(texts == ["a\(round)"] || texts == ["b\(round)"], "a mixed site: \(texts)")
            #expect(try place.files().count == 50)
            #expect(try place.siblings() == [])
        }
    }

    /// A swap waits for the lock on the output's folder: while another holder has it, the commit
    /// is a blocked waiter in /proc/locks and the output is untouched; released, the swap happens.
    /// (Two racing builds rarely interleave on their own, so the wait is observed directly.)
    @Test func aSwapWaitsForTheFolderLock() throws {
        let place = try Place()
        defer { place.remove() }
        let first = try OutputStage(output: place.output)
        try first.write("old", to: "index.html", source: "t")
        try first.commit()

        let held = open(place.parent.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        #expect(held >= 0 && flock(held, LOCK_EX) == 0)
        let second = try OutputStage(output: place.output)
        try second.write("new", to: "index.html", source: "t")
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? second.commit()
            done.signal()
        }
        var inode = stat()
        #expect(stat(place.parent.path, &inode) == 0)
        // Whichever comes first: the commit waiting for the lock (right) or finishing (wrong).
        let waiting = try waitUntilEither(
            { Self.hasBlockedFlock(onInode: UInt64(inode.st_ino)) }, or: { done.wait(timeout: .now()) == .success })
        #expect(waiting, "the swap did not wait for the folder lock")
        #expect(try place.files() == ["index.html": "old"])
        flock(held, LOCK_UN)
        close(held)
        if waiting { done.wait() }
        #expect(try place.files() == ["index.html": "new"])
    }

    /// A sealed gate (the process is exiting) starts no staging folder: nothing is created, not
    /// even the output's parent folder, which the exit has just removed.
    @Test func aSealedGateStartsNoStagingFolder() throws {
        let place = try Place()
        defer { place.remove() }
        let gate = StagingGate()
        let nested = place.parent.appendingPathComponent("gone/public")
        _ = try OutputStage(output: nested, gate: gate)
        try FileManager.default.removeItem(at: place.parent.appendingPathComponent("gone"))
        gate.seal()
        #expect(throws: Diagnostic.self) { try OutputStage(output: nested, gate: gate) }
        #expect(try place.siblings() == [])
        #expect(!FileManager.default.fileExists(atPath: place.parent.appendingPathComponent("gone").path))
    }

    /// Whether /proc/locks lists a blocked flock request (`N: -> FLOCK …`) on `inode`.
    static func hasBlockedFlock(onInode inode: UInt64) -> Bool {
        guard let text = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return false }
        return text.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 6 && fields[1] == "->" && fields[2] == "FLOCK" && fields[6].hasSuffix(":\(inode)")
        }
    }

    /// Waits (30 s at most) until `first` or `second` holds; true when `first` did.
    func waitUntilEither(_ first: () -> Bool, or second: () -> Bool) throws -> Bool {
        let end = Date().addingTimeInterval(30)
        while true {
            if first() { return true }
            if second() { return false }
            guard Date() < end else { throw Diagnostic(file: "test", "neither condition met in 30 s") }
            usleep(1_000)
        }
    }

    func waitUntil(_ condition: () -> Bool) throws {
        let end = Date().addingTimeInterval(30)
        while !condition() {
            guard Date() < end else { throw Diagnostic(file: "test", "condition not met in 30 s") }
            usleep(10_000)
        }
    }
}
