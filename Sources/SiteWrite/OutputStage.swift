import CLinux
import Foundation
import Synchronization
import SiteCore

/// Where a build writes the site's files: paths are relative to the output folder, "/"-separated.
public protocol SiteSink: Sendable {
    func write(_ data: Data, to relative: String, source: String) throws(Diagnostic)
    /// Writes a copy of the file at `path` (absolute).
    func copy(_ path: String, to relative: String, source: String) throws(Diagnostic)
    /// Publishes the file at `path` (absolute), which nothing changes in place (the image
    /// cache's: written once, replaced by renaming): a hard link where the file system allows,
    /// else a copy.
    func share(_ path: String, to relative: String, source: String) throws(Diagnostic)
    /// Keeps the file the last build wrote at `relative` when it still holds what the build's
    /// record says (`stamp`, `digest`); false: the caller makes it.
    func keep(_ relative: String, stamp: FileStamp, digest: UInt64, source: String) throws(Diagnostic) -> Bool
}

extension SiteSink {
    /// Nothing kept: a sink that does not replace an output (`serve`'s, written in place) never
    /// has a last build's file to keep.
    public func keep(_ relative: String, stamp: FileStamp, digest: UInt64, source: String) throws(Diagnostic)
        -> Bool
    { false }
}

/// A new site written beside the output folder and swapped in only when the whole build
/// succeeded, so a failed build leaves the previous output exactly as it was.
///
/// Beside `public/` a build has `.public.sitegen-TOKEN/` (the staging folder, holding
/// `OutputFolder.marker`) and `.public.sitegen-TOKEN.lock`, locked (flock) for as long as the
/// build runs: the kernel releases it when the process dies however it dies, so the next build
/// can tell a killed build's folders (removed) from a running one's (left alone). The swap
/// exchanges the two folders in one step (`renameat2` with RENAME_EXCHANGE), so `public/` holds
/// the old site or the new one at every instant; the old one is then under the staging name and
/// removed. Where the file system cannot exchange, `public/` is renamed to `.public.old-TOKEN/`
/// and the staging folder to `public/`: a kill between the two leaves no `public/`, which the
/// next build puts back from the old folder (`recover`).
///
/// A file with the same bytes as the previous output's at its path is that file, hard-linked
/// (`PreviousOutput`): a build rewrites no file that did not change.
public final class OutputStage: SiteSink, Sendable {
    /// The final output folder.
    public let output: URL
    /// The staging folder the build writes into.
    public let staging: URL
    private let stagingPath: String
    private let old: URL
    private let lockFile: URL
    private let lockDescriptor: Int32
    /// Replace the output even if it is a folder sitegen did not write (`--force`).
    private let force: Bool
    /// The output being replaced, when sitegen wrote it: its unchanged files are kept.
    private let previous: PreviousOutput?
    /// The permission bits of the files this build creates (0o644 less the umask).
    private let fileMode: mode_t
    /// What the build's threads share: the folders made, each path's source, how each file
    /// compared with the previous output's (none: added), and whether the lock file was dropped.
    private struct Shared {
        var createdDirectories: Set<String> = []
        var written: [String: String] = [:]
        var outcomes: [String: PreviousOutput.Outcome] = [:]
        var released = false
    }
    private let shared = Mutex(Shared())

