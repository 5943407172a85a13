import Foundation

/// A file as `stat` tells it: which file it is and whether it was written since. A page is kept
/// only while its file is the one the record names, unchanged: an edited, replaced or removed
/// output file is made again. The change time is in it because no one can set it: a file edited
/// in place whose modification time was put back (`touch -r`) still differs.
public struct FileStamp: Equatable, Sendable {
    public var inode: UInt64
    public var size: Int64
    public var seconds: Int64
    public var nanoseconds: Int64
    /// The status change time, in nanoseconds.
    public var changed: Int64

    public init(inode: UInt64, size: Int64, seconds: Int64, nanoseconds: Int64, changed: Int64) {
        (self.inode, self.size, self.seconds, self.nanoseconds) = (inode, size, seconds, nanoseconds)
        self.changed = changed
    }

    init(_ s: stat) {
        self.init(
            inode: UInt64(s.st_ino), size: Int64(s.st_size), seconds: Int64(s.st_mtim.tv_sec),
            nanoseconds: Int64(s.st_mtim.tv_nsec),
            changed: Int64(s.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(s.st_ctim.tv_nsec))
    }

    /// The stamp of the regular file at `path` (links not followed), nil when there is none.
    public static func of(_ path: String) -> FileStamp? {
        var s = stat()
        guard lstat(path, &s) == 0, s.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileStamp(s)
    }
}
