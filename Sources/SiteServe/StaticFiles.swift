import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Maps request paths to files of one folder, and never to anything outside it.
public struct StaticFiles: Sendable {
    /// What a request path leads to.
    public enum Resolution: Equatable, Sendable {
        case file(URL)
        /// A folder asked for without its trailing slash, or the site root outside the base path.
        case redirect(String)
        case notFound
        /// A path that tries to leave the folder (or cannot be a file name).
        case forbidden
    }

    /// The served folder.
    public let folder: URL
    /// The base URL's path the site is served under, e.g. "/" or "/apps/".
    public let root: String

    public init(folder: URL, root: String) {
        self.folder = folder.standardizedFileURL
        self.root = root.hasSuffix("/") ? root : root + "/"
    }

    /// Resolves a request target's path as sent (percent-encoded, without the query).
    public func resolve(_ rawPath: String) -> Resolution {
        // Origin-form only; encoded slashes, backslashes and NUL never name a file of the site.
        guard rawPath.hasPrefix("/") else { return .forbidden }
        let lower = rawPath.lowercased()
        if lower.contains("%2f") || lower.contains("%5c") || lower.contains("%00") || rawPath.contains("\\") { return .forbidden }
        guard let decoded = rawPath.removingPercentEncoding, !decoded.contains("\0") else { return .forbidden }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (i, s) in segments.enumerated() {
            if s == ".." || s == "." { return .forbidden }
            if s.isEmpty && i < segments.count - 1 { return .forbidden }  // "//"
        }
        if decoded + "/" == root { return .redirect(rawPath + "/") }
        guard decoded.hasPrefix(root) else { return decoded == "/" ? .redirect(root) : .notFound }
        let relative = String(decoded.dropFirst(root.count))
        var candidate = relative.isEmpty ? folder : folder.appendingPathComponent(relative)
        if relative.isEmpty || relative.hasSuffix("/") {
            candidate = candidate.appendingPathComponent("index.html")
        } else if isFolder(candidate) {
            return .redirect(rawPath + "/")
        }
        return inside(candidate).map(Resolution.file) ?? .notFound
    }

    /// The site's own 404 page, if it has one.
    public var notFoundPage: URL? { inside(folder.appendingPathComponent("404.html")) }

    /// `url` when it is a regular file whose real path (symbolic links resolved) lies in the folder.
    func inside(_ url: URL) -> URL? {
        guard let real = Self.realPath(url.path), let base = Self.realPath(folder.path) else { return nil }
        guard real.hasPrefix(base == "/" ? "/" : base + "/") else { return nil }
        var s = stat()
        guard stat(real, &s) == 0, (s.st_mode & S_IFMT) == S_IFREG else { return nil }
        return URL(fileURLWithPath: real)
    }

    func isFolder(_ url: URL) -> Bool {
        guard let real = Self.realPath(url.path), let base = Self.realPath(folder.path), real.hasPrefix(base + "/") else { return false }
        var s = stat()
        return stat(real, &s) == 0 && (s.st_mode & S_IFMT) == S_IFDIR
    }

    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}

/// The `Content-Type` of a file, by extension.
public enum ContentType {
    static let types: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "json": "application/json", "map": "application/json", "webmanifest": "application/manifest+json",
        "xml": "application/xml", "atom": "application/atom+xml", "rss": "application/rss+xml",
        "txt": "text/plain; charset=utf-8", "md": "text/markdown; charset=utf-8", "csv": "text/csv; charset=utf-8",
        "svg": "image/svg+xml", "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif",
        "webp": "image/webp", "avif": "image/avif", "ico": "image/x-icon",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "pdf": "application/pdf", "zip": "application/zip", "wasm": "application/wasm",
        "mp4": "video/mp4", "webm": "video/webm", "mp3": "audio/mpeg", "ogg": "audio/ogg",
    ]

    public static func of(_ url: URL) -> String {
        types[url.pathExtension.lowercased()] ?? "application/octet-stream"
    }

    public static func isHTML(_ url: URL) -> Bool { of(url).hasPrefix("text/html") }
}
