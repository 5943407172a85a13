import Testing
@testable import SiteCore

@Suite struct DiagnosticTests {
    @Test func formatsLikeACompiler() {
        let d = Diagnostic(file: "content/a.json", line: 3, column: 7, "expected ','")
        #expect(d.description == "content/a.json:3:7: error: expected ','")
    }

    @Test func namesThePathWhenThereIsNoLine() {
        let d = Diagnostic(file: "content/a.plist", path: "[2].bounty", "expected an integer, found a string")
        #expect(d.description == "content/a.plist: error: at [2].bounty: expected an integer, found a string")
    }

    @Test func dottedPaths() {
        let p: [PathComponent] = [.key("boxOfficeResult"), .key("list"), .index(3), .key("rank")]
        #expect(p.dotted == "boxOfficeResult.list[3].rank")
    }
}
