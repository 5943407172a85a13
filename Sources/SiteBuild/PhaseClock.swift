import Foundation

/// The time each phase of a build took, for the summary line and `serve`'s reports.
struct PhaseClock {
    private var last = DispatchTime.now()
    private(set) var phases: [(name: String, seconds: Double)] = []

    mutating func lap(_ name: String) {
        let now = DispatchTime.now()
        phases.append((name, Double(now.uptimeNanoseconds - last.uptimeNanoseconds) / 1e9))
        last = now
    }
}
