import Foundation
import SiteCore
import SiteHighlight
import Synchronization

/// The notes an earlier build loaded, so that a build where nothing changed renders no Markdown
/// (issue 48): one file, `<cache folder>/notes/notes.bin`, read whole before the notes load and
/// replaced (a temporary file renamed) once the build succeeded, holding the entries that build
/// used. An entry is a note's path, its key and the loaded `Note` (`BinaryCoding`); the key
/// digests the note's bytes with everything else it is made from (`settingsDigest`).
///
/// A file that is damaged, cut short, of another format or sitegen, or unreadable is ignored
/// with one warning, and one that cannot be written is a warning: the build never fails for it.
public final class NoteCache: Sendable {
    /// Raised when the file's layout or `Note`'s fields change.
    static let format: UInt32 = 1
    static let magic = Array("sitegen note cache\n".utf8)
    static let fileName = "notes.bin"
    /// The largest file read (10,000 notes make 40 MB): a larger one is not read into memory.
    static let maxBytes = 512 << 20
    static let temporaryPrefix = ".tmp-"

    public let file: URL
    private let stored: Stored
    private let used = Mutex<[String: Use]>([:])
    private let problems: Mutex<[Diagnostic]>

    /// The file as read: its bytes, and each entry by note path (relative to `content/`).
    struct Stored: Sendable {
        var bytes = Data()
        var entries: [String: Entry] = [:]
    }

    struct Entry: Sendable {
        var key: ContentHash.Digest
        /// Where the encoded `Note?` is in `Stored.bytes`.
        var blob: Range<Int>
    }

    /// An entry this build used: taken from the file, or made now (nil: a draft left out).
    enum Use: Sendable {
        case kept(Entry)
        case made(ContentHash.Digest, Note?)
    }

    /// The cache in `folder` (`<cache folder>/notes`), its file read now.
    public init(folder: URL) {
        file = folder.appendingPathComponent(Self.fileName)
        switch Self.read(file) {
        case .success(let found):
            stored = found
            problems = Mutex([])
        case .failure(let refusal):
            stored = Stored()
            problems = Mutex([Diagnostic(file: file.path, "note cache ignored: \(refusal.why)")])
        }
    }

    /// What the build should tell: the file refused, an entry unreadable, the file not written.
    public var warnings: [Diagnostic] { problems.withLock { $0 } }

    /// Notes rendered by this build, and those taken from the file.
    public var counts: (rendered: Int, kept: Int) {
        used.withLock { used in
            let kept = used.values.count { if case .kept = $0 { true } else { false } }
            return (used.count - kept, kept)
        }
    }

    /// The note stored for `path` under `key` (`.some(nil)`: a draft left out); nil when there
    /// is none, or another key's.
    func lookup(_ path: String, key: ContentHash.Digest) -> Note?? {
        guard let entry = stored.entries[path], entry.key == key else { return nil }
        let note: Note?
        do {
            note = try stored.bytes.withUnsafeBytes { raw in
                try BinaryCoding.decode(Note?.self, from: UnsafeRawBufferPointer(rebasing: raw[entry.blob]))
            }
        } catch {
            warnOnce("an entry cannot be read (\(error)): its note is rendered again")
            return nil
        }
        used.withLock { $0[path] = .kept(entry) }
        return .some(note)
    }

    /// Keeps the note loaded from `path` for the next build.
    func keep(_ path: String, key: ContentHash.Digest, _ note: Note?) {
        used.withLock { $0[path] = .made(key, note) }
    }

    private func warnOnce(_ message: String) {
        problems.withLock { problems in
            if problems.isEmpty { problems.append(Diagnostic(file: file.path, "note cache: \(message)")) }
        }
    }
}

// MARK: - Keys

extension NoteCache {
    /// What a key covers besides a note's bytes: the loader's settings, this format,
    /// sitegen's version, its program (`ProgramIdentity`: a rebuilt sitegen may render
    /// differently under the same version) and the highlighter's library when code is highlighted.
    struct KeyBasis: Encodable {
        var settings: NoteLoader.Settings
        var format = NoteCache.format
        var version = SitegenVersion.current
        var program = ProgramIdentity.current
        var highlighter: UInt64?
    }

