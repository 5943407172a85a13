import Foundation
import SiteCore

/// What is at the output path now, as far as replacing it goes: sitegen replaces only a folder
/// it wrote itself, an empty one, or nothing.
///
/// sitegen's own output holds an empty folder named `.sitegen-output` (`marker`). It travels with
/// the folder (moved, copied, restored from a backup), needs no cache (which may be deleted or
/// moved with `--cache-dir`) and cannot be confused with another folder that took a deleted
/// output's inode number; it tells a visitor nothing about the build machine (it is empty, its
/// name is the same everywhere), and a host has nothing to serve in it (git does not even keep
/// an empty folder). An output of a sitegen without the marker is recognised once by its shape
/// (`isEarlierOutput`), then carries the marker like any other.
public enum OutputFolder: Equatable, Sendable {
    case absent
    case empty
    /// A folder sitegen wrote (the marker, or an earlier sitegen's shape).
    case sitegen
    /// A folder sitegen did not write, with its entry count and one entry's name for the message.
    case foreign(entries: Int, example: String)
    /// Something that is not a folder (a file, a FIFO, a device).
    case notFolder(kind: String)

    /// The name of the marker folder in every output sitegen writes.
    public static let marker = ".sitegen-output"

    /// Judges `path` (resolved; a symbolic link there is judged as a link: not a folder).
    public static func judge(_ path: String) -> OutputFolder {
        var st = stat()
        guard lstat(path, &st) == 0 else { return .absent }
        guard st.st_mode & S_IFMT == S_IFDIR else { return .notFolder(kind: FileKind.phrase(st.st_mode)) }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else {
            return .foreign(entries: 0, example: "")
        }
        if names.isEmpty { return .empty }
        if isMarked(path) || isEarlierOutput(path, names: Set(names)) { return .sitegen }
        return .foreign(entries: names.count, example: names.sorted()[0])
    }

    static func isMarked(_ path: String) -> Bool {
        var st = stat()
        return lstat(path + "/" + marker, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR
    }

    /// The one-time rule for an output written before the marker existed: `index.html`,
    /// `404.html` and `sitemap.xml` at the top, and in `assets/` a stylesheet under a
    /// fingerprinted name (`NAME.<16 hex digits>.css`), which every sitegen build writes.
    static func isEarlierOutput(_ path: String, names: Set<String>) -> Bool {
        guard ["index.html", "404.html", "sitemap.xml"].allSatisfy(names.contains), names.contains("assets"),
            let assets = try? FileManager.default.contentsOfDirectory(atPath: path + "/assets")
        else { return false }
        return assets.contains { name in
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count >= 3 && parts.last == "css" && parts[parts.count - 2].count == 16
                && parts[parts.count - 2].allSatisfy(\.isHexDigit)
        }
    }
}
