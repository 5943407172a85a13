import Foundation
import NIOConcurrencyHelpers
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// Pages with the live-reload script already in them, kept while their file is unchanged: a
/// browser reloading a page asks for it again and again, and reading and rewriting it each time
/// cost more than the rest of the answer. A file is taken as unchanged while its device, inode,
/// size and modification and change times are; sitegen writes pages by renaming a new file over
/// the old one (a new inode), and any other write changes the change time.
final class PageCache: Sendable {
    private struct Identity: Hashable {
        var device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64
    }

    private struct Entry {
        var identity: Identity
        var page: ByteBuffer
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
    }

    private let state = NIOLockedValueBox(State())
    /// At most this many bytes of pages are kept; past it the cache starts again empty.
    let capacity: Int

    init(capacity: Int = 64 << 20) { self.capacity = capacity }

    /// Bytes of pages held now.
    var storedBytes: Int { state.withLockedValue { $0.bytes } }

    /// The page at `path` with the script injected, from the cache when the file is unchanged;
    /// nil when it cannot be read.
    func page(at path: String) -> ByteBuffer? {
        guard let identity = Self.identity(path) else { return nil }
        if let hit = state.withLockedValue({ $0.entries[path] }), hit.identity == identity { return hit.page }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        // Read after the stat: if the file changed in between, the next stat differs and it is read again.
        let page = ByteBuffer(bytes: LiveReload.inject(data))
        state.withLockedValue { s in
            if s.bytes + page.readableBytes > capacity { s = State() }
            if let old = s.entries.updateValue(Entry(identity: identity, page: page), forKey: path) { s.bytes -= old.page.readableBytes }
            s.bytes += page.readableBytes
        }
        return page
    }

    private static func identity(_ path: String) -> Identity? {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        func ns(_ t: timespec) -> Int64 { Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec) }
        return Identity(device: UInt64(s.st_dev), inode: UInt64(s.st_ino), size: Int64(s.st_size), modified: ns(s.st_mtim), changed: ns(s.st_ctim))
    }
}