    /// The digest of everything a key covers but the note: `KeyBasis` as JSON with sorted keys.
    static func settingsDigest(_ settings: NoteLoader.Settings) -> ContentHash.Digest {
        let basis = KeyBasis(
            settings: settings,
            highlighter: settings.highlight ? HighlightLibrary.identity : nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Never fails for these types; if it did, a key no entry has.
        let bytes = (try? encoder.encode(basis)) ?? Data(UUID().uuidString.utf8)
        return ContentHash.digest(bytes)
    }

    /// The key of a note whose file holds `bytes` (its path is not in it: an entry is found by
    /// its path).
    static func key(settings: ContentHash.Digest, bytes: Data) -> ContentHash.Digest {
        let content = ContentHash.digest(bytes)
        var parts: [UInt8] = []
        for word in [settings.high, settings.low, content.high, content.low] {
            withUnsafeBytes(of: word.littleEndian) { parts.append(contentsOf: $0) }
        }
        return parts.withUnsafeBytes { ContentHash.digest($0) }
    }
}

// MARK: - Reading

extension NoteCache {
    /// Why the file is not used, or not written.
    struct Refusal: Error {
        var why: String
    }

    /// The file's entries; none when there is no file yet.
    static func read(_ file: URL) -> Result<Stored, Refusal> {
        var status = stat()
        if lstat(file.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) > maxBytes {
            return .failure(Refusal(why: "it is larger than \(maxBytes >> 20) MB"))
        }
        switch ContentTree.contents(atPath: file.path) {
        case .failure(let failure) where failure.code == ENOENT || failure.code == ENOTDIR:
            return .success(Stored())
        case .failure(let failure): return .failure(Refusal(why: "it cannot be read (\(failure.text))"))
        case .success(let bytes):
            do {
                return .success(try bytes.withUnsafeBytes { try parse($0, bytes: bytes) })
            } catch {
                return .failure(error as? Refusal ?? Refusal(why: "it is damaged (\(error))"))
            }
        }
    }

    /// The header (what the file is, which format and sitegen wrote it, the length and digest of
    /// the rest) checked, then every entry's place; no note is decoded before it is looked up.
    static func parse(_ raw: UnsafeRawBufferPointer, bytes: Data) throws -> Stored {
        guard raw.count >= magic.count, raw.prefix(magic.count).elementsEqual(magic) else {
            throw Refusal(why: "it is not a note cache (another program's file?)")
        }
        let source = ByteSource(raw)
        source.position = magic.count
        let (format, version, length, sum): (Int, String, UInt64, ContentHash.Digest)
        do {
            format = try source.count32()
            guard format == Self.format else {
                throw Refusal(why: "it is of format \(format), this sitegen's is \(Self.format)")
            }
            version = try source.text()
            length = try source.word()
            sum = ContentHash.Digest(try source.word(), try source.word())
        } catch let refusal as Refusal { throw refusal } catch {
            throw Refusal(why: "it is cut short (\(raw.count) bytes)")
        }
        guard version == SitegenVersion.current else {
            throw Refusal(why: "it was written by sitegen \(version), this is \(SitegenVersion.current)")
        }
        let body = UnsafeRawBufferPointer(rebasing: raw[source.position...])
        guard UInt64(body.count) >= length else {
            throw Refusal(why: "it is cut short (\(body.count) of its \(length) bytes)")
        }
        guard UInt64(body.count) == length, ContentHash.digest(body) == sum else {
            throw Refusal(why: "it is damaged (its checksum does not match its bytes)")
        }
        var stored = Stored(bytes: bytes)
        for _ in 0..<(try source.count32()) {
            let path = try source.text()
            let key = ContentHash.Digest(try source.word(), try source.word())
            let count = try source.count32()
            try source.need(count)
            stored.entries[path] = Entry(key: key, blob: source.position..<source.position + count)
            source.position += count
        }
        guard source.position == raw.count else { throw source.damaged("bytes past the last entry") }
        return stored
    }
}

// MARK: - Writing

extension NoteCache {
    /// Replaces the file with the entries this build used (a build that used exactly the file's
    /// own writes nothing); the notes rendered are encoded on `threads`. Run once the build
    /// succeeded: a failed build's notes are not kept.
    public func save(threads: Int) {
        let used = self.used.withLock { $0 }
        let rendered = used.values.contains { if case .made = $0 { true } else { false } }
        guard rendered || used.count != stored.entries.count else { return }
        let paths = used.keys.sorted()
        let blobs: [[UInt8]?] = paths.parallelMap(threads: threads, minimumCount: 64) { path in
            guard case .made(_, let note) = used[path] else { return nil }
            return try? BinaryCoding.encode(note)  // a text past 4 GB: not kept
        }
        let body = body(paths, used, blobs)
        do throws(Refusal) { try Self.write(header(of: body), body, to: file) } catch {
            problems.withLock {
                $0.append(
                    Diagnostic(file: file.path, "note cache not written: \(error.why) (notes are kept no further)"))
            }
        }
    }

