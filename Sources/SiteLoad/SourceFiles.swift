import CLinux
import Foundation
import SiteCore
import SiteFormats

/// The files of a source folder's `content/`, classified once: datasets, notes and files to copy.
/// Paths are relative to `content/` with "/" separators, sorted for deterministic output.
public struct ContentTree: Sendable {
    public var root: URL
    public var datasets: [String]
    public var notes: [String]
    public var staticFiles: [String]

    public static var datasetExtensions: Set<String> { DatasetFormat.extensions }

    /// Walks `root`. Hidden files are skipped; a symbolic link that leads outside `root` is an error.
    public static func scan(_ root: URL) throws(Diagnostics) -> ContentTree {
        var tree = ContentTree(root: root, datasets: [], notes: [], staticFiles: [])
        for rel in try SourceFolder.files(under: root, display: SourceLayout.contentFile("")) {
            let ext = SitePath.extension(of: rel).lowercased()
            if datasetExtensions.contains(ext) {
                tree.datasets.append(rel)
            } else if ext == SourceLayout.noteExtension {
                tree.notes.append(rel)
            } else {
                tree.staticFiles.append(rel)
            }
        }
        return tree
    }

    /// Reads a file under `content/`.
    public func read(_ relative: String) throws(Diagnostic) -> Data {
        switch contents(relative) {
        case .success(let data): return data
        case .failure(let reason):
            throw Diagnostic(
                file: SourceLayout.contentFile(relative),
                "cannot read file: \(reason.text)")
        }
    }

    /// Why a file could not be read ("no such file", "Permission denied").
    public struct ReadFailure: Error {
        public var text: String
        /// The system's error number (`ENOENT` …); 0 when the file is there but not one to read.
        public var code: Int32 = 0
    }

    /// The bytes of a file under `content/`, or why they cannot be read.
    public func contents(_ relative: String) -> Result<Data, ReadFailure> {
        Self.contents(atPath: root.path + "/" + relative)
    }

    /// The bytes of the regular file at `path` (links followed), or why they cannot be read: a
    /// FIFO or a device is said to be one, never read.
    /// System calls on the path: URL building and `Data(contentsOf:)` cost more than the read
    /// itself over ten thousand notes.
    public static func contents(atPath path: String) -> Result<Data, ReadFailure> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)  // a FIFO opens without blocking
        guard fd >= 0 else { return .failure(failure(errno)) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return .failure(failure(errno)) }
        guard st.st_mode & S_IFMT == S_IFREG else {
            return .failure(ReadFailure(text: "it is \(FileKind.phrase(st.st_mode)), not a regular file"))
        }
        return readAll(fd, size: Int(st.st_size))
    }

    /// The bytes of `fd` from where it is to its end; `size` is what `fstat` said.
    private static func readAll(_ fd: Int32, size: Int) -> Result<Data, ReadFailure> {
        var data = Data(count: max(size, 0) + 1)  // one more: a file that grew is read to its end
        var filled = 0
        while true {
            if filled == data.count { data.count += max(data.count, 4096) }
            let n = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n > 0 { filled += n; continue }
            if n == 0 { break }
            if errno != EINTR { return .failure(failure(errno)) }
        }
        data.count = filled
        return .success(data)
    }

    /// The bytes of the file at `path` to publish as they are, once it is whole: a file that a
    /// program has open for writing, that changed less than `wait` seconds ago, or that changes
    /// while it is read (rewritten in place: a truncated or half-written copy would be
    /// published) is read again, for at most `patience` seconds. The previous copy stays
    /// published meanwhile.
    public static func settledContents(
        atPath path: String, wait: Double = SourceLayout.saveWait, patience: Double = 2
    ) -> Result<Data, ReadFailure> {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(patience * 1e9)
        while true {
            let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0 else { return .failure(failure(errno)) }
            let read = settled(fd, wait: wait)
            close(fd)
            if let read { return read }
            guard DispatchTime.now().uptimeNanoseconds < deadline else {
                return .failure(
                    ReadFailure(
                        text: "it was still being written after \(Int(patience * 1000)) ms (a program has it open "
                            + "for writing, or rewrites it); the copy published before is kept until it is left "
                            + "unchanged for \(Int(wait * 1000)) ms"))
            }
            usleep(UInt32(min(wait, 0.005) * 1e6) + 100)
        }
    }

    /// The whole file open at `fd` when no program has it open for writing and nothing changed
    /// it for `wait` seconds before nor while it was read; a failure when it cannot be read;
    /// nil to try again.
    private static func settled(_ fd: Int32, wait: Double) -> Result<Data, ReadFailure>? {
        var before = stat(), after = stat()
        guard fstat(fd, &before) == 0 else { return .failure(failure(errno)) }
        guard before.st_mode & S_IFMT == S_IFREG else {
            return .failure(ReadFailure(text: "it is \(FileKind.phrase(before.st_mode)), not a regular file"))
        }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let age = (now.tv_sec - before.st_ctim.tv_sec) * 1_000_000_000 + now.tv_nsec - before.st_ctim.tv_nsec
        // A change time in the future is a clock set back, not a write.
        guard age.magnitude >= UInt64(wait * 1e9), sg_open_for_writing(fd) != 1 else { return nil }
        let data = readAll(fd, size: Int(before.st_size))
        guard case .success(let bytes) = data, fstat(fd, &after) == 0 else { return data }
        let same =
            bytes.count == before.st_size && after.st_size == before.st_size && after.st_ino == before.st_ino
            && after.st_ctim.tv_sec == before.st_ctim.tv_sec && after.st_ctim.tv_nsec == before.st_ctim.tv_nsec
        return same && sg_open_for_writing(fd) != 1 ? data : nil
    }

    /// What a failed system call on a file under `content/` says.
    static func failure(_ code: Int32) -> ReadFailure {
        ReadFailure(text: code == ENOENT ? "no such file" : String(cString: strerror(code)), code: code)
    }

    /// Why `path` (links followed) is not a file to read: a folder, a FIFO (which would block
    /// the read), a device. nil for a regular file, or when it cannot be told (the read says why).
    static func notRegular(_ path: String) -> ReadFailure? {
        var st = stat()
        guard stat(path, &st) == 0, st.st_mode & S_IFMT != S_IFREG else { return nil }
        return ReadFailure(text: "it is \(FileKind.phrase(st.st_mode)), not a regular file")
    }

    /// The first `count` bytes of a file under `content/` (all of it when shorter), and whether
    /// that is the whole file.
    public func head(_ relative: String, count: Int) -> Result<(data: Data, whole: Bool), ReadFailure> {
        if let failure = Self.notRegular(root.appendingPathComponent(relative).path) { return .failure(failure) }
        do {
            let handle = try FileHandle(forReadingFrom: root.appendingPathComponent(relative))
            defer { try? handle.close() }
            let data = try handle.read(upToCount: count + 1) ?? Data()
            return .success(data.count > count ? (data.prefix(count), false) : (data, true))
        } catch {
            return .failure(ReadFailure(text: Self.reason(error)))
        }
    }

    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(code.rawValue))
        }
        if ns.domain == NSCocoaErrorDomain, ns.code == NSFileReadNoSuchFileError { return "no such file" }
        return ns.localizedDescription
    }
}

