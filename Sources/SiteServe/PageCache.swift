import Foundation
import NIOConcurrencyHelpers
import NIOCore
#if canImport(Glibc)
    import Glibc
#endif

/// Pages with the live-reload script already in them, kept while their file is unchanged: a
/// browser reloading a page asks for it again and again, and reading and rewriting it each time
/// cost more than the rest of the answer. A file is taken as unchanged while its `FileStamp` is.
final class PageCache: Sendable {
    private struct Entry {
        var stamp: FileStamp
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

    /// The page `file` with the script injected, from the cache when the file is unchanged;
    /// nil when it cannot be read.
    func page(_ file: ServedFile) -> ByteBuffer? {
        if let hit = state.withLockedValue({ $0.entries[file.path] }), hit.stamp == file.stamp { return hit.page }
        // Read after the stat: if the file changed in between, the next stat differs and it is read again.
        guard let data = file.contents() else { return nil }
        let page = ByteBuffer(bytes: LiveReload.inject(Data(data)))
        state.withLockedValue { s in
            if s.bytes + page.readableBytes > capacity { s = State() }
            if let old = s.entries.updateValue(Entry(stamp: file.stamp, page: page), forKey: file.path) {
                s.bytes -= old.page.readableBytes
            }
            s.bytes += page.readableBytes
        }
        return page
    }
}