    /// The count of entries, then each entry: those kept from the file as they were there, those
    /// rendered as `blobs` encoded them.
    private func body(_ paths: [String], _ used: [String: Use], _ blobs: [[UInt8]?]) -> [UInt8] {
        let body = ByteSink()
        body.bytes.reserveCapacity(
            zip(paths, blobs).reduce(4) { sum, entry in
                let blob = if case .kept(let kept) = used[entry.0] { kept.blob.count } else { entry.1?.count ?? 0 }
                return sum + entry.0.utf8.count + 28 + blob
            })
        let count = body.slot()
        for (path, blob) in zip(paths, blobs) {
            switch used[path] {
            case .kept(let entry): body.entry(path, entry.key, stored.bytes[entry.blob])
            case .made(let key, _):
                guard let blob, blob.count <= UInt32.max else { continue }
                body.entry(path, key, blob)
            case nil: continue
            }
            body.bump(count)
        }
        return body.bytes
    }

    /// What the file starts with: what it is, its format, sitegen's version, the body's length
    /// and digest.
    func header(of body: [UInt8]) -> [UInt8] {
        let header = ByteSink()
        header.bytes = Self.magic
        header.uint32(Self.format)
        header.text(SitegenVersion.current)
        header.word(UInt64(body.count))
        let sum = body.withUnsafeBytes { ContentHash.digest($0) }
        header.word(sum.high)
        header.word(sum.low)
        return header.bytes
    }

    /// `header` and `body` in a temporary file of the folder, renamed over `file`: a reader (a
    /// build sharing the cache) sees the old file or the new one, whole.
    static func write(_ header: [UInt8], _ body: [UInt8], to file: URL) throws(Refusal) {
        let folder = file.deletingLastPathComponent().path
        if let failure = makeFolder(folder) { throw Refusal(why: "cannot make \(folder): \(failure)") }
        removeLeftovers(in: folder)
        let temporary = "\(folder)/\(temporaryPrefix)\(getpid())-\(UUID().uuidString)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw Refusal(why: "cannot create a file in \(folder): \(String(cString: strerror(errno)))")
        }
        var failure: Int32? = nil
        for part in [header, body] where failure == nil { failure = writeAll(fd, part) }
        if close(fd) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, file.path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw Refusal(why: "cannot write \(file.path): \(String(cString: strerror(failure)))")
        }
    }

    /// The error number of the write that failed, or nil.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return n < 0 ? errno : EIO }
                offset += n
            }
            return nil
        }
    }

    /// Makes `folder` and the folders above it that are missing; why it could not, or nil.
    static func makeFolder(_ folder: String) -> String? {
        if mkdir(folder, 0o755) == 0 { return nil }
        var st = stat()
        if errno == EEXIST { return stat(folder, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR ? nil : "not a folder" }
        guard errno == ENOENT, folder != "/" else { return String(cString: strerror(errno)) }
        if let failure = makeFolder((folder as NSString).deletingLastPathComponent) { return failure }
        return mkdir(folder, 0o755) == 0 || errno == EEXIST ? nil : String(cString: strerror(errno))
    }

    /// Deletes the temporary files of writers killed over an hour ago.
    static func removeLeftovers(in folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let hourAgo = time(nil) - 3600
        for name in names where name.hasPrefix(temporaryPrefix) {
            var st = stat()
            let path = "\(folder)/\(name)"
            if stat(path, &st) == 0, st.st_mtim.tv_sec < hourAgo { unlink(path) }
        }
    }
}

extension ByteSink {
    /// The place of a count (4 bytes, 0 for now), which `bump` raises.
    func slot() -> Int {
        let slot = bytes.count
        bytes.append(contentsOf: [0, 0, 0, 0])
        return slot
    }

    func uint32(_ n: UInt32) { withUnsafeBytes(of: n.littleEndian) { bytes.append(contentsOf: $0) } }

    /// A file entry: the note's path, its key, its encoded `Note?` and that's length.
    func entry<Blob: Collection<UInt8>>(_ path: String, _ key: ContentHash.Digest, _ blob: Blob) {
        text(path)
        word(key.high)
        word(key.low)
        uint32(UInt32(blob.count))
        bytes.append(contentsOf: blob)
    }
}