    /// Creates an empty staging folder next to `output` (same file system, so the swap is a rename),
    /// after removing what killed builds left there.
    public init(output: URL, force: Bool = false, gate: StagingGate = .process) throws(Diagnostic) {
        self.output = output.standardizedFileURL
        self.force = force
        let parent = self.output.deletingLastPathComponent()
        let token = "\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        let names = Leftovers(output: self.output)
        let outputPath = self.output.path
        let staging = parent.appendingPathComponent(names.staging(token))
        let lockFile = parent.appendingPathComponent(names.lock(token))
        self.staging = staging
        self.lockFile = lockFile
        old = parent.appendingPathComponent(names.old(token))
        stagingPath = staging.path
        let (descriptor, created) = gate.creating { () -> (Int32, Diagnostic?) in
            do {
                try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            } catch {
                return (
                    -1,
                    Diagnostic(
                        file: output.path, "cannot create the folder \(parent.path): \(error.localizedDescription)")
                )
            }
            names.removeStale(in: parent, output: outputPath)
            // The lock before the folder: a staging folder without a held lock is never a live build's.
            let fd = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            // Blocking: another build probing this new file (to judge it stale) holds it for a moment.
            guard fd >= 0, flock(fd, LOCK_EX) == 0 else {
                return (
                    -1,
                    Diagnostic(
                        file: output.path,
                        "cannot create the lock file \(lockFile.path): \(String(cString: strerror(errno)))")
                )
            }
            do {
                try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
                try FileManager.default.createDirectory(
                    at: staging.appendingPathComponent(OutputFolder.marker), withIntermediateDirectories: false)
            } catch {
                try? FileManager.default.removeItem(at: staging)
                unlink(lockFile.path)
                close(fd)
                return (
                    -1,
                    Diagnostic(
                        file: output.path,
                        "cannot create the staging folder \(staging.path): \(error.localizedDescription)")
                )
            }
            return (fd, nil)
        }
        lockDescriptor = descriptor
        if let created { throw created }
        // `creating` returns no descriptor and no error when the gate is sealed.
        if descriptor < 0 { throw Diagnostic(file: output.path, "the process is stopping: no new output is written") }
        // The lock file was made as the site's files are (mode 0o644, the process's umask).
        var lockStatus = stat()
        fileMode = fstat(descriptor, &lockStatus) == 0 ? lockStatus.st_mode & 0o7777 : 0o644
        previous = PreviousOutput(outputPath, fileMode: fileMode)
    }

    /// Puts back an output that a build killed mid-swap left missing, and removes what killed
    /// builds left beside it: run at the start of every build, so that a failed build also
    /// leaves the previous output in place.
    public static func recover(output: URL) {
        let output = output.standardizedFileURL
        Leftovers(output: output).removeStale(in: output.deletingLastPathComponent(), output: output.path)
    }

    /// Drops the lock file, once.
    private func release() {
        guard
            shared.withLock({ s -> Bool in
                defer { s.released = true }; return !s.released
            })
        else { return }
        unlink(lockFile.path)
        close(lockDescriptor)
    }

    /// Writes a file at a site path (relative, "/"-separated, already checked by the caller), or
    /// links the previous output's when it holds the same bytes. Two writes to the same path are
    /// an error naming both sources.
    public func write(_ data: Data, to relative: String, source: String) throws(Diagnostic) {
        try place(relative, source: source) { target in
            let outcome = previous?.compare(relative, size: data.count, linkingTo: target) { fd, _ in
                FileBytes.holds(fd, data)
            }
            if outcome != .unchanged(linked: true) { try FileBytes.write(data, to: target) }
            return outcome
        }
    }

    public func write(_ text: String, to relative: String, source: String) throws(Diagnostic) {
        try write(Data(text.utf8), to: relative, source: source)
    }

    /// Copies a file into the site: its own copy (a hard link to the source would share later edits
    /// of either), made by the kernel where it can; or the previous output's, when the same bytes.
    public func copy(_ path: String, to relative: String, source: String) throws(Diagnostic) {
        try place(relative, source: source) { target in
            let outcome = try previous?.compare(relative, withFile: path, linkingTo: target)
            if outcome != .unchanged(linked: true) { try FileBytes.copy(path, to: target) }
            return outcome
        }
    }

    /// A hard link: a thousand resized photos cost a link each, not a copy (on ext4 40 times
    /// less), and a new output folder shares their disk space with the cache. Compared with the
    /// previous output only for the list of changes (an unreadable one is listed as changed).
    public func share(_ path: String, to relative: String, source: String) throws(Diagnostic) {
        try place(relative, source: source) { target in
            let outcome = previous.map { (try? $0.compare(relative, withFile: path, linkingTo: nil)) ?? .changed }
            try FileBytes.linkOrCopy(path, to: target)
            return outcome
        }
    }

    /// Keeps the previous output's file at `relative` as it is (a hard link) when it holds what a
    /// build record says (`PreviousOutput.keep`); false when it does not, or there is no previous
    /// output: the caller then makes the file.
    public func keep(_ relative: String, stamp: FileStamp, digest: UInt64, source: String) throws(Diagnostic)
        -> Bool
    {
        guard let previous else { return false }
        var kept = false
        try place(relative, source: source, claimed: { kept }) { target in
            kept = previous.keep(relative, stamp: stamp, digest: digest, linkingTo: target)
            return kept ? .unchanged(linked: true) : nil
        }
        return kept
    }

