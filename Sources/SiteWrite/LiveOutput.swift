import Foundation
import SiteCore

/// An output folder updated in place while it is being served: each file is written beside its
/// final name and renamed over it, so a reader sees the old bytes or the new, never half a file.
public struct LiveOutput: SiteSink {
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder.standardizedFileURL
    }

    public func write(_ data: Data, to relative: String, source: String) throws(Diagnostic) {
        try replace(relative, source: source) { path in try FileBytes.write(data, to: path) }
    }

    public func copy(_ path: String, to relative: String, source: String) throws(Diagnostic) {
        try replace(relative, source: source) { target in try FileBytes.copy(path, to: target) }
    }

    public func share(_ path: String, to relative: String, source: String) throws(Diagnostic) {
        try replace(relative, source: source) { target in try FileBytes.linkOrCopy(path, to: target) }
    }

    /// Makes the file at `relative` with `make` under a temporary name, then renames it into place.
    private func replace(_ relative: String, source: String, _ make: (String) throws -> Void) throws(Diagnostic) {
        guard OutputStage.isSafe(relative) else {
            throw Diagnostic(file: source, "refusing to write outside the output folder: '\(relative)'")
        }
        let url = folder.appendingPathComponent(relative)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).sitegen-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try make(temporary.path)
            guard rename(temporary.path, url.path) == 0 else {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: temporary)
                throw Diagnostic(file: source, "cannot write \(relative): \(reason)")
            }
            // rename(2) does nothing when both names are links to one file (an image shared from
            // the cache, already in place): the temporary name is then still there.
            unlink(temporary.path)
        } catch let d as Diagnostic {
            throw d
        } catch {
            throw Diagnostic(file: source, "cannot write \(relative): \(error.localizedDescription)")
        }
    }

    /// Removes a file the site no longer has, and the folders it leaves empty.
    public func remove(_ relative: String) {
        guard OutputStage.isSafe(relative) else { return }
        let fm = FileManager.default
        var url = folder.appendingPathComponent(relative)
        try? fm.removeItem(at: url)
        url = url.deletingLastPathComponent()
        while url.path.count > folder.path.count, url.path.hasPrefix(folder.path + "/"),
            (try? fm.contentsOfDirectory(atPath: url.path))?.isEmpty == true
        {
            try? fm.removeItem(at: url)
            url = url.deletingLastPathComponent()
        }
    }
}
