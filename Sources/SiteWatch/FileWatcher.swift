import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Reports which files under a folder changed, in coalesced batches: an editor's save (often
/// a write to a temporary file renamed over the original) or a `git checkout` touching many
/// files arrives as one batch once the folder has been quiet for a moment.
///
/// Uses inotify where the kernel offers it (every folder watched, new folders picked up as
/// they appear) and otherwise scans the files' sizes and modification times a few times a second.
public final class FileWatcher: Sendable {
    public enum Mode: String, Sendable { case inotify, polling }

    /// How changes are noticed.
    public let mode: Mode
    /// Batches of paths relative to the root ("/"-separated): files created, modified, deleted
    /// or renamed, and folders that appeared or disappeared.
    public let changes: AsyncStream<Set<String>>

    private let root: URL
    private let watched: [String]
    private let quiet: Double
    private let continuation: AsyncStream<Set<String>>.Continuation
    private let stopPipe: [Int32]
    #if canImport(Glibc)
        private let source: InotifySource?
    #endif

    /// Watches `paths` (files or folders relative to `root`; a missing one is watched for when it
    /// appears). `quiet` is how long the files must stay unchanged before a batch is reported.
    public init(root: URL, paths: [String], quiet: Double = 0.02, polling: Bool = false) {
        self.root = root.standardizedFileURL
        self.watched = paths
        self.quiet = quiet
        (changes, continuation) = AsyncStream.makeStream(of: Set<String>.self)
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        stopPipe = fds
        #if canImport(Glibc)
            source = polling ? nil : InotifySource(root: self.root, paths: paths)
            mode = source == nil ? .polling : .inotify
        #else
            mode = .polling
        #endif
    }

    /// Starts watching on a thread of its own.
    public func start() {
        let t = Thread { [self] in
            switch mode {
            case .inotify: runInotify()
            case .polling: runPolling()
            }
            continuation.finish()
        }
        t.name = "sitegen file watcher"
        t.start()
    }

    /// Stops watching and ends `changes`.
    public func stop() {
        var byte: UInt8 = 1
        _ = write(stopPipe[1], &byte, 1)
    }

    deinit {
        close(stopPipe[0])
        close(stopPipe[1])
    }

    // MARK: - Batching

    /// Collects paths and tells when the batch is due: after `quiet` without changes, or at
    /// the latest a second after the first change (a folder that never rests still rebuilds).
    /// When every path's last event says its writer is done with it (closed after writing,
    /// renamed into place, deleted: `settled`), the batch is due after `Batch.settle` instead:
    /// an editor's save is such an event, and waiting out `quiet` would delay every reload.
    struct Batch {
        var paths: Set<String> = []
        /// Paths whose last event may be followed by more writes (a write not yet closed).
        var unsettled: Set<String> = []
        var first = 0.0, last = 0.0

        /// How long a batch of settled paths waits for more events (those of one save, or of
        /// the next files of a `git checkout`, come within microseconds of each other).
        static let settle = 1.0 / 256  // about 4 ms, exact in binary (for the tests)

        mutating func add(_ path: String, settled: Bool = false, at now: Double) {
            if paths.isEmpty { first = now }
            paths.insert(path)
            if settled { unsettled.remove(path) } else { unsettled.insert(path) }
            last = now
        }

        private func rest(_ quiet: Double) -> Double { unsettled.isEmpty ? min(quiet, Self.settle) : quiet }

        func due(at now: Double, quiet: Double) -> Bool {
            !paths.isEmpty && (now - last >= rest(quiet) || now - first >= 1)
        }

        /// Seconds to wait for more events before the batch is due; nil to wait indefinitely.
        func wait(at now: Double, quiet: Double) -> Double? {
            paths.isEmpty ? nil : max(0, min(last + rest(quiet), first + 1) - now)
        }
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    // MARK: - inotify

    #if canImport(Glibc)
        private func runInotify() {
            guard let source else { return runPolling() }
            var batch = Batch()
            while true {
                let wait = batch.wait(at: Self.now(), quiet: quiet)
                var fds = [
                    pollfd(fd: source.fd, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0)
                ]
                let timeout = wait.map { Int32(($0 * 1000).rounded(.up)) } ?? -1
                let ready = poll(&fds, 2, timeout)
                if ready < 0 && errno != EINTR { return }
                if fds[1].revents != 0 { return }
                if fds[0].revents != 0 {
                    let now = Self.now()
                    for event in source.read() { batch.add(event.path, settled: event.settled, at: now) }
                }
                if batch.due(at: Self.now(), quiet: quiet) {
                    continuation.yield(batch.paths)
                    batch = Batch()
                }
            }
        }
    #else
        private func runInotify() { runPolling() }
    #endif

    // MARK: - Polling

    /// A file's identity and state as far as change detection goes.
    struct Stamp: Equatable {
        var size: Int64
        var modified: Int64
        var inode: UInt64
        var isFolder: Bool
    }

    private func runPolling() {
        var previous = snapshot()
        var batch = Batch()
        while true {
            var fds = [pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0)]
            let wait = batch.wait(at: Self.now(), quiet: max(quiet, 0.25)) ?? 0.25
            _ = poll(&fds, 1, Int32(min(wait, 0.25) * 1000))
            if fds[0].revents != 0 { return }
            let current = snapshot()
            let now = Self.now()
            for (path, stamp) in current where previous[path] != stamp { batch.add(path, at: now) }
            for path in previous.keys where current[path] == nil { batch.add(path, at: now) }
            previous = current
            if batch.due(at: now, quiet: max(quiet, 0.25)) {
                continuation.yield(batch.paths)
                batch = Batch()
            }
        }
    }

