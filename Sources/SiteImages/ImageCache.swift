import Foundation
import SiteCore

/// Processed images on disk, keyed by a hash of the source bytes and the recipe, so a build with
/// nothing changed decodes nothing. An entry is `<key>.json` (the `ProcessedImage`) beside its
/// files `<key>-<width>.<ext>`; the JSON is written last, so an entry without it (a build killed
/// mid-way) is no entry. Every file is written to a temporary name and renamed into place, so a
/// reader (another build sharing the folder) sees a whole file or none.
public struct ImageCache: Sendable {
    public let folder: URL

    public init(folder: URL) { self.folder = folder }

    /// The key of a source whose bytes hash to `sourceHash` (`hash(_:)`) processed by `recipe`.
    public static func key(sourceHash: String, recipe: ImageRecipe) -> String {
        "\(sourceHash)\(SourceHash.hex(Data(recipe.fingerprint.utf8)))"
    }

    /// The hash of a source file's bytes, the first half of its keys.
    public static func hash(_ source: Data) -> String { SourceHash.hex(source) }

    static let digestsFile = "sources.tsv"

    /// The source digests kept in the cache; none when there are none or the file is unreadable
    /// (they are only a shortcut: every source is then hashed again).
    public func digests() -> SourceDigests {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(Self.digestsFile)) else {
            return SourceDigests()
        }
        return SourceDigests(text: Substring(decoding: data, as: UTF8.self))
    }

    /// Keeps `digests` in the cache (atomically: a reader sees the old file or the new one).
    public func save(_ digests: SourceDigests) throws(ImageFailure) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try writeAtomically(Data(digests.text.utf8), to: folder.appendingPathComponent(Self.digestsFile))
        } catch {
            throw ImageFailure("cannot write to the image cache \(folder.path): \(error.localizedDescription)")
        }
    }

    public func file(_ key: String, _ variant: ImageVariant) -> URL { URL(fileURLWithPath: path(key, variant)) }

    /// The path of a variant's file (what a build copies from: a thousand of them, so no URL).
    public func path(_ key: String, _ variant: ImageVariant) -> String {
        "\(folder.path)/\(key)-\(variant.width).\(variant.format.fileExtension)"
    }

    private func entry(_ key: String) -> URL { folder.appendingPathComponent("\(key).json") }

    /// The entry of `key` if it is whole (its JSON and every file it lists); its time is renewed
    /// so a concurrent prune keeps it.
    public func lookup(_ key: String) -> ProcessedImage? {
        let entry = entry(key)
        guard let data = try? Data(contentsOf: entry),
            let processed = try? JSONDecoder().decode(ProcessedImage.self, from: data)
        else { return nil }
        guard processed.variants.allSatisfy({ access(path(key, $0), F_OK) == 0 }) else { return nil }
        utimensat(AT_FDCWD, entry.path, nil, 0)  // now
        return processed
    }

    /// Stores an entry: the files, then the JSON that makes it whole.
    public func store(_ key: String, _ processed: ProcessedImage, files: [Data]) throws(ImageFailure) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // Read-only: a site's copy is a hard link to it, which a tool changing the site's file
            // in place would change here too.
            for (variant, data) in zip(processed.variants, files) {
                try writeAtomically(data, to: file(key, variant), mode: 0o444)
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try writeAtomically(try encoder.encode(processed), to: entry(key))
        } catch {
            throw ImageFailure("cannot write to the image cache \(folder.path): \(error.localizedDescription)")
        }
    }

    /// Writes `url` through a temporary file renamed into place. The temporary file is locked
    /// (flock) by its writer until renamed, so the kernel tells a later build whether its writer is
    /// gone (killed, or failed without removing it): `removeLeftovers` deletes those.
    private func writeAtomically(_ data: Data, to url: URL, mode: mode_t = 0o644) throws {
        let (fd, temporary) = try lockedTemporaryFile()
        defer { close(fd) }  // after the rename: the lock is held until the file has its name
        do {
            try data.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { throw Self.posix(errno) }
                    offset += n
                }
            }
            guard fchmod(fd, mode) == 0, rename(temporary, url.path) == 0 else { throw Self.posix(errno) }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// A new temporary file in the folder, open and locked. A cleaner may take the lock in the
    /// instant between the creation and the lock and delete the file: then it has no name any more
    /// (no link), and another is made.
    private func lockedTemporaryFile() throws -> (Int32, String) {
        while true {
            let path = folder.path + "/" + Self.temporaryPrefix + UUID().uuidString
            let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw Self.posix(errno) }
            var st = stat()
            if flock(fd, LOCK_EX) == 0, fstat(fd, &st) == 0, st.st_nlink > 0 { return (fd, path) }
            close(fd)
        }
    }

    static let temporaryPrefix = ".tmp-"

    static func posix(_ code: Int32) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(code))])
    }

    /// Deletes the temporary files whose writer is gone (its lock can be taken): a killed build's,
    /// or one that failed on a full disk. Run by every build that uses the cache. Returns how many.
    @discardableResult
    public func removeLeftovers() -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return 0 }
        var removed = 0
        for name in names where name.hasPrefix(Self.temporaryPrefix) {
            let path = folder.path + "/" + name
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { continue }
            if flock(fd, LOCK_EX | LOCK_NB) == 0, unlink(path) == 0 { removed += 1 }
            close(fd)
        }
        return removed
    }

    /// Removes entries not in `used` that no build touched since `since` (another build sharing
    /// the folder renews what it uses), and temporary files whose writer is gone. Returns how many
    /// files were removed.
    @discardableResult
    public func prune(keeping used: Set<String>, untouchedSince since: Date) -> Int {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: folder.path) else { return 0 }
        let entries = Set(names.filter { $0.hasSuffix(".json") })
        var stale: Set<String> = []
        for name in names where name.hasSuffix(".json") {
            let key = String(name.dropLast(5))
            guard !used.contains(key) else { continue }
            let time =
                (try? fm.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.modificationDate] as? Date)
                ?? .distantPast
            if time < since { stale.insert(key) }
        }
        var removed = removeLeftovers()
        for name in names where !name.hasPrefix(Self.temporaryPrefix) {
            let path = folder.appendingPathComponent(name).path
            let key = String(name.prefix { $0 != "-" && $0 != "." })
            // A file whose entry has no JSON and was not written in this build (a killed build's).
            let orphanFile =
                !name.hasPrefix(".") && !name.hasSuffix(".json") && name != Self.digestsFile && !used.contains(key)
                && !entries.contains("\(key).json")
                && ((try? fm.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantPast) < since
            if stale.contains(key) || orphanFile {
                if (try? fm.removeItem(atPath: path)) != nil { removed += 1 }
            }
        }
        return removed
    }
}

/// 128 bits of FNV-1a over the bytes (two 64-bit lanes with different offsets), as hex: the
/// cache key's part for a source file (a collision would reuse another picture's outputs).
enum SourceHash {
    static func hex(_ data: Data) -> String { ContentHash.wide(data) }
}