    /// Claims `relative` for `source` and makes its folders, then runs `make` with its path, which
    /// tells how the file compared with the previous output's (nil: there is none).
    /// `claimed`: whether `make` made the file (else the claim is withdrawn, for `keep`).
    private func place(
        _ relative: String, source: String, claimed: () -> Bool = { true },
        _ make: (String) throws -> PreviousOutput.Outcome?
    ) throws(Diagnostic) {
        guard Self.isSafe(relative) else {
            throw Diagnostic(file: source, "refusing to write outside the output folder: '\(relative)'")
        }
        let previous: String? = shared.withLock { s in
            if let p = s.written[relative] { return p }
            s.written[relative] = source
            return nil
        }
        if let previous { throw Diagnostic(file: source, "'\(relative)' is also written by \(previous)") }
        // Plain system calls on path strings: URL building and Data.write cost more than the
        // write itself when a site has tens of thousands of pages.
        let dir = relative.lastIndex(of: "/").map { String(relative[..<$0]) }
        do {
            // Under the lock: a file of a folder another thread is still creating would not open.
            if let dir {
                try shared.withLock { s in
                    guard !s.createdDirectories.contains(dir) else { return }
                    try Self.createFolders(dir.split(separator: "/"), in: stagingPath)
                    s.createdDirectories.insert(dir)
                }
            }
            let outcome = try make(stagingPath + "/" + relative)
            guard claimed() else {
                shared.withLock { _ = $0.written.removeValue(forKey: relative) }
                return
            }
            if let outcome, outcome != .added { shared.withLock { $0.outcomes[relative] = outcome } }
        } catch {
            throw Diagnostic(file: source, "cannot write \(relative): \(error.localizedDescription)")
        }
    }

    public var writtenPaths: [String] { shared.withLock { $0.written.keys.sorted() } }

    /// How many files are the previous output's, kept as they were.
    public var keptFiles: Int {
        shared.withLock { $0.outcomes.values.count(where: { $0 == .unchanged(linked: true) }) }
    }

    /// What `commit` listed: the changes, and the problem when their file could not be put in
    /// place after the swap (the site was replaced).
    public struct Listed: Sendable {
        public var changes: OutputChanges
        public var problem: Diagnostic?
    }

