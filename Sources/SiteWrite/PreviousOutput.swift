import CLinux
import SiteCore
import Foundation

/// The output a build replaces, when sitegen wrote it: a new file with the bytes the previous
/// output has at its path becomes a hard link to that file, so it keeps its inode and time stamp
/// and deploy tools that compare sizes and times (rsync, aws s3 sync) skip it. The bytes
/// themselves are compared, never a record of them: the folder may have been edited since.
///
/// Two outputs may share a file because sitegen never writes into an existing one: a build makes
/// new files in a new folder, and `serve` renames a new file over an old one (`FileBytes.write`
/// opens with O_EXCL).
final class PreviousOutput: Sendable {
    /// How a new file compares with the previous output's at its path.
    enum Outcome: Sendable, Equatable {
        /// Nothing there (or a folder).
        case added
        /// Other bytes, or not a regular file, or it cannot be read (when unsure: changed).
        case changed
        /// The same bytes; `linked`: the new file is that very file.
        case unchanged(linked: Bool)
    }

    /// A folder's device and inode: whether the output is still the folder compared with.
    struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    /// The folder, open (O_PATH) to open its files beneath it: no link leading out is followed.
    private let folder: Int32
    let identity: Identity
    /// The permission bits of a file this process creates: a file whose bits were changed is
    /// written anew, as a fresh build would make it.
    private let fileMode: mode_t

    /// The output at `path` if sitegen wrote it (`OutputFolder.judge`), else nil.
    init?(_ path: String, fileMode: mode_t) {
        guard OutputFolder.judge(path) == .sitegen else { return nil }
        let fd = open(path, sg_o_path() | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        var status = stat()
        guard fd >= 0, fstat(fd, &status) == 0 else {
            if fd >= 0 { close(fd) }
            return nil
        }
        folder = fd
        identity = Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        self.fileMode = fileMode
    }

    deinit { close(folder) }

    /// How a new file of `size` bytes, which `same` compares with the open previous file (and its
    /// status), compares with the one at `relative`. When they are the same and `target` is given,
    /// `target` becomes a hard link to it, unless other links share it (a user's, the image
    /// cache's: changed through them, the site would change) or its permissions were changed.
    /// Where the kernel cannot open beneath a folder (openat2, Linux 5.6) every file is changed.
    func compare(
        _ relative: String, size: Int, linkingTo target: String?, same: (Int32, stat) -> Bool
    ) -> Outcome {
        let fd = openBeneath(relative)
        guard fd >= 0 else { return errno == ENOENT || errno == ENOTDIR ? .added : .changed }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return .changed }
        if status.st_mode & S_IFMT == S_IFDIR { return .added }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_size == size, same(fd, status) else { return .changed }
        guard let target, status.st_nlink == 1, status.st_mode & 0o7777 == fileMode else {
            return .unchanged(linked: false)
        }
        // The file compared, not whatever is at its path by now.
        let linked = linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, target, AT_SYMLINK_FOLLOW) == 0
        return .unchanged(linked: linked)
    }

    /// The previous output's file at `relative`, opened for reading beneath the folder (no link
    /// followed, a FIFO not waited for); -1 with errno when it cannot be.
    private func openBeneath(_ relative: String) -> Int32 {
        sg_open_beneath(folder, relative, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    }

    /// Links `target` to the previous output's file at `relative` when it holds what a build
    /// record says was written there, and nothing else shares it; false leaves nothing at
    /// `target`. The file is the one written when `stamp` names it (its inode, size and time:
    /// not written since); else (a restored output has new inodes) its bytes' digest must be
    /// `digest`.
    func keep(_ relative: String, stamp: FileStamp, digest: UInt64, linkingTo target: String) -> Bool {
        let fd = openBeneath(relative)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var s = stat()
        guard fstat(fd, &s) == 0, s.st_mode & S_IFMT == S_IFREG, s.st_nlink == 1, s.st_mode & 0o7777 == fileMode,
            Int64(s.st_size) == stamp.size
        else { return false }
        if FileStamp(s) != stamp {
            var bytes = Data(count: Int(s.st_size))
            let read = bytes.withUnsafeMutableBytes { FileBytes.readFully(fd, $0.baseAddress!, $0.count) }
            var d = StableDigest()
            d.combine(bytes)
            guard read || bytes.isEmpty, d.value == digest else { return false }
        }
        return linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, target, AT_SYMLINK_FOLLOW) == 0
    }

    /// `compare` for a new file made from the file at `path` (absolute), which must be readable.
    func compare(_ relative: String, withFile path: String, linkingTo target: String?) throws -> Outcome {
        let source = open(path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw UnreadableSource(path: path, reason: String(cString: strerror(errno))) }
        defer { close(source) }
        var own = stat()
        guard fstat(source, &own) == 0 else { return .changed }
        return compare(relative, size: Int(own.st_size), linkingTo: target) { fd, status in
            status.st_dev == own.st_dev && status.st_ino == own.st_ino
                || FileBytes.sameBytes(fd, source, count: Int(own.st_size))
        }
    }

    /// Every entry that is not a folder, relative to the folder and "/"-separated: what the swap
    /// removes unless the new site has it. Links are listed, never followed.
    func files() -> [String] {
        var found: [String] = []
        func walk(_ descriptor: Int32, _ prefix: String) {
            guard let dir = fdopendir(descriptor) else {
                close(descriptor)
                return
            }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                let type = Int32(entry.pointee.d_type)
                let child =
                    type == Int32(DT_DIR) || type == Int32(DT_UNKNOWN)
                    ? openat(dirfd(dir), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1
                if child >= 0 { walk(child, prefix + name + "/") } else { found.append(prefix + name) }
            }
        }
        let root = openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if root >= 0 { walk(root, "") }
        return found
    }
}

extension FileBytes {
    /// Whether the file open at `fd` holds `data`, read from where it is (its size was compared).
    static func holds(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { expected in
            withUnsafeTemporaryAllocation(byteCount: max(1, min(expected.count, chunk)), alignment: 16) { buffer in
                var offset = 0
                while offset < expected.count {
                    let n = min(buffer.count, expected.count - offset)
                    guard readFully(fd, buffer.baseAddress!, n),
                        memcmp(buffer.baseAddress!, expected.baseAddress! + offset, n) == 0
                    else { return false }
                    offset += n
                }
                return true
            }
        }
    }

    /// Whether the files open at `a` and `b` hold the same `count` bytes from where they are.
    static func sameBytes(_ a: Int32, _ b: Int32, count: Int) -> Bool {
        withUnsafeTemporaryAllocation(byteCount: 2 * max(1, min(count, chunk)), alignment: 16) { buffer in
            let half = buffer.count / 2
            let first = buffer.baseAddress!, second = buffer.baseAddress! + half
            var offset = 0
            while offset < count {
                let n = min(half, count - offset)
                guard readFully(a, first, n), readFully(b, second, n), memcmp(first, second, n) == 0 else {
                    return false
                }
                offset += n
            }
            return true
        }
    }

    /// Bytes read at a time when comparing.
    static let chunk = 1 << 16

    /// Reads exactly `count` bytes; false at an error or the file's end.
    static func readFully(_ fd: Int32, _ base: UnsafeMutableRawPointer, _ count: Int) -> Bool {
        var offset = 0
        while offset < count {
            let n = Glibc.read(fd, base + offset, count - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }
}
