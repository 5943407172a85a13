import Dispatch
import Foundation
import Synchronization

extension Array where Element: Sendable {
    /// `map` on at most `threads` threads, results in input order (output stays deterministic
    /// whatever the number of threads). Small inputs run serially: threads cost more than they
    /// save there.
    public func parallelMap<R: Sendable>(threads: Int, minimumCount: Int = 64, _ transform: @Sendable (Element) -> R)
        -> [R]
    {
        parallelMap(threads: threads, minimumCount: minimumCount, alongside: {}, transform)
    }

    /// `parallelMap` with one job of another kind, `alongside`, run by the first worker before it
    /// takes its first chunk: that job shares the threads instead of running before the map (with
    /// the other threads idle) or on one thread more.
    public func parallelMap<R: Sendable>(
        threads: Int, minimumCount: Int = 64, alongside: @Sendable () -> Void, _ transform: @Sendable (Element) -> R
    ) -> [R] {
        if count < minimumCount || threads <= 1 {
            alongside()  // first, as a worker would
            return map(transform)
        }
        let results = ResultSlots<R>(count: count)
        let chunk = Swift.max(1, count / (threads * 8))
        let chunks = (count + chunk - 1) / chunk
        let next = ChunkCounter()
        self.withUnsafeBufferPointer { input in
            nonisolated(unsafe) let input = input
            // At most `threads` workers, each taking the next chunk until none is left.
            DispatchQueue.concurrentPerform(iterations: Swift.min(threads, chunks)) { worker in
                if worker == 0 { alongside() }
                while let c = next.take(below: chunks) {
                    let end = Swift.min(count, (c + 1) * chunk)
                    for i in (c * chunk)..<end { results.set(i, transform(input[i])) }
                }
            }
        }
        return results.values()
    }

    /// `parallelMap` that starts the elements in `order` (each index once), results still in
    /// input order: the longest parts first, so that no long part starts last and ends alone.
    public func parallelMap<R: Sendable>(
        threads: Int, minimumCount: Int = 64, startingWith order: [Int], _ transform: @Sendable (Element) -> R
    ) -> [R] {
        let made = order.map { self[$0] }.parallelMap(threads: threads, minimumCount: minimumCount, transform)
        var results = [R?](repeating: nil, count: count)
        for (k, i) in order.enumerated() { results[i] = made[k] }
        return results.map { $0! }  // `order` holds every index once
    }
}

/// Hands out chunk numbers 0, 1, 2, … to the workers.
private final class ChunkCounter: Sendable {
    private let next = Mutex(0)
    func take(below limit: Int) -> Int? {
        next.withLock { next in
            guard next < limit else { return nil }
            next += 1
            return next - 1
        }
    }
}

/// Slots written by exactly one worker each, read after all workers finish.
private final class ResultSlots<R>: @unchecked Sendable {
    // Raw storage, not an Array property: concurrent writes to distinct slots of a class's array
    // would trip Swift's exclusivity checks.
    private let base: UnsafeMutablePointer<R?>
    private let count: Int
    init(count: Int) {
        self.count = count
        base = .allocate(capacity: count)
        base.initialize(repeating: nil, count: count)
    }
    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }
    func set(_ index: Int, _ value: R) { base[index] = value }
    func values() -> [R] { (0..<count).map { base[$0]! } }  // every slot was set by concurrentPerform above
}

/// The default number of threads for parallel work: one per core (`sitegen build --threads N`
/// passes another). Output never depends on it: results keep their input order.
public enum Parallelism {
    public static let cores: Int = {
        #if canImport(Glibc)
            return Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #else
            return 4
        #endif
    }()
}
#if canImport(Glibc)
    import Glibc
#endif