/// The files under a folder of the site (`content/`, `templates/`), found the same way for each.
public enum SourceFolder {
    /// Paths relative to `root` of the files under it ("/" separators), sorted; hidden files and
    /// folders are skipped, and a missing `root` has none. A symbolic link that leads outside
    /// `root`, or nowhere, is an error: nothing outside the site's folders is ever read.
    /// `display` names `root` in messages ("content/").
    public static func files(under root: URL, display: String) throws(Diagnostics) -> [String] {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: root.path, isDirectory: &isDir), isDir.boolValue else { return [] }
        let realRoot = root.resolvingSymlinksInPath().standardizedFileURL.path
        var files: [String] = []
        var problems: [Diagnostic] = []
        var stack = [""]
        while let dir = stack.popLast() {
            let url = dir.isEmpty ? root : root.appendingPathComponent(dir)
            guard let entries = list(url.path) else {
                problems.append(
                    Diagnostic(file: display + dir, "cannot list folder: \(String(cString: strerror(errno)))"))
                continue
            }
            for (name, kind, bytes) in entries where !name.hasPrefix(".") {
                let rel = dir.isEmpty ? name : "\(dir)/\(name)"
                if let bytes {
                    let hex = bytes.map { String(format: "%02X", $0) }.joined(separator: " ")
                    problems.append(
                        Diagnostic(file: display + rel, "the file name is not UTF-8 (its bytes: \(hex)): rename it"))
                    continue
                }
                var isFolder = kind == .folder
                if kind == .link || kind == .unknown {
                    let full = root.appendingPathComponent(rel)
                    if kind == .link {
                        let target = full.resolvingSymlinksInPath().standardizedFileURL.path
                        if !(target == realRoot || target.hasPrefix(realRoot + "/")) {
                            problems.append(
                                Diagnostic(file: display + rel, "symbolic link leads outside \(display) (to \(target))")
                            )
                            continue
                        }
                        // A link to its own folder or one above it would be walked for ever.
                        let folder = full.deletingLastPathComponent().resolvingSymlinksInPath().standardizedFileURL.path
                        if folder == target || folder.hasPrefix(target + "/") {
                            let shown =
                                target == realRoot ? display : display + target.dropFirst(realRoot.count + 1) + "/"
                            problems.append(
                                Diagnostic(
                                    file: display + rel,
                                    "symbolic link cycle: it leads to \(shown), a folder that holds it"))
                            continue
                        }
                    }
                    var childIsDir: ObjCBool = false
                    guard fm.fileExists(atPath: full.path, isDirectory: &childIsDir) else {
                        problems.append(Diagnostic(file: display + rel, "broken symbolic link"))
                        continue
                    }
                    isFolder = childIsDir.boolValue
                }
                if isFolder { stack.append(rel) } else { files.append(rel) }
            }
        }
        if !problems.isEmpty { throw Diagnostics(problems.sorted { $0.location.file < $1.location.file }) }
        return files.sorted()
    }

    enum EntryKind { case file, folder, link, unknown }

    /// A folder's entries with their kinds as the directory itself records them (no `stat` per
    /// file: a 10,000-note folder is listed in milliseconds); nil when it cannot be read. A name
    /// that is not UTF-8 comes with its bytes (its text shows each bad byte as `\xFF`).
    static func list(_ path: String) -> [(name: String, kind: EntryKind, notUTF8: [UInt8]?)]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var out: [(name: String, kind: EntryKind, notUTF8: [UInt8]?)] = []
        while let entry = readdir(dir) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            let valid = String(validating: bytes, as: UTF8.self)
            let name = valid ?? escaped(bytes)
            if name == "." || name == ".." { continue }
            let kind: EntryKind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .file
            case Int32(DT_DIR): kind = .folder
            case Int32(DT_LNK): kind = .link
            default: kind = .unknown
            }
            out.append((name, kind, valid == nil ? bytes : nil))
        }
        return out
    }

    /// `bytes` (not UTF-8) as text: the valid parts as they are, each byte of the others `\xFF`.
    static func escaped(_ bytes: [UInt8]) -> String {
        var out = "", start = 0
        while start < bytes.count {
            var end = bytes.count
            while end > start, String(validating: bytes[start..<end], as: UTF8.self) == nil { end -= 1 }
            if end > start {
                out += String(decoding: bytes[start..<end], as: UTF8.self)
                start = end
            } else {
                out += String(format: "\\x%02X", bytes[start])
                start += 1
            }
        }
        return out
    }
}

