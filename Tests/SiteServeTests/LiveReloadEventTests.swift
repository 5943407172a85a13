import Foundation
import Testing

@testable import SiteServe

/// The events `serve` sends the pages, byte for byte: each a typed value, encoded as the
/// listening script reads it (sorted keys, slashes as they are, `pages: null` for every page).
@Suite struct LiveReloadEventTests {
    @Test func eventsAreTheBytesThePagesRead() {
        func text(_ event: LiveReload.Event) -> String { String(decoding: LiveReload.event(event), as: UTF8.self) }
        #expect(text(.hello(server: "s/1", build: 2)) == "event: hello\ndata: {\"build\":2,\"server\":\"s/1\"}\n\n")
        #expect(
            text(.reload(build: 3, pages: ["/a/", "/b/"]))
                == "event: reload\ndata: {\"build\":3,\"pages\":[\"/a/\",\"/b/\"]}\n\n")
        #expect(text(.reload(build: 4, pages: nil)) == "event: reload\ndata: {\"build\":4,\"pages\":null}\n\n")
        #expect(text(.error(message: "x \"y\"")) == "event: error\ndata: {\"message\":\"x \\\"y\\\"\"}\n\n")
    }
}
