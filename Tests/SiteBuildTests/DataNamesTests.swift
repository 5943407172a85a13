import Foundation
import SiteCore
import Testing
@testable import SiteBuild

/// The names data provides to the template check, and the image encodes a build waits for.
@Suite struct DataNamesTests {
    @Test func namesNestedInListsAndRecordsAreCollected() {
        let fields: [String: Value] = [
            "title": .string("T"),
            "cast": .array([
                .dictionary(["name": .string("Luffy"), "roles": .array([.array([.dictionary(["role": .null])])])])
            ]),
            "meta": .dictionary(["crew": .dictionary(["captain": .string("Luffy")])])
        ]
        var names: Set<String> = ["site"]
        DataNames.collect(of: fields, into: &names)
        #expect(names == ["site", "title", "cast", "name", "roles", "role", "meta", "crew", "captain"])
    }

    @Test func failedEncodesAreReportedInTheJobsOrder() {
        let encodes = PendingEncodes()
        #expect(encodes.wait() == nil)
        let second = DispatchSemaphore(value: 0)
        encodes.start {
            second.wait(); encodes.failed(1, Diagnostic(file: "a.jpg", "first"))
        }
        encodes.start {
            encodes.failed(2, Diagnostic(file: "b.jpg", "second")); second.signal()
        }
        #expect(encodes.wait()?.items.map(\.message) == ["first", "second"])
    }
}
