import Testing
import SiteCore
@testable import SiteMarkdown

/// The first pass counts values as if every alias were expanded.
@Suite struct AliasBudgetTests {
    private let converter = Converter(file: "a.md", lineOffset: 1)

    private func fails(_ yaml: String, limit: Int) -> Diagnostic? {
        do {
            try AliasBudget.check(yaml, limit: limit, converter: converter)
            return nil
        } catch {
            return error
        }
    }

    /// Without an alias there is nothing to expand: the converter's own count applies.
    @Test func withoutAliasesNothingIsCounted() {
        #expect(fails("a: [1, 2, 3, 4, 5, 6, 7, 8]\nb: x\n", limit: 2) == nil)
    }

    /// 1 (mapping) + a + [x, [y, z]] (5) + b + *n (5) + c + *n (5) = 19.
    @Test func anAliasCountsAsTheWholeNodeItNames() {
        let yaml = "a: &n [x, [y, z]]\nb: *n\nc: *n\n"
        #expect(fails(yaml, limit: 19) == nil)
        #expect(fails(yaml, limit: 18)?.message == Converter.tooManyValues)
        // With 17, the second alias crosses the limit: line 3 of the YAML, after the opening ---.
        #expect(fails(yaml, limit: 17)?.location.line == 4)
    }

    @Test func anAliasOfAScalarCountsOne() {
        #expect(fails("a: &s x\nb: *s\nc: *s\n", limit: 7) == nil)
        #expect(fails("a: &s x\nb: *s\nc: *s\n", limit: 6) != nil)
    }
}
