import Foundation

/// The content hashes of source images, remembered by what `stat` says of each file, so a build
/// where no photo changed reads none of them (hashing a thousand camera originals reads gigabytes).
/// A remembered hash is used only while the file's device, inode, size, modification and change
/// times are all the same; the change time cannot be set by a user, so any write is noticed.
/// Kept in the image cache (`ImageCache.digests()`).
public struct SourceDigests: Sendable, Equatable {
    /// What `stat` said of a file, and the hash of its bytes then.
    public struct Entry: Sendable, Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64  // nanoseconds since 1970
        var changed: Int64
        var hash: String
    }

    /// A file changed this close to the moment its hash was taken is not remembered: a second
    /// write inside the same timestamp tick would leave its times as they were. Nanosecond
    /// timestamps (ext4, XFS, Btrfs, tmpfs) advance at least every few milliseconds; whole-second
    /// ones (FAT keeps two) need seconds.
    static func racyWindow(_ entry: Entry) -> Int64 {
        entry.modified % 1_000_000_000 != 0 || entry.changed % 1_000_000_000 != 0 ? 50_000_000 : 2_000_000_000
    }

    /// By the file's absolute path.
    public private(set) var entries: [String: Entry]

    public init(entries: [String: Entry] = [:]) { self.entries = entries }

    /// The remembered hash of the file at `path`, if the file is as it was when it was hashed.
    public func hash(of path: String) -> String? {
        guard let remembered = entries[path], let now = Self.observe(path, hash: remembered.hash) else { return nil }
        return now == remembered ? remembered.hash : nil
    }

    /// An entry for the file at `path` whose bytes hash to `hash`, read at `readAt`
    /// (nanoseconds since 1970); nil when the file changed too close to that moment to be sure.
    public static func entry(_ path: String, hash: String, readAt: Int64) -> Entry? {
        guard let e = observe(path, hash: hash), max(e.modified, e.changed) < readAt - racyWindow(e) else { return nil }
        return e
    }

    /// Nanoseconds since 1970, now.
    public static var now: Int64 {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }

    /// When the file at `path` last changed (its data or its times), in nanoseconds since 1970.
    public static func lastChange(_ path: String) -> Int64? {
        observe(path, hash: "").map { max($0.modified, $0.changed) }
    }

    static func observe(_ path: String, hash: String) -> Entry? {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        func ns(_ time: timespec) -> Int64 { Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec) }
        return Entry(
            device: UInt64(s.st_dev), inode: UInt64(s.st_ino), size: Int64(s.st_size),
            modified: ns(s.st_mtim), changed: ns(s.st_ctim), hash: hash)
    }

    /// These digests with `fresh` added, and without those of files under `root` that are not
    /// in `used` (photos removed from the site); other sites sharing the cache keep theirs.
    public func updated(with fresh: [String: Entry], root: String, keeping used: Set<String>) -> SourceDigests {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        var kept = entries.filter { !$0.key.hasPrefix(prefix) || used.contains($0.key) }
        kept.merge(fresh) { _, new in new }
        return SourceDigests(entries: kept)
    }

    // MARK: - The file

    /// The first line of the file; another first line (an older format) is no file.
    static let header = "sitegen source digests 1"

    /// One line a file: hash, device, inode, size, modification and change times, then the
    /// path (last, so it may hold anything but a line break). A thousand photos' digests are read
    /// on every build: a line format is read a hundred times faster than JSON through Codable.
    public var text: String {
        var out = Self.header + "\n"
        for (path, e) in entries.sorted(by: { $0.key < $1.key }) where !path.contains("\n") && !e.hash.contains("\t") {
            out += "\(e.hash)\t\(e.device)\t\(e.inode)\t\(e.size)\t\(e.modified)\t\(e.changed)\t\(path)\n"
        }
        return out
    }

    /// The digests of `text`; lines that are not whole entries are skipped (a digest is only a
    /// shortcut: a file without one is hashed again).
    public init(text: Substring) {
        var lines = text.split(separator: "\n")
        guard lines.first == Substring(Self.header) else {
            self.init()
            return
        }
        lines.removeFirst()
        var entries: [String: Entry] = [:]
        entries.reserveCapacity(lines.count)
        for line in lines {
            let f = line.split(separator: "\t", maxSplits: 6, omittingEmptySubsequences: false)
            guard f.count == 7, !f[0].isEmpty, !f[6].isEmpty, let device = UInt64(f[1]), let inode = UInt64(f[2]),
                let size = Int64(f[3]),
                let modified = Int64(f[4]), let changed = Int64(f[5])
            else { continue }
            entries[String(f[6])] = Entry(
                device: device, inode: inode, size: size, modified: modified, changed: changed, hash: String(f[0]))
        }
        self.init(entries: entries)
    }
}