    /// Replaces the output folder with the staging folder. Two builds of one output swap one at a
    /// time (a lock on the folder holding it), so each replaces a whole site with a whole site.
    /// The output is judged again (it may have changed since the command line was checked): a
    /// folder sitegen did not write is left as it is unless forced. With `changesFile`, the
    /// changes are listed in it: written beside it before the swap, renamed over it after.
    @discardableResult
    public func commit(listingChangesIn changesFile: String? = nil) throws(Diagnostic) -> Listed? {
        defer { release() }
        let swapLock = open(output.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if swapLock >= 0 { flock(swapLock, LOCK_EX) }
        defer { if swapLock >= 0 { close(swapLock) } }
        let path = output.path
        let present = OutputFolder.judge(path)
        switch present {
        case .absent, .empty, .sitegen: break
        case .foreign where force: break
        case .foreign, .notFolder:
            throw Diagnostic(
                file: path,
                "the output changed during the build and is no longer a folder sitegen wrote: it was left as it is")
        }
        var listed: (changes: OutputChanges, file: ReplacingFile)?
        if let changesFile {
            let changes = self.changes()
            listed = (changes, try ReplacingFile(changes.json, replacing: changesFile))
        }
        do { try swap(outputAbsent: present == .absent) } catch {
            listed?.file.abandon()
            throw error
        }
        return listed.map { Listed(changes: $0.changes, problem: $0.file.finish()) }
    }

    /// Puts the staging folder at the output's path.
    private func swap(outputAbsent: Bool) throws(Diagnostic) {
        let path = output.path
        func failed(_ what: String) -> Diagnostic {
            Diagnostic(file: path, "cannot replace the output folder (\(what)): \(String(cString: strerror(errno)))")
        }
        if outputAbsent {
            guard Swap.move(stagingPath, to: path) else { throw failed("rename") }
        } else if Swap.exchanges, sg_rename_swap(stagingPath, path, 1) == 0 {
            // The old site is now under the staging name.
            try? FileManager.default.removeItem(atPath: stagingPath)
        } else if Swap.exchanges, errno != EINVAL, errno != ENOSYS {
            throw failed("exchange")
        } else {
            guard rename(path, old.path) == 0 else { throw failed("rename") }
            guard rename(stagingPath, path) == 0 else {
                let error = failed("rename")
                rename(old.path, path)
                throw error
            }
            try? FileManager.default.removeItem(at: old)
        }
    }

    /// The files this build adds, changes and removes, compared with the output as it is now
    /// (under the swap lock). Another build may have replaced it since this one compared its
    /// files: then they are compared again.
    private func changes() -> OutputChanges {
        let now = PreviousOutput(output.path, fileMode: fileMode)
        let (written, recorded) = shared.withLock { (Array($0.written.keys), $0.outcomes) }
        let again = now?.identity != previous?.identity
        var changes = OutputChanges()
        for path in written {
            let outcome: PreviousOutput.Outcome
            if !again {
                outcome = recorded[path] ?? .added
            } else if let now {
                outcome = (try? now.compare(path, withFile: stagingPath + "/" + path, linkingTo: nil)) ?? .changed
            } else {
                outcome = .added
            }
            switch outcome {
            case .added: changes.added.append(path)
            case .changed: changes.changed.append(path)
            case .unchanged: break
            }
        }
        let kept = Set(written)
        changes.removed = (now?.files() ?? []).filter { !kept.contains($0) }.sorted()
        changes.added.sort()
        changes.changed.sort()
        return changes
    }

    /// Removes the staging folder after a failed build.
    public func discard() {
        try? FileManager.default.removeItem(at: staging)
        release()
    }

    /// Creates the folders of a path below `root`, one level at a time and never `root` itself:
    /// if the staging folder was removed (the build was interrupted), writing stops instead of
    /// creating it again.
    static func createFolders(_ components: some Sequence<Substring>, in root: String) throws {
        var path = root
        for c in components {
            path += "/" + c
            if mkdir(path, 0o755) != 0 && errno != EEXIST { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
    }

    /// Whether `relative` stays in the folder: no NUL, and no segment empty (a leading or doubled
    /// `/`), `.` or `..`. Read byte by byte: every page of a site passes here.
    static func isSafe(_ relative: String) -> Bool {
        var segment = 0, dots = 0  // the current segment's length and how many of it are dots
        for byte in relative.utf8 {
            if byte == 0 { return false }
            if byte == UInt8(ascii: "/") {
                if segment == 0 || segment == dots && dots <= 2 { return false }
                segment = 0
                dots = 0
                continue
            }
            segment += 1
            if byte == UInt8(ascii: ".") { dots += 1 }
        }
        return segment > 0 && !(segment == dots && dots <= 2)
    }
}

/// The file a copy is made from cannot be opened (the message names it, not only the copy).
struct UnreadableSource: LocalizedError {
    var path: String
    var reason: String
    var errorDescription: String? { "cannot read \(path): \(reason)" }
}

/// Whole files written with plain system calls.
enum FileBytes {
    /// What a file system may lack, switched off by tests to run the fallbacks where this one has
    /// them: `SITEGEN_TEST_FALLBACKS=copy-range,hard-links` (either or both), read once.
    struct Kernel: Sendable, Equatable {
        /// Copies by copy_file_range (else through memory).
        var copyRange = true
        /// Shares files by hard links (else copies).
        var hardLinks = true

        static let process = named(ProcessInfo.processInfo.environment["SITEGEN_TEST_FALLBACKS"] ?? "")

        /// With the fallbacks a comma-separated list names.
        static func named(_ list: String) -> Kernel {
            let off = Set(list.split(separator: ","))
            return Kernel(copyRange: !off.contains("copy-range"), hardLinks: !off.contains("hard-links"))
        }
    }

    /// The file at `from` copied to a new file at `to` (never into an existing one: `write`): by
    /// the kernel (copy_file_range), else through memory.
    static func copy(_ from: String, to: String, kernel: Kernel = .process) throws {
        let source = open(from, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw UnreadableSource(path: from, reason: String(cString: strerror(errno))) }
        defer { close(source) }
        let fd = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        while kernel.copyRange {
            let n = sg_copy_file_range(source, fd, 1 << 30)
            if n > 0 { continue }
            if n == 0 { return }
            if errno == EINTR { continue }
            guard errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP || errno == EPERM else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            break
        }
        // Where the kernel cannot: from wherever it stopped, through a buffer.
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(source, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            if n == 0 { return }
            try buffer.withUnsafeBytes { raw in try writeAll(fd, raw.baseAddress!, n) }
        }
    }

    /// A hard link to the file at `from`, else (another file system, one without links) a copy.
    static func linkOrCopy(_ from: String, to: String, kernel: Kernel = .process) throws {
        if kernel.hardLinks, Glibc.link(from, to) == 0 { return }
        try copy(from, to: to, kernel: kernel)
    }

    static func writeAll(_ fd: Int32, _ base: UnsafeRawPointer, _ count: Int) throws {
        var offset = 0
        while offset < count {
            let n = Glibc.write(fd, base + offset, count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            offset += n
        }
    }

    /// `data` in a new file at `path`. Never into an existing file (O_EXCL): an output's file may
    /// be the previous output's too (`PreviousOutput`), which writing into it would change.
    static func write(_ data: Data, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        try data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }  // empty
            try writeAll(fd, base, raw.count)
        }
    }
}

/// The names a build of `output` uses beside it, and the removal of those that killed builds left.
struct Leftovers {
    let base: String

    init(output: URL) { base = "." + output.lastPathComponent }

    func staging(_ token: String) -> String { "\(base).sitegen-\(token)" }
    func old(_ token: String) -> String { "\(base).old-\(token)" }
    func lock(_ token: String) -> String { "\(base).sitegen-\(token).lock" }

    /// The token of a staging or old folder's name, e.g. "812-3735928559".
    func token(of name: String) -> String? {
        for prefix in ["\(base).sitegen-", "\(base).old-"] where name.hasPrefix(prefix) && !name.hasSuffix(".lock") {
            let token = String(name.dropFirst(prefix.count))
            let parts = token.split(separator: "-")
            return parts.count == 2 && parts.allSatisfy({ $0.allSatisfy(\.isASCII) && Int($0) != nil }) ? token : nil
        }
        return nil
    }

    /// Removes the staging and old folders (and lock files) of builds that are no longer running:
    /// their lock can be taken. A folder without a lock file (an older sitegen, or a build killed
    /// between the two) is judged by its process id. A build killed between the two renames of a
    /// swap left no output but its old folder: that is put back first.
    func removeStale(in parent: URL, output: String) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: parent.path) else { return }
        var tokens: Set<String> = []
        for name in names { if let t = token(of: name) { tokens.insert(t) } }
        for name in names where name.hasPrefix("\(base).sitegen-") && name.hasSuffix(".lock") {
            tokens.insert(String(name.dropFirst("\(base).sitegen-".count).dropLast(".lock".count)))
        }
        for t in tokens.sorted() where !isRunning(t, lock: parent.appendingPathComponent(lock(t)).path) {
            let old = parent.appendingPathComponent(old(t)).path
            if names.contains(self.old(t)), OutputFolder.judge(output) == .absent { _ = Swap.move(old, to: output) }
            for name in [staging(t), self.old(t), lock(t)] {
                try? fm.removeItem(at: parent.appendingPathComponent(name))
            }
        }
    }

