import CHighlightLoader
import Testing
@testable import SiteHighlight

/// `sghl_open`'s failures, each with its reason. The real library is opened first (once per
/// process, by `HighlightLibrary`), and a failed open leaves every function the wrappers call as
/// it was, so the other tests keep highlighting. One test: the reason is a process-wide buffer.
@Suite struct HighlightLoaderTests {
    @Test func failuresSayWhy() {
        _ = HighlightLibrary.openFailure
        #expect(sghl_open("/nonexistent/libnone.so") == -1)
        let missing = String(cString: sghl_failure())
        #expect(missing.hasPrefix("/nonexistent/libnone.so: ") && missing.contains("No such file"), "\(missing)")
        // A library that is not KSyntaxHighlighting's wrapper: the first function it lacks.
        #expect(sghl_open("libc.so.6") == -1)
        #expect(String(cString: sghl_failure()) == "libc.so.6 has no sgh_interface")
    }
}
