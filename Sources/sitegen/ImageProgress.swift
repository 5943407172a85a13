import Foundation
import Synchronization

/// The image phase's live line on a terminal (done/total, rate, time left), redrawn at most
/// ten times a second; nothing when standard error is not a terminal or CI is set (the build's
/// summary line says how many images were processed).
enum ImageProgress {
    static func line() -> (@Sendable (Int, Int) -> Void)? {
        guard isatty(STDERR_FILENO) == 1, ProcessInfo.processInfo.environment["CI"] == nil else { return nil }
        let state = Mutex((start: DispatchTime.now(), last: UInt64(0)))
        return { done, total in
            let now = DispatchTime.now().uptimeNanoseconds
            let text: String? = state.withLock { s in
                guard done == total || now - s.last > 100_000_000 else { return nil }
                s.last = now
                let seconds = Double(now - s.start.uptimeNanoseconds) / 1e9
                // Nothing is shown for a phase that ends within a second.
                guard seconds > 1 else { return nil }
                let rate = Double(done) / max(seconds, 0.001)
                let left = rate > 0 ? Double(total - done) / rate : 0
                return String(format: "\r\u{1B}[Kimages %d/%d, %.1f/s, %.0f s left", done, total, rate, left) + (done == total ? "\n" : "")
            }
            if let text { FileHandle.standardError.write(Data(text.utf8)) }
        }
    }
}
