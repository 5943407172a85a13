import Foundation
import Testing
@testable import SiteCore

@Suite struct DiagnosticTests {
    @Test func formatsLikeACompiler() {
        let d = Diagnostic(file: "content/a.json", line: 3, column: 7, "expected ','")
        #expect(d.description == "content/a.json:3:7: error: expected ','")
    }

    /// A value from the data with a NUL or a line break cannot hide part of the message or
    /// start a fake one.
    @Test func controlCharactersAreShown() {
        let d = Diagnostic(
            file: "content/a.json", line: 1, column: 8, "slug 'a\u{0}b\ncontent/x.json:1: error: fake\t\u{7F}' is bad")
        #expect(
            d.description == #"content/a.json:1:8: error: slug 'a\u{0}b\ncontent/x.json:1: error: fake\t\u{7F}' is bad"#
        )
    }

    /// DEL (U+007F) alone is enough to have the message shown escaped.
    @Test func aDeleteCharacterAloneIsShown() {
        let d = Diagnostic(file: "content/a.json", line: 1, column: 8, "slug 'a\u{7F}b' is bad")
        #expect(d.description == #"content/a.json:1:8: error: slug 'a\u{7F}b' is bad"#)
    }

    @Test func namesThePathWhenThereIsNoLine() {
        let d = Diagnostic(file: "content/a.plist", path: "[2].bounty", "expected an integer, found a string")
        #expect(d.description == "content/a.plist: error: at [2].bounty: expected an integer, found a string")
    }

    @Test func dottedPaths() {
        let p: [PathComponent] = [.key("boxOfficeResult"), .key("list"), .index(3), .key("rank")]
        #expect(p.dotted == "boxOfficeResult.list[3].rank")
    }

    /// Messages name a value's type with its article ("found an array", never "a array").
    @Test func valueTypesAreNamedWithTheirArticle() {
        let values: [Value] = [
            .null, .bool(true), .int(1), .double(1.5), .string("x"), .date(Date(timeIntervalSince1970: 0)), .array([]),
            .dictionary([:])
        ]
        #expect(
            values.map(\.typePhrase) == [
                "null", "a boolean", "an integer", "a number", "a string", "a date", "an array", "a dictionary"
            ])
    }
}