    func isRunning(_ token: String, lock path: String) -> Bool {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        if fd >= 0 {
            defer { close(fd) }
            return flock(fd, LOCK_EX | LOCK_NB) != 0  // taken: its build holds it
        }
        guard let pid = token.split(separator: "-").first.flatMap({ Int32($0) }) else { return true }
        return kill(pid, 0) == 0 || errno != ESRCH
    }
}

/// How the swap renames.
enum Swap {
    /// Whether the swap exchanges the folders in one step where the file system can. Tests set
    /// `SITEGEN_TEST_TWO_RENAMES=1` to run the two-rename fallback (and its recovery) on a file
    /// system that can exchange; read once.
    static let exchanges = ProcessInfo.processInfo.environment["SITEGEN_TEST_TWO_RENAMES"] != "1"

    /// Renames `from` to `to` where nothing is (RENAME_NOREPLACE; a plain rename where the file
    /// system lacks it, or in the fallback). False with errno set when it fails.
    static func move(_ from: String, to: String) -> Bool {
        if exchanges {
            if sg_rename_swap(from, to, 0) == 0 { return true }
            guard errno == EINVAL || errno == ENOSYS else { return false }
        }
        return rename(from, to) == 0
    }
}

/// Whether staging folders may still be started. Ctrl-C during a build removes the output's
/// folder, which a build starting its staging folder a moment later would create again behind it:
/// sealed, no staging folder is started, and none is half-made when `seal` returns.
public final class StagingGate: Sendable {
    /// The gate of every build of this process.
    public static let process = StagingGate()

    private let sealed = Mutex(false)

    public init() {}

    public func seal() { sealed.withLock { $0 = true } }

    /// Runs `create` unless sealed (then: no descriptor, no error).
    func creating(_ create: () -> (Int32, Diagnostic?)) -> (Int32, Diagnostic?) {
        sealed.withLock { $0 ? (-1, nil) : create() }
    }
}
