import Foundation
import SiteCore
import Synchronization

/// The image phase's progress (`ProgressLine`) on standard error: live on a terminal, plain lines
/// under CI, nothing otherwise (the build's summary line says how many images were processed).
enum ImageProgress {
    static func line() -> (@Sendable (Int, Int) -> Void)? {
        guard
            let style = ProgressLine.style(
                onTerminal: isatty(STDERR_FILENO) == 1,
                environment: ProcessInfo.processInfo.environment)
        else { return nil }
        let state = Mutex(ProgressLine(label: "images", style: style, start: DispatchTime.now().uptimeNanoseconds))
        return { done, total in
            let now = DispatchTime.now().uptimeNanoseconds
            if let text = state.withLock({ $0.update(done: done, total: total, now: now) }) {
                FileHandle.standardError.write(Data(text.utf8))
            }
        }
    }
}
