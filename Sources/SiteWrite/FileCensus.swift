import Foundation
import SiteCore

/// Files and folders as `stat` tells them, so that a later build can tell that none changed
/// without reading one (git's index does the same). A folder's stamp changes when an entry is
/// added to it, removed or renamed, so a census of the folders and files it found also notices
/// what was added since.
///
/// A stamp alone cannot tell a change made within the clock tick it was taken in (the file
/// system's times are coarse): an entry stamped within `racyWindow` of the census keeps its
/// bytes' digest (a folder's, its names'), and is compared by them.
public struct FileCensus: Equatable, Sendable {
    public enum Kind: UInt8, Sendable {
        case file = 0, folder = 1
        /// Nothing was there (a folder the site may add later: `templates/`).
        case absent = 2
    }

    public struct Entry: Equatable, Sendable {
        /// Relative to the census's folder.
        public var path: String
        public var kind: Kind
        public var stamp: FileStamp
        /// The digest of the bytes (a folder's sorted names), for an entry stamped within the
        /// racy window only.
        public var digest: UInt64?
        /// A file with other links (an output image shares the image cache's file): others link
        /// and unlink it, which changes its status change time, so that time is not compared.
        public var linked: Bool

        public init(path: String, kind: Kind, stamp: FileStamp, digest: UInt64?, linked: Bool = false) {
            (self.path, self.kind, self.stamp, self.digest, self.linked) = (path, kind, stamp, digest, linked)
        }

        /// Whether `stamp` is this entry's.
        func matches(_ stamp: FileStamp) -> Bool {
            guard linked else { return stamp == self.stamp }
            var other = stamp
            other.changed = self.stamp.changed
            return other == self.stamp
        }
    }

    public var entries: [Entry]
    /// Whether a recent status change time makes an entry racy, as a recent modification time
    /// does. Not in the output: a build links the files it keeps into its new folder and removes
    /// the old one just before the census, which changes it; a write sets the modification time,
    /// and one that puts it back changes the status change time again, which is compared.
    public var changeTime: Bool

    public init(entries: [Entry], changeTime: Bool) {
        self.entries = entries
        self.changeTime = changeTime
    }

    /// How close to the census a stamp may be before its entry is compared by its bytes: a
    /// Linux clock tick (at most 10 ms) with room to spare, or two seconds where the times have
    /// no fraction (file systems that keep whole seconds, FAT's two).
    static func racyWindow(_ stamp: FileStamp) -> Int64 {
        stamp.nanoseconds == 0 && stamp.changed % 1_000_000_000 == 0 ? 2_000_000_000 : 100_000_000
    }

    /// The time a census is taken at, in nanoseconds since 1970 (the file system's clock).
    public static func now() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return Int64(t.tv_sec) &* 1_000_000_000 &+ Int64(t.tv_nsec)
    }
}

extension FileCensus {
    /// The census of `paths` (relative to `base`, folders named as such), taken at `now`; nil when
    /// one is not what it was named, cannot be told by its stamp (a link to a folder, a device) or
    /// cannot be read.
    public static func take(
        _ paths: [(path: String, kind: Kind)], in base: String, changeTime: Bool, now: Int64 = now(), threads: Int
    ) -> FileCensus? {
        let entries = paths.parallelMap(threads: threads, minimumCount: 512) { item -> Entry? in
            guard let (kind, stamp, links) = status(base + "/" + item.path), kind == item.kind else { return nil }
            var entry = Entry(
                path: item.path, kind: kind, stamp: stamp, digest: nil, linked: kind == .file && links > 1)
            if kind != .absent, newest(stamp, changeTime: changeTime) >= now &- racyWindow(stamp) {
                guard let digest = digest(base + "/" + item.path, kind: kind) else { return nil }
                entry.digest = digest
            }
            return entry
        }
        guard entries.allSatisfy({ $0 != nil }) else { return nil }
        return FileCensus(entries: entries.compactMap { $0 }, changeTime: changeTime)
    }

    /// Every file and folder under `roots` (relative to `base`; a root may be a file or absent),
    /// folders before what they hold; nil past `limit` entries or at anything but a file or a
    /// folder (a link to a folder could lead anywhere).
    public static func walk(_ roots: [String], in base: String, limit: Int = 1 << 20) -> [(path: String, kind: Kind)]? {
        var found: [(path: String, kind: Kind)] = []
        var folders: [String] = []
        for root in roots {
            guard let (kind, _, _) = status(base + "/" + root) else { return nil }
            found.append((root, kind))
            if kind == .folder { folders.append(root) }
        }
        while let folder = folders.popLast() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: base + "/" + folder) else {
                return nil
            }
            for name in names.sorted() {
                let path = folder + "/" + name
                guard found.count < limit, let (kind, _, _) = status(base + "/" + path), kind != .absent else {
                    return nil
                }
                found.append((path, kind))
                if kind == .folder { folders.append(path) }
            }
        }
        return found
    }

    /// Whether every entry is as the census found it: the same kind and stamp, and for an entry
    /// taken within the racy window, the same bytes.
    public func unchanged(in base: String, threads: Int) -> Bool {
        let same = entries.parallelMap(threads: threads, minimumCount: 512) { entry in
            guard let (kind, stamp, _) = Self.status(base + "/" + entry.path), kind == entry.kind else { return false }
            guard kind != .absent else { return true }
            guard entry.matches(stamp) else { return false }
            return entry.digest == nil || Self.digest(base + "/" + entry.path, kind: kind) == entry.digest
        }
        return same.allSatisfy { $0 }
    }

    static func newest(_ stamp: FileStamp, changeTime: Bool) -> Int64 {
        let modified = stamp.seconds &* 1_000_000_000 &+ stamp.nanoseconds
        return changeTime ? max(modified, stamp.changed) : modified
    }

    /// What is at `path` and its link count (links to files followed: a source may be one), nil
    /// for anything a stamp cannot vouch for.
    static func status(_ path: String) -> (Kind, FileStamp, links: Int)? {
        var s = stat()
        guard stat(path, &s) == 0 else { return errno == ENOENT ? (.absent, FileStamp(stat()), 0) : nil }
        switch s.st_mode & S_IFMT {
        case S_IFREG: return (.file, FileStamp(s), Int(s.st_nlink))
        case S_IFDIR:
            var l = stat()
            guard lstat(path, &l) == 0, l.st_mode & S_IFMT == S_IFDIR else { return nil }
            return (.folder, FileStamp(s), Int(s.st_nlink))
        default: return nil
        }
    }

    /// A file's bytes' digest, a folder's names'; nil when it cannot be read.
    static func digest(_ path: String, kind: Kind) -> UInt64? {
        switch kind {
        case .file:
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else {
                return nil
            }
            return ContentHash.digest(data).low
        case .folder:
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
            var d = StableDigest()
            for name in names.sorted() { d.combine(name) }
            return d.value
        case .absent: return 0
        }
    }
}