/// References from data to files under `content/` ("bounties/images/luffy.jpg").
public enum ContentPath {
    /// Whether `path` matches `pattern`, where `*` stands for any run of characters within one
    /// path segment: `boxoffice/movies/*.json`.
    public static func matches(_ path: String, pattern: String) -> Bool {
        let p = pattern.split(separator: "/", omittingEmptySubsequences: false)
        let s = path.split(separator: "/", omittingEmptySubsequences: false)
        guard p.count == s.count else { return false }
        return zip(p, s).allSatisfy { segment($0.1, matches: $0.0) }
    }

    static func segment(_ text: Substring, matches pattern: Substring) -> Bool {
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false)
        guard parts.count > 1 else { return text == pattern }
        guard text.hasPrefix(parts[0]), text.dropFirst(parts[0].count).hasSuffix(parts[parts.count - 1]),
            text.count >= parts[0].count + parts[parts.count - 1].count
        else { return false }
        var rest = text.dropFirst(parts[0].count).dropLast(parts[parts.count - 1].count)
        for middle in parts.dropFirst().dropLast() where !middle.isEmpty {
            guard let r = rest.range(of: middle) else { return false }
            rest = rest[r.upperBound...]
        }
        return true
    }

    /// The normalised relative path, or a message saying why the reference is refused: absolute
    /// paths, NUL bytes, and `..` that leaves `content/` (also when percent-encoded).
    public static func resolve(_ reference: String, from directory: String = "") -> Result<String, CoreError> {
        if reference.isEmpty { return .failure(CoreError("empty file reference")) }
        if reference.contains("\u{0}") { return .failure(CoreError("file reference contains a NUL byte")) }
        let decoded = reference.removingPercentEncoding ?? reference
        if decoded.contains("\u{0}") { return .failure(CoreError("file reference contains a NUL byte")) }
        if decoded.hasPrefix("/") || decoded.hasPrefix("\\")
            || decoded.contains(":") && decoded.split(separator: "/").first?.contains(":") == true
        {
            return .failure(CoreError("'\(reference)' is an absolute path; image references are relative to content/"))
        }
        var parts = directory.isEmpty ? [] : directory.split(separator: "/").map(String.init)
        for part in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if parts.isEmpty { return .failure(CoreError("'\(reference)' points outside content/")) }
                parts.removeLast()
            default: parts.append(String(part))
            }
        }
        if parts.isEmpty { return .failure(CoreError("'\(reference)' names no file")) }
        return .success(parts.joined(separator: "/"))
    }
}
