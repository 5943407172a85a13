import Foundation
import Testing
@testable import SiteWatch

/// The watcher on real files: inotify and the polling fallback must both notice plain writes,
/// rename-and-replace saves, new folders and deletions, and report a burst as one batch.
@Suite(.serialized) struct FileWatcherTests {
    final class Folder {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-watch-\(UUID().uuidString)")
        init() throws {
            try FileManager.default.createDirectory(at: root.appendingPathComponent("content/notes"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: root.appendingPathComponent("templates"), withIntermediateDirectories: true)
            try write("site.yml", "title: T\n")
            try write("content/notes/a.md", "a\n")
            try write("README.md", "not watched\n")
        }
        deinit { try? FileManager.default.removeItem(at: root) }

        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        /// Saves the way vim and many IDEs do: a new file renamed over the old one.
        func replace(_ path: String, _ text: String) throws {
            let tmp = root.appendingPathComponent("\(path).tmp~")
            try Data(text.utf8).write(to: tmp)
            guard rename(tmp.path, root.appendingPathComponent(path).path) == 0 else { throw CocoaError(.fileWriteUnknown) }
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

    @Test func aBurstIsOneBatch() async throws {
        let f = try Folder()
        let w = Self.watch(f, polling: false)
        defer { w.stop() }
        try await Task.sleep(for: .milliseconds(50))
        for i in 0..<50 { try f.write("content/notes/n\(i).md", "\(i)\n") }
        let batch = await Self.next(w) ?? []
        #expect(batch.count == 50, "50 files written at once arrive together, got \(batch.count)")
    }

    @Test func stoppingEndsTheStream() async throws {
        let f = try Folder()
        let w = Self.watch(f, polling: false)
        w.stop()
        var it = w.changes.makeAsyncIterator()
        #expect(await it.next() == nil)
    }
}
