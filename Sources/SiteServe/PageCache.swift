import Foundation
import NIOConcurrencyHelpers
import NIOCore
import SiteCore
#if canImport(Glibc)
    import Glibc
#endif

/// The last complete version of each file served, kept while its file is unchanged: pages with
/// the live-reload script in them (a browser reloading a page asks for it again and again, and
/// reading and rewriting it each time cost more than the rest of the answer), other files as
/// they are. A file is taken as unchanged while its `FileStamp` is.
///
/// A file rewritten in place (its inode kept: a program writing into the output folder) is
/// half written for a while, or empty just after it was truncated: while a program has it open
/// for writing, or its change time is younger than the save wait, or it changes while it is
/// read, the version kept is served (503 with Retry-After when there is none). sitegen itself
/// never writes in place (a new file renamed over the old one), so its pages are served at once.
final class PageCache: Sendable {
    private struct Entry {
        var stamp: FileStamp
        var body: ByteBuffer
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var bytes = 0
    }

    /// What to answer with for a file.
    enum Version: Equatable {
        /// A complete version: the file's, or the last one kept while it is being rewritten.
        case body(ByteBuffer)
        /// A file over `largest`, closed by its writers and unchanged for the save wait: sent from
        /// the file.
        case file
        /// Being written, and no complete version is kept: answer 503 and ask again.
        case busy
    }

    private let state = NIOLockedValueBox(State())
    /// At most this many bytes of files are kept; past it others are dropped to make room.
    let capacity: Int
    /// Files larger than this are not kept, but sent from the file once unchanged for `saveWait`.
    let largest: Int
    /// Seconds a file rewritten in place must stay unchanged before it is read.
    let saveWait: Double

    init(capacity: Int = 64 << 20, saveWait: Double = SourceLayout.saveWait) {
        self.capacity = capacity
        largest = capacity / 2
        self.saveWait = saveWait
    }

    /// Bytes of files held now.
    var storedBytes: Int { state.withLockedValue { $0.bytes } }

    /// The page `file` with the script injected, from the cache when the file is unchanged;
    /// nil when it cannot be read.
    func page(_ file: ServedFile) -> ByteBuffer? {
        if case .body(let page) = version(file, page: true) { return page }
        return nil
    }

    /// What to send for `file`: `page` files get the live-reload script.
    func version(_ file: ServedFile, page: Bool) -> Version {
        let kept = state.withLockedValue { $0.entries[file.path] }
        if let kept, kept.stamp == file.stamp { return .body(kept.body) }
        let last: Version = kept.map { .body($0.body) } ?? .busy
        // sitegen's own files are new inodes, closed before they are renamed into place: served at once.
        let rewritten = kept.map { $0.stamp.isSameFile(as: file.stamp) } ?? false
        if file.isOpenForWriting || (rewritten && !file.stamp.unchanged(for: saveWait)) { return last }
        guard page || file.size <= largest else { return file.stamp.unchanged(for: saveWait) ? .file : .busy }
        // nil: it changed while it was read.
        guard let data = file.contents() else { return last }
        let body = page ? ByteBuffer(bytes: LiveReload.inject(Data(data.readableBytesView))) : data
        keep(Entry(stamp: file.stamp, body: body), at: file.path)
        return .body(body)
    }

    private func keep(_ entry: Entry, at path: String) {
        state.withLockedValue { s in
            if let old = s.entries.removeValue(forKey: path) { s.bytes -= old.body.readableBytes }
            while s.bytes + entry.body.readableBytes > capacity, let other = s.entries.first {
                s.entries[other.key] = nil
                s.bytes -= other.value.body.readableBytes
            }
            s.entries[path] = entry
            s.bytes += entry.body.readableBytes
        }
    }
}
