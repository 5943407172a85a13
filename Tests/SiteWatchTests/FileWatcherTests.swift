import Foundation
import Testing
@testable import SiteWatch

/// The watcher on real files: inotify and the polling fallback must both notice plain writes,
/// rename-and-replace saves, new folders and deletions, and report a burst as one batch.
@Suite(.serialized) struct FileWatcherTests {
    final class Folder {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-watch-\(UUID().uuidString)")
        init() throws {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("content/notes"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("templates"), withIntermediateDirectories: true)
            try write("site.yml", "title: T\n")
            try write("content/notes/a.md", "a\n")
            try write("README.md", "not watched\n")
        }
        deinit { try? FileManager.default.removeItem(at: root) }

        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        /// Saves the way vim and many IDEs do: a new file renamed over the old one.
        func replace(_ path: String, _ text: String) throws {
            let tmp = root.appendingPathComponent("\(path).tmp~")
            try Data(text.utf8).write(to: tmp)
            guard rename(tmp.path, root.appendingPathComponent(path).path) == 0 else {
                throw CocoaError(.fileWriteUnknown)
            }
        }
    }

    /// The next batch, or nil after `seconds`.
    static func next(_ watcher: FileWatcher, within seconds: Double = 5) async -> Set<String>? {
        await withTaskGroup(of: Set<String>?.self) { group in
            group.addTask {
                var it = watcher.changes.makeAsyncIterator()
                return await it.next()
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    static func watch(_ f: Folder, polling: Bool) -> FileWatcher {
        let w = FileWatcher(root: f.root, paths: ["site.yml", "content", "templates"], quiet: 0.05, polling: polling)
        w.start()
        return w
    }

    @Test(arguments: [false, true])
    func writesRenamesFoldersAndDeletions(polling: Bool) async throws {
        let f = try Folder()
        let w = Self.watch(f, polling: polling)
        defer { w.stop() }
        #expect(w.mode == (polling ? .polling : .inotify))
        try await Task.sleep(for: .milliseconds(polling ? 400 : 50))

        try f.write("content/notes/a.md", "a, edited\n")
        #expect(await Self.next(w)?.contains("content/notes/a.md") == true, "a plain write")

        try f.replace("content/notes/a.md", "a, saved by rename\n")
        #expect(await Self.next(w)?.contains("content/notes/a.md") == true, "a rename-and-replace save")

        try f.replace("site.yml", "title: U\n")
        #expect(await Self.next(w)?.contains("site.yml") == true, "the configuration, replaced")

        try f.write("content/new/deep/b.md", "b\n")
        let created = await Self.next(w) ?? []
        #expect(created.contains { $0.hasPrefix("content/new") }, "a new folder: \(created)")
        // Files in a folder that appeared after the watch started are watched too.
        try await Task.sleep(for: .milliseconds(polling ? 400 : 50))
        try f.write("content/new/deep/b.md", "b, edited\n")
        #expect(await Self.next(w)?.contains("content/new/deep/b.md") == true, "a file in a new folder")

        try FileManager.default.removeItem(at: f.root.appendingPathComponent("content/notes/a.md"))
        #expect(await Self.next(w)?.contains("content/notes/a.md") == true, "a deletion")

        try f.write("README.md", "changed, but not watched\n")
        #expect(await Self.next(w, within: 1) == nil, "files outside the watched paths are not reported")
    }

    /// The batching rule on a clock of its own (a loaded machine can pause a writer for longer
    /// than `quiet`, so real writes cannot show it): changes closer together than `quiet` are one
    /// batch, due `quiet` after the last; a folder that never rests is reported a second after its
    /// first change.
    @Test func aBurstIsOneBatch() {
        // Times in 128ths of a second: exact in binary, so the boundaries are exact.
        let tick = 1.0 / 128, quiet = 0.5
        var batch = FileWatcher.Batch()
        #expect(batch.wait(at: 0, quiet: quiet) == nil, "nothing to report: wait for changes")
        for i in 0..<50 { batch.add("content/notes/n\(i).md", at: Double(i) * tick) }
        let last = 49 * tick
        #expect(!batch.due(at: last + quiet - tick, quiet: quiet))
        #expect(batch.due(at: last + quiet, quiet: quiet))
        #expect(batch.wait(at: last, quiet: quiet) == quiet)
        #expect(batch.paths.count == 50)
        var busy = FileWatcher.Batch()
        for i in 0..<128 { busy.add("content/a.md", at: Double(i) * tick) }
        #expect(!busy.due(at: 127 * tick, quiet: quiet))
        #expect(busy.due(at: 1, quiet: quiet), "a second after the first change, though changes go on")
        #expect(busy.wait(at: 127 * tick, quiet: quiet) == tick, "due at the second, before the quiet")
    }

    /// A batch whose every path its writer left (closed after writing, renamed into place,
    /// deleted) is due `settle` after its last event, not `quiet`; a write not yet closed makes
    /// it wait `quiet` again.
    @Test func aSettledBatchIsDueSooner() {
        let quiet = 0.5, settle = FileWatcher.Batch.settle
        var saved = FileWatcher.Batch()
        saved.add("content/notes/a.md.tmp~", at: 0)  // created and written
        saved.add("content/notes/a.md.tmp~", settled: true, at: 0)  // closed, renamed away
        saved.add("content/notes/a.md", settled: true, at: 0)  // renamed over the note
        #expect(!saved.due(at: settle / 2, quiet: quiet))
        #expect(saved.due(at: settle, quiet: quiet))
        #expect(saved.wait(at: 0, quiet: quiet) == settle)
        saved.add("content/notes/b.md", at: settle / 2)  // a write still open
        #expect(!saved.due(at: settle * 2, quiet: quiet))
        #expect(saved.due(at: settle / 2 + quiet, quiet: quiet))
    }

    /// inotify's events of a save say when the writer is done: a note renamed over the old one
    /// ends settled; a file written and not yet closed does not.
    @Test func aSaveEndsSettled() throws {
        let f = try Folder()
        let source = try #require(InotifySource(root: f.root, paths: ["content"]))
        func events(until done: ([(path: String, settled: Bool)]) -> Bool) -> [(path: String, settled: Bool)] {
            var seen: [(path: String, settled: Bool)] = []
            let end = FileWatcher.now() + 10
            while !done(seen), FileWatcher.now() < end {
                var fd = pollfd(fd: source.fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&fd, 1, 100)
                seen += source.read()
            }
            return seen
        }
        try f.replace("content/notes/a.md", "b\n")
        let saved = events { $0.contains { $0.path == "content/notes/a.md" } }
        #expect(saved.last { $0.path == "content/notes/a.md" }?.settled == true, "\(saved)")
        let handle = try FileHandle(forWritingTo: f.root.appendingPathComponent("content/notes/a.md"))
        try handle.write(contentsOf: Data("c\n".utf8))
        let open = events { $0.contains { $0.path == "content/notes/a.md" } }
        #expect(open.last { $0.path == "content/notes/a.md" }?.settled == false, "\(open)")
        try handle.close()
        let closed = events { $0.contains { $0.path == "content/notes/a.md" && $0.settled } }
        #expect(closed.last { $0.path == "content/notes/a.md" }?.settled == true, "\(closed)")
    }

    /// Every file of a burst is reported (in one batch or, on a machine that pauses the writer, a few).
    @Test func aBurstArrivesWhole() async throws {
        let f = try Folder()
        let w = Self.watch(f, polling: false)
        defer { w.stop() }
        let written = Set((0..<50).map { "content/notes/n\($0).md" })
        for path in written.sorted() { try f.write(path, "x\n") }
        var seen: Set<String> = []
        while !written.isSubset(of: seen), let batch = await Self.next(w, within: 10) { seen.formUnion(batch) }
        #expect(written.isSubset(of: seen), "missing \(written.subtracting(seen).sorted().prefix(5))")
    }

    @Test func stoppingEndsTheStream() async throws {
        let f = try Folder()
        let w = Self.watch(f, polling: false)
        w.stop()
        var it = w.changes.makeAsyncIterator()
        #expect(await it.next() == nil)
    }
}
