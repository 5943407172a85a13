import Foundation
import Synchronization
import SiteCore
import Testing

/// `parallelMap` keeps input order and stays within the threads it is given (`--threads N`).
@Suite struct ParallelMapTests {
    @Test(arguments: [1, 2, 3])
    func resultsKeepOrderAndStayWithinTheThreadsGiven(threads: Int) {
        let caller = pthread_self()
        let seen = Array(0..<20_000).parallelMap(threads: threads, minimumCount: 1) { i in (i, pthread_self()) }
        #expect(seen.map(\.0) == Array(0..<20_000))
        let used = Set(seen.map { UInt(bitPattern: Int(bitPattern: $0.1)) })
        #expect(used.count <= threads)
        if threads == 1 { #expect(used == [UInt(bitPattern: Int(bitPattern: caller))]) }
    }

    /// Started in the order given (on one thread, one after another), results in input order.
    @Test(arguments: [1, 2])
    func startsInTheOrderGivenAndKeepsInputOrder(threads: Int) {
        let started = Mutex<[Int]>([])
        let order = [3, 0, 4, 1, 2]
        let results = Array(10...14).parallelMap(threads: threads, minimumCount: 1, startingWith: order) { n in
            started.withLock { $0.append(n) }
            return n * 2
        }
        #expect(results == [20, 22, 24, 26, 28])
        if threads == 1 { #expect(started.withLock { $0 } == order.map { $0 + 10 }) }
    }

    /// The job alongside runs once, on one of the threads given (none more), whatever the count.
    @Test(arguments: [(1, 20_000), (2, 20_000), (3, 20_000), (2, 3)])
    func theJobAlongsideRunsOnceOnAThreadGiven(threads: Int, count: Int) {
        let runs = Mutex<[UInt]>([])
        let results = Array(0..<count).parallelMap(
            threads: threads, minimumCount: 16,
            alongside: { runs.withLock { $0.append(UInt(bitPattern: Int(bitPattern: pthread_self()))) } }
        ) { i in (i, UInt(bitPattern: Int(bitPattern: pthread_self()))) }
        #expect(results.map(\.0) == Array(0..<count))
        let ran = runs.withLock { $0 }
        #expect(ran.count == 1)
        #expect(Set(results.map(\.1) + ran).count <= threads)
    }
}
