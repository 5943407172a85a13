import CLinux
import Foundation
import NIOCore
#if canImport(Glibc)
    import Glibc
#endif

/// Maps request paths to files of one folder, and never to anything outside it.
public struct StaticFiles: Sendable {
    /// What a request path leads to.
    public enum Resolution: Equatable {
        case file(ServedFile)
        /// A folder asked for without its trailing slash, or the site root outside the base path.
        case redirect(String)
        case notFound
        /// A path that tries to leave the folder (or cannot be a file name).
        case forbidden
    }

    /// How a path is kept inside the folder.
    enum Confinement: Sendable {
        /// The kernel walks the path beneath the folder (openat2 with RESOLVE_BENEATH): one
        /// system call, no race between the check and the open.
        case kernel
        /// Where the kernel has no openat2: the path's real path (links resolved) must lie in the
        /// folder's, then that real path is opened.
        case realPath

        /// openat2 where this kernel has it.
        static let available: Confinement = {
            let fd = sg_open_beneath(AT_FDCWD, ".", sg_o_path() | O_CLOEXEC)
            if fd >= 0 { close(fd) }
            return fd >= 0 ? .kernel : .realPath
        }()
    }

    /// The served folder.
    public let folder: URL
    /// The base URL's path the site is served under, e.g. "/" or "/apps/".
    public let root: String
    let confinement: Confinement
    private let folderPath: String

    public init(folder: URL, root: String) {
        self.init(folder: folder, root: root, confinement: .available)
    }

    init(folder: URL, root: String, confinement: Confinement) {
        self.folder = folder.standardizedFileURL
        folderPath = self.folder.path
        self.root = root.hasSuffix("/") ? root : root + "/"
        self.confinement = confinement
    }

    /// Resolves a request target's path as sent (percent-encoded, without the query).
    public func resolve(_ rawPath: String) -> Resolution {
        // Origin-form only; encoded slashes, backslashes and NUL never name a file of the site.
        guard rawPath.hasPrefix("/") else { return .forbidden }
        let lower = rawPath.lowercased()
        if lower.contains("%2f") || lower.contains("%5c") || lower.contains("%00") || rawPath.contains("\\") {
            return .forbidden
        }
        guard let decoded = rawPath.removingPercentEncoding, !decoded.contains("\0") else { return .forbidden }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (i, s) in segments.enumerated() {
            if s == ".." || s == "." { return .forbidden }
            if s.isEmpty && i < segments.count - 1 { return .forbidden }  // "//"
        }
        if decoded + "/" == root { return .redirect(rawPath + "/") }
        guard decoded.hasPrefix(root) else { return decoded == "/" ? .redirect(root) : .notFound }
        let relative = String(decoded.dropFirst(root.count))
        let asFolder = relative.isEmpty || relative.hasSuffix("/")
        switch open(asFolder ? relative + "index.html" : relative) {
        case .file(let file)?: return .file(file)
        case .folder? where !asFolder: return .redirect(rawPath + "/")
        case .folder?, nil: return .notFound
        }
    }

    /// The site's own 404 page, if it has one.
    public var notFoundPage: ServedFile? {
        if case .file(let f)? = open("404.html") { return f }
        return nil
    }

    enum Opened {
        case file(ServedFile)
        case folder
    }

    /// The regular file or folder at `relative` in the folder; nil when there is none, or only
    /// by leaving the folder, or it is something else (a FIFO is opened without blocking and
    /// refused).
    func open(_ relative: String) -> Opened? {
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY
        let fd: Int32
        switch confinement {
        case .kernel:
            let dir = Glibc.open(folderPath, sg_o_path() | O_DIRECTORY | O_CLOEXEC)
            guard dir >= 0 else { return nil }
            fd = sg_open_beneath(dir, relative, flags)
            Glibc.close(dir)
        case .realPath:
            guard let real = Self.realPath(folderPath + "/" + relative), let base = Self.realPath(folderPath) else {
                return nil
            }
            guard real == base || real.hasPrefix(base == "/" ? "/" : base + "/") else { return nil }
            fd = Glibc.open(real, flags)
        }
        guard fd >= 0 else { return nil }
        var s = stat()
        guard fstat(fd, &s) == 0 else {
            Glibc.close(fd)
            return nil
        }
        switch s.st_mode & S_IFMT {
        case S_IFREG: return .file(ServedFile(path: relative, descriptor: fd, status: s))
        case S_IFDIR:
            Glibc.close(fd)
            return .folder
        default:
            Glibc.close(fd)
            return nil
        }
    }

    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}

