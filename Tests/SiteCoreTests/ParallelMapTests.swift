import Foundation
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
}
