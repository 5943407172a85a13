import Foundation
import SiteCore

/// Where a build writes the site's files: paths are relative to the output folder, "/"-separated.
public protocol SiteSink: Sendable {
    func write(_ data: Data, to relative: String, source: String) throws(Diagnostic)
}

/// A new site written beside the output folder and swapped in only when the whole build
/// succeeded, so a failed build leaves the previous output exactly as it was.
public final class OutputStage: SiteSink, @unchecked Sendable {
    /// The final output folder.
    public let output: URL
    /// The staging folder the build writes into.
    public let staging: URL
    private let stagingPath: String
    private let lock = NSLock()
    private var createdDirectories: Set<String> = []
    private var written: [String: String] = [:]

    /// Creates an empty staging folder next to `output` (same file system, so the swap is a rename).
    public init(output: URL) throws(Diagnostic) {
        self.output = output.standardizedFileURL
        let parent = self.output.deletingLastPathComponent()
        let name = ".\(self.output.lastPathComponent).sitegen-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        staging = parent.appendingPathComponent(name)
        stagingPath = staging.path
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            throw Diagnostic(file: output.path, "cannot create the staging folder \(staging.path): \(error.localizedDescription)")
        }
    }

    /// Writes a file at a site path (relative, "/"-separated, already checked by the caller).
    /// Two writes to the same path are an error naming both sources.
    public func write(_ data: Data, to relative: String, source: String) throws(Diagnostic) {
        guard Self.isSafe(relative) else { throw Diagnostic(file: source, "refusing to write outside the output folder: '\(relative)'") }
        let previous: String? = lock.withLock {
            if let p = written[relative] { return p }
            written[relative] = source
            return nil
        }
        if let previous { throw Diagnostic(file: source, "'\(relative)' is also written by \(previous)") }
        // Plain system calls on path strings: URL building and Data.write cost more than the
        // write itself when a site has tens of thousands of pages.
        let dir = relative.lastIndex(of: "/").map { String(relative[..<$0]) }
        let needsDir = dir.map { d in lock.withLock { createdDirectories.insert(d).inserted } } ?? false
        do {
            if needsDir, let dir { try Self.createFolders(dir.split(separator: "/"), in: stagingPath) }
            try FileBytes.write(data, to: stagingPath + "/" + relative)
        } catch {
            throw Diagnostic(file: source, "cannot write \(relative): \(error.localizedDescription)")
        }
    }

    public func write(_ text: String, to relative: String, source: String) throws(Diagnostic) {
        try write(Data(text.utf8), to: relative, source: source)
    }

    /// Copies a file into the site (a hard link would share later edits; copy).
    public func copy(_ file: URL, to relative: String, source: String) throws(Diagnostic) {
        let data: Data
        do { data = try Data(contentsOf: file) } catch { throw Diagnostic(file: source, "cannot read: \(error.localizedDescription)") }
        try write(data, to: relative, source: source)
    }

    public var writtenPaths: [String] { lock.withLock { written.keys.sorted() } }

    /// Replaces the output folder with the staging folder.
    public func commit() throws(Diagnostic) {
        let fm = FileManager.default
        let old = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).old-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            if fm.fileExists(atPath: output.path) { try fm.moveItem(at: output, to: old) }
            try fm.moveItem(at: staging, to: output)
            if fm.fileExists(atPath: old.path) { try fm.removeItem(at: old) }
        } catch {
            throw Diagnostic(file: output.path, "cannot replace the output folder: \(error.localizedDescription)")
        }
    }

    /// Removes the staging folder after a failed build.
    public func discard() {
        try? FileManager.default.removeItem(at: staging)
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

    static func isSafe(_ relative: String) -> Bool {
        guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.contains("\u{0}") else { return false }
        return !relative.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." || $0.isEmpty }
    }
}

/// Whole files written with plain system calls.
enum FileBytes {
    static func write(_ data: Data, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        try data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }  // empty
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, base + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += n
            }
        }
    }
}
