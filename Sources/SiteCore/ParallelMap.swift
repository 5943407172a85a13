import Dispatch

extension Array where Element: Sendable {
    /// `map` across all cores, results in input order (output stays deterministic whatever the
    /// number of threads). Small inputs run serially: threads cost more than they save there.
    public func parallelMap<R: Sendable>(minimumCount: Int = 64, _ transform: @Sendable (Element) -> R) -> [R] {
        if count < minimumCount { return map(transform) }
        let results = ResultSlots<R>(count: count)
        let chunk = Swift.max(1, count / (ProcessInfoCores.count * 8))
        let chunks = (count + chunk - 1) / chunk
        self.withUnsafeBufferPointer { input in
            nonisolated(unsafe) let input = input
            DispatchQueue.concurrentPerform(iterations: chunks) { c in
                let end = Swift.min(count, (c + 1) * chunk)
                for i in (c * chunk)..<end { results.set(i, transform(input[i])) }
            }
        }
        return results.values()
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
    func set(_ i: Int, _ value: R) { base[i] = value }
    func values() -> [R] { (0..<count).map { base[$0]! } }  // every slot was set by concurrentPerform above
}

enum ProcessInfoCores {
    static let count: Int = {
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
