import Foundation

/// The text of a long phase's progress (done/total, rate, time left), given the time of each
/// update. Pure, so that its limits are tested on exact times; where it is written is the CLI's.
///
/// On a terminal it is one live line, redrawn at most ten times a second; under CI, plain lines
/// at most every five seconds (a log keeps every line); either way nothing for a phase that ends
/// within its first second, and always the last line.
public struct ProgressLine: Sendable {
    public enum Style: Sendable, Equatable {
        /// Redrawn in place (`\r`, erase line), the last ending the line.
        case live
        /// A line each time.
        case plain

        /// The least time between two lines, in nanoseconds.
        var interval: UInt64 { self == .live ? 100_000_000 : 5_000_000_000 }
    }

    /// The style for standard error: plain under CI (`CI` set, as CI services set it), live on a
    /// terminal, nil (nothing shown) otherwise.
    public static func style(onTerminal: Bool, environment: [String: String]) -> Style? {
        if environment["CI"] != nil { return .plain }
        return onTerminal ? .live : nil
    }

    /// Below this, nothing is shown at all (nanoseconds since the start).
    public static let quietStart: UInt64 = 1_000_000_000

    private let label: String
    private let style: Style
    private let start: UInt64
    private var last: UInt64 = 0

    /// `start`: the phase's start, in nanoseconds of a monotonic clock.
    public init(label: String, style: Style, start: UInt64) {
        self.label = label
        self.style = style
        self.start = start
    }

    /// What to write after `done` of `total` at time `now`, or nil when nothing is to be written now.
    /// Times may come out of order (threads read the clock before they take turns): one before
    /// the last line's writes nothing unless it is the last.
    public mutating func update(done: Int, total: Int, now: UInt64) -> String? {
        guard done == total || now > last && now - last > style.interval else { return nil }
        last = now
        let elapsed = now - min(start, now)
        guard elapsed > Self.quietStart else { return nil }
        let seconds = Double(elapsed) / 1e9
        let rate = Double(done) / seconds
        let left = rate > 0 ? Double(total - done) / rate : 0
        let text = String(format: "%@ %d/%d, %.1f/s, %.0f s left", label, done, total, rate, left)
        switch style {
        case .live: return "\r\u{1B}[K" + text + (done == total ? "\n" : "")
        case .plain: return text + "\n"
        }
    }
}
