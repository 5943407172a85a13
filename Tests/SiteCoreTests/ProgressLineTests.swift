import Testing
import SiteCore

/// Progress lines' limits on exact times: quiet for the first second, then at most a line every
/// tenth of a second on a terminal (five seconds under CI), the last always.
@Suite struct ProgressLineTests {
    static let second: UInt64 = 1_000_000_000
    static let t0: UInt64 = 5 * second

    func live() -> ProgressLine { ProgressLine(label: "images", style: .live, start: Self.t0) }

    @Test func quietDuringTheFirstSecond() {
        var p = live()
        #expect(p.update(done: 1, total: 10, now: Self.t0 + Self.second / 2) == nil)
        #expect(p.update(done: 2, total: 10, now: Self.t0 + Self.second) == nil, "exactly one second is still quiet")
        var q = live()
        #expect(q.update(done: 10, total: 10, now: Self.t0 + Self.second - 1) == nil, "a phase done within a second")
    }

    @Test func aLineAfterTheFirstSecondWithRateAndTimeLeft() {
        var p = live()
        #expect(
            p.update(done: 4, total: 10, now: Self.t0 + 2 * Self.second) == "\r\u{1B}[Kimages 4/10, 2.0/s, 3 s left")
    }

    @Test func atMostOneLineATenthOfASecond() {
        var p = live()
        let t = Self.t0 + 2 * Self.second
        #expect(p.update(done: 1, total: 10, now: t) != nil)
        #expect(p.update(done: 2, total: 10, now: t + 100_000_000) == nil)
        #expect(p.update(done: 3, total: 10, now: t + 100_000_001) != nil)
    }

    @Test func theLastLineAlwaysAndEndsTheLine() {
        var p = live()
        let t = Self.t0 + 3 * Self.second
        #expect(p.update(done: 9, total: 10, now: t) != nil)
        #expect(p.update(done: 10, total: 10, now: t + 1) == "\r\u{1B}[Kimages 10/10, 3.3/s, 0 s left\n")
    }

    /// Two threads read the clock, then take turns: the later time may be written first. A crash
    /// once (UInt64 underflow) on two threads resizing eight photos.
    @Test func anEarlierTimeThanTheLastLinesWritesNothing() {
        var p = ProgressLine(label: "images", style: .plain, start: Self.t0)
        let t = Self.t0 + 10 * Self.second
        #expect(p.update(done: 2, total: 10, now: t) != nil)
        #expect(p.update(done: 3, total: 10, now: t - 1) == nil)
        #expect(p.update(done: 4, total: 10, now: t + 5 * Self.second) == nil, "five seconds after the last line")
        #expect(p.update(done: 5, total: 10, now: t + 5 * Self.second + 1) != nil)
        let last = p.update(done: 10, total: 10, now: t - 2)
        #expect(last == "images 10/10, 1.0/s, 0 s left\n", "the last line always")
    }

    @Test func nothingDoneYetHasNoTimeLeft() {
        var p = live()
        #expect(
            p.update(done: 0, total: 10, now: Self.t0 + 2 * Self.second) == "\r\u{1B}[Kimages 0/10, 0.0/s, 0 s left")
    }

    @Test func plainLinesEveryFiveSeconds() {
        var p = ProgressLine(label: "images", style: .plain, start: Self.t0)
        let t = Self.t0 + 2 * Self.second
        #expect(p.update(done: 2, total: 10, now: t) == "images 2/10, 1.0/s, 8 s left\n")
        #expect(p.update(done: 3, total: 10, now: t + 5 * Self.second) == nil)
        #expect(p.update(done: 8, total: 10, now: t + 5 * Self.second + 1) == "images 8/10, 1.1/s, 2 s left\n")
        #expect(p.update(done: 10, total: 10, now: t + 5 * Self.second + 2) == "images 10/10, 1.4/s, 0 s left\n")
    }

    @Test func styleByTerminalAndCI() {
        #expect(ProgressLine.style(onTerminal: true, environment: [:]) == .live)
        #expect(ProgressLine.style(onTerminal: false, environment: [:]) == nil)
        #expect(ProgressLine.style(onTerminal: true, environment: ["CI": "true"]) == .plain)
        #expect(ProgressLine.style(onTerminal: false, environment: ["CI": "1"]) == .plain)
    }
}