/// A regular file of the served folder, open for reading; closed when dropped unless its
/// descriptor was taken.
public final class ServedFile: Equatable {
    /// Its path in the folder, as asked ("bounties/index.html").
    public let path: String
    let stamp: FileStamp
    private var descriptor: Int32

    init(path: String, descriptor: Int32, status: stat) {
        self.path = path
        self.descriptor = descriptor
        stamp = FileStamp(status)
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    public var size: Int { Int(stamp.size) }

    /// Whether a program has the file open for writing (false when that cannot be told: then
    /// only its change time tells).
    var isOpenForWriting: Bool { descriptor >= 0 && sg_open_for_writing(descriptor) == 1 }

    /// The descriptor, now the caller's to close.
    func takeDescriptor() -> Int32 {
        defer { descriptor = -1 }
        return descriptor
    }

    /// The whole file, or nil when it cannot be read or it changed while it was read (its
    /// stamp after the read differs, or the bytes are not as many as it said).
    func contents() -> ByteBuffer? {
        guard descriptor >= 0 else { return nil }
        // One byte more than stat said: a file that grew is not taken for whole.
        var buffer = ByteBufferAllocator().buffer(capacity: size + 1)
        while buffer.readableBytes < size + 1 {
            let offset = buffer.readableBytes
            let n = buffer.withUnsafeMutableWritableBytes {
                pread(descriptor, $0.baseAddress!, min($0.count, size + 1 - offset), off_t(offset))
            }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { break }
            buffer.moveWriterIndex(forwardBy: n)
        }
        var after = stat()
        guard buffer.readableBytes == size, fstat(descriptor, &after) == 0, FileStamp(after) == stamp,
            !isOpenForWriting
        else { return nil }
        return buffer
    }

    public static func == (lhs: ServedFile, rhs: ServedFile) -> Bool { lhs.path == rhs.path }
}

/// What `stat` says of a file that changes whenever its bytes do: sitegen writes pages by
/// renaming a new file over the old one (a new inode), and any other write changes the change time.
struct FileStamp: Hashable {
    var device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64

    init(_ status: stat) {
        func ns(_ time: timespec) -> Int64 { Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec) }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = ns(status.st_mtim)
        changed = ns(status.st_ctim)
    }

    /// The same file (device and inode), whatever its bytes: a file written in place.
    func isSameFile(as other: FileStamp) -> Bool { device == other.device && inode == other.inode }

    /// Whether nothing has changed the file for `seconds` (its change time, which no program
    /// can set, that far from now; a time in the future is a clock set back, not a write).
    func unchanged(for seconds: Double) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let age = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) - changed
        return age.magnitude >= UInt64(seconds * 1e9)
    }
}

/// The `Content-Type` of a file, by extension.
public enum ContentType {
    static let types: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json", "map": "application/json", "webmanifest": "application/manifest+json",
        "xml": "application/xml", "atom": "application/atom+xml", "rss": "application/rss+xml",
        "txt": "text/plain; charset=utf-8", "md": "text/markdown; charset=utf-8", "csv": "text/csv; charset=utf-8",
        "svg": "image/svg+xml", "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif",
        "webp": "image/webp", "avif": "image/avif", "ico": "image/x-icon",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "pdf": "application/pdf", "zip": "application/zip", "wasm": "application/wasm",
        "mp4": "video/mp4", "webm": "video/webm", "mp3": "audio/mpeg", "ogg": "audio/ogg"
    ]

    /// The type of the file at `path` ("/"-separated), by the extension of its last component.
    public static func of(_ path: String) -> String {
        let name = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path[path.index(after: $0)...] } ?? path[...]
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else {
            return "application/octet-stream"
        }
        return types[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    public static func isHTML(_ path: String) -> Bool { of(path).hasPrefix("text/html") }
}
