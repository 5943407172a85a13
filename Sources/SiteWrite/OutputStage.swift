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
    private let lock = NSLock()
    private var createdDirectories: Set<String> = []
    private var written: [String: String] = [:]

    /// Creates an empty staging folder next to `output` (same file system, so the swap is a rename).
    public init(output: URL) throws(Diagnostic) {
        self.output = output.standardizedFileURL
        let parent = self.output.deletingLastPathComponent()
        let name = ".\(self.output.lastPathComponent).sitegen-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        staging = parent.appendingPathComponent(name)
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
        let url = staging.appendingPathComponent(relative)
        let dir = url.deletingLastPathComponent()
        let needsDir = lock.withLock { createdDirectories.insert(dir.path).inserted }
        do {
            if needsDir { try Self.createFolders(relative.split(separator: "/").dropLast(), in: staging) }
            try data.write(to: url)
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
    static func createFolders(_ components: some Sequence<Substring>, in root: URL) throws {
        var url = root
        for c in components {
            url.appendPathComponent(String(c))
            if mkdir(url.path, 0o755) != 0 && errno != EEXIST {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        }
    }

    static func isSafe(_ relative: String) -> Bool {
        guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.contains("\u{0}") else { return false }
        return !relative.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." || $0.isEmpty }
    }
}