    /// Every file and folder under the watched paths.
    func snapshot() -> [String: Stamp] {
        var out: [String: Stamp] = [:]
        var stack = watched
        while let rel = stack.popLast() {
            var s = stat()
            guard lstat(root.appendingPathComponent(rel).path, &s) == 0 else { continue }
            let isFolder = (s.st_mode & S_IFMT) == S_IFDIR
            out[rel] = Stamp(
                size: Int64(s.st_size), modified: Int64(s.st_mtim.tv_sec) * 1_000_000_000 + Int64(s.st_mtim.tv_nsec),
                inode: UInt64(s.st_ino), isFolder: isFolder)
            if isFolder,
                let names = try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(rel).path)
            {
                stack += names.map { "\(rel)/\($0)" }
            }
        }
        return out
    }
}

#if canImport(Glibc)
    /// An inotify instance watching folders recursively. Files are watched through their folder,
    /// so a file replaced by a rename (a new inode) is still seen.
    final class InotifySource: @unchecked Sendable {  // used by the watcher thread only
        let fd: Int32
        private let root: URL
        /// Watched root-level files: events in the root folder about other names are dropped.
        private let rootFiles: Set<String>
        private let rootFolders: Set<String>
        private var folders: [Int32: String] = [:]  // watch descriptor → folder relative to root ("" for root)
        private static let mask =
            UInt32(
                IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB
                    | IN_DELETE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK) | UInt32(IN_MODIFY)

        init?(root: URL, paths: [String]) {
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard fd >= 0 else { return nil }
            self.fd = fd
            self.root = root
            var files: Set<String> = [], dirs: Set<String> = []
            for p in paths {
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: root.appendingPathComponent(p).path, isDirectory: &isDir),
                    !isDir.boolValue
                {
                    files.insert(p)
                } else {
                    dirs.insert(p)
                }
            }
            rootFiles = files
            rootFolders = dirs
            guard add("") else { Glibc.close(fd); return nil }
            for d in dirs.sorted() where !addTree(d) { Glibc.close(fd); return nil }
        }

        deinit { Glibc.close(fd) }

        /// Watches `folder`; false when the kernel refuses (e.g. the watch limit is reached).
        private func add(_ folder: String) -> Bool {
            let wd = inotify_add_watch(
                fd, folder.isEmpty ? root.path : root.appendingPathComponent(folder).path, Self.mask)
            if wd < 0 { return errno == ENOENT || errno == ENOTDIR }  // gone already: nothing to watch
            folders[wd] = folder
            return true
        }

        /// Watches `folder` and every folder below it.
        @discardableResult
        private func addTree(_ folder: String) -> Bool {
            var stack = [folder]
            while let f = stack.popLast() {
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: root.appendingPathComponent(f).path, isDirectory: &isDir),
                    isDir.boolValue
                else { continue }
                guard add(f) else { return false }
                for name in (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(f).path))
                    ?? []
                {
                    var childIsDir: ObjCBool = false
                    if FileManager.default.fileExists(
                        atPath: root.appendingPathComponent("\(f)/\(name)").path, isDirectory: &childIsDir),
                        childIsDir.boolValue
                    {
                        stack.append("\(f)/\(name)")
                    }
                }
            }
            return true
        }

        /// Events after which a file is as its writer left it (`Batch.settle`).
        private static let settling = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)

        /// The paths named by the events waiting to be read, each with whether its writer is
        /// done with it (`Batch`).
        func read() -> [(path: String, settled: Bool)] {
            var paths: [(path: String, settled: Bool)] = []
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { break }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= n {
                    let (wd, mask, length) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                        let e = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                        return (e.wd, e.mask, Int(e.len))
                    }
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let nameBytes = buffer[nameStart..<min(n, nameStart + length)].prefix { $0 != 0 }
                    let name = String(decoding: nameBytes, as: UTF8.self)
                    offset = nameStart + length
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        // Events were lost: report every watched path so the whole site is rebuilt.
                        paths += (rootFiles.sorted() + rootFolders.sorted()).map { ($0, false) }
                        continue
                    }
                    if mask & UInt32(IN_IGNORED) != 0 { folders[wd] = nil; continue }
                    guard let folder = folders[wd], !name.isEmpty else { continue }
                    if folder.isEmpty {
                        // The root folder is watched for its listed files and folders only.
                        guard rootFiles.contains(name) || rootFolders.contains(name) else { continue }
                    }
                    let path = folder.isEmpty ? name : "\(folder)/\(name)"
                    if mask & UInt32(IN_ISDIR) != 0 {
                        if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { addTree(path) }
                        if mask & UInt32(IN_MOVED_FROM | IN_DELETE) != 0 { forget(path) }
                    }
                    paths.append((path, mask & Self.settling != 0))
                }
            }
            return paths
        }

        /// Stops watching a folder that moved away, and the folders below it.
        private func forget(_ folder: String) {
            for (wd, f) in folders where f == folder || f.hasPrefix(folder + "/") {
                inotify_rm_watch(fd, wd)
                folders[wd] = nil
            }
        }
    }
#endif
