import Foundation
import Testing
@testable import SiteBuild

/// Each phase is timed from the end of the one before, so the phases add up to the build's time.
@Suite struct PhaseClockTests {
    /// Spins until the monotonic clock has moved by `nanoseconds` (the event the test needs; no sleep).
    func spin(_ nanoseconds: UInt64) {
        let start = DispatchTime.now().uptimeNanoseconds
        while DispatchTime.now().uptimeNanoseconds - start < nanoseconds {}
    }

    @Test func phasesAddUpToTheWholeTime() {
        let before = DispatchTime.now().uptimeNanoseconds
        var clock = PhaseClock()
        spin(20_000_000)
        clock.lap("load")
        spin(20_000_000)
        clock.lap("render")
        let whole = Double(DispatchTime.now().uptimeNanoseconds - before) / 1e9
        #expect(clock.phases.map(\.name) == ["load", "render"])
        #expect(clock.phases.allSatisfy { $0.seconds >= 0.02 }, "\(clock.phases)")
        let sum = clock.phases.reduce(0) { $0 + $1.seconds }
        #expect(sum <= whole, "phases \(clock.phases) add up to more than the \(whole) s they took")
    }
}
