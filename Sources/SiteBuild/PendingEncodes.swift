import Foundation
import Synchronization
import SiteCore

/// The image phase's encodes, still running while the pages are sorted, planned, rendered and
/// written: a page needs only a processed image's sizes and placeholder, known once it is
/// decoded. The write phase copies every other file first and waits here before copying these.
final class PendingEncodes: Sendable {
    private let running = DispatchGroup()
    private let state = Mutex((files: Set<String>(), problems: [(job: Int, problem: Diagnostic)]()))

    /// Runs `work` on a thread of its own (not one of the pool's: its parallel parts use those).
    func start(_ work: @escaping @Sendable () -> Void) {
        running.enter()
        let thread = Thread { [running] in
            work()
            running.leave()
        }
        thread.start()
    }

    /// Cache files an encode under way will make.
    func add(_ files: [String]) { state.withLock { $0.files.formUnion(files) } }

    /// Whether the cache file at `path` is made by an encode (copy it only after `wait`).
    func makes(_ path: String) -> Bool { state.withLock { $0.files.contains(path) } }

    func failed(_ job: Int, _ problem: Diagnostic) { state.withLock { $0.problems.append((job, problem)) } }

    /// Waits until every encode has ended; what failed, in the jobs' order (nil: nothing).
    func wait() -> Diagnostics? {
        running.wait()
        let problems = state.withLock { $0.problems }.sorted { $0.job < $1.job }.map(\.problem)
        return problems.isEmpty ? nil : Diagnostics(problems)
    }
}

/// One value per slot, set from any thread; `waitForAll` returns them once every slot is set.
final class Arrivals<T: Sendable>: Sendable {
    private let values: Mutex<[T?]>
    private let arrived = DispatchSemaphore(value: 0)
    private let count: Int

    init(count: Int) {
        self.count = count
        values = Mutex([T?](repeating: nil, count: count))
    }

    func set(_ index: Int, _ value: T) {
        values.withLock { $0[index] = value }
        arrived.signal()
    }

    func waitForAll() -> [T] {
        for _ in 0..<count { arrived.wait() }
        return values.withLock { $0.map { $0! } }  // `count` signals: every slot was set
    }
}
