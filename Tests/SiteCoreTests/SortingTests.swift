import Foundation
import Testing
@testable import SiteCore

@Suite struct SortingTests {
    let ko = Collator(language: "ko")
    let en = Collator(language: "en")

    func sorted(_ items: [[String: Value]], _ keys: [SortKey], collator: Collator? = nil) throws -> [[String: Value]] {
        let sorter = Sorter(keys: keys, collator: collator ?? ko)
        return try sorter.order(count: items.count) { i, f in items[i][f] }.map { items[$0] }
    }

    @Test func numericStringsCompareAsNumbers() throws {
        let items: [[String: Value]] = ["10", "9", "1", "100", "2"].map { ["rank": .string($0)] }
        let out = try sorted(items, [SortKey(field: "rank", comparison: .number)])
        #expect(out.map { $0["rank"]!.stringValue! } == ["1", "2", "9", "10", "100"])
    }

    @Test func integersBeyondInt32AndBeyondDoublePrecision() throws {
        // 2^53 + 1 and 2^53 are equal as Doubles; they must still order exactly.
        let items: [[String: Value]] = [
            .int(9_007_199_254_740_993), .int(9_007_199_254_740_992), .int(3_000_000_000), .string("9007199254740994")
        ]
        .map { ["n": $0] }
        let out = try sorted(items, [SortKey(field: "n", direction: .descending, comparison: .number)])
        #expect(
            out.map { $0["n"]! } == [
                .string("9007199254740994"), .int(9_007_199_254_740_993), .int(9_007_199_254_740_992),
                .int(3_000_000_000)
            ])
    }

    @Test func mixedIntegersAndFloats() throws {
        let items: [[String: Value]] = [.double(8.3), .int(8), .double(0), .string("8.25")].map { ["rate": $0] }
        let out = try sorted(items, [SortKey(field: "rate", direction: .descending, comparison: .number)])
        #expect(out.map { $0["rate"]! } == [.double(8.3), .string("8.25"), .int(8), .double(0)])
    }

    @Test func hangulByCollationAndLanguage() throws {
        let names = ["zoro", "나미", "가방", "Émile", "apple", "루피", "eclair"]
        let items: [[String: Value]] = names.map { ["name": .string($0)] }
        let key = SortKey(field: "name", comparison: .text)
        let k = try sorted(items, [key], collator: ko).map { $0["name"]!.stringValue! }
        let e = try sorted(items, [key], collator: en).map { $0["name"]!.stringValue! }
        #expect(k == ["가방", "나미", "루피", "apple", "eclair", "Émile", "zoro"])
        #expect(e == ["apple", "eclair", "Émile", "zoro", "가방", "나미", "루피"])
    }

    @Test func stableForEqualKeys() throws {
        let items: [[String: Value]] = (0..<50).map { ["group": .int(Int64($0 % 3)), "id": .int(Int64($0))] }
        let out = try sorted(items, [SortKey(field: "group", comparison: .number)])
        for g in 0..<3 {
            let ids = out.filter { $0["group"] == .int(Int64(g)) }.map { $0["id"]! }
            #expect(
                ids
                    == ids.sorted {
                        if case .int(let a) = $0, case .int(let b) = $1 { return a < b }; return false
                    })
        }
        #expect(
            out.map { $0["group"]! } == Array(repeating: .int(0), count: 17) + Array(repeating: .int(1), count: 17)
                + Array(repeating: .int(2), count: 16))
    }

    @Test func multipleKeys() throws {
        let items: [[String: Value]] = [
            ["g": .string("b"), "n": .int(1)], ["g": .string("a"), "n": .int(1)],
            ["g": .string("b"), "n": .int(2)], ["g": .string("a"), "n": .int(3)]
        ]
        let out = try sorted(
            items,
            [SortKey(field: "g", comparison: .text), SortKey(field: "n", direction: .descending, comparison: .number)])
        #expect(out.map { "\($0["g"]!.stringValue!)\(TemplateText.plain($0["n"]!))" } == ["a3", "a1", "b2", "b1"])
    }

    @Test func datesInDeclaredFormats() throws {
        let items: [[String: Value]] = ["12/25/2021", "01/05/2022", "02/29/2020"].map { ["d": .string($0)] }
        let out = try sorted(items, [SortKey(field: "d", comparison: .date(DateFormat("MM/DD/YYYY")))])
        #expect(out.map { $0["d"]!.stringValue! } == ["02/29/2020", "12/25/2021", "01/05/2022"])
    }

    @Test func missingValuesGoLastInBothDirections() throws {
        let items: [[String: Value]] = [["n": .int(1)], [:], ["n": .int(2)]]
        #expect(
            try sorted(items, [SortKey(field: "n", comparison: .number)]).map { $0["n"] } == [.int(1), .int(2), nil])
        #expect(
            try sorted(items, [SortKey(field: "n", direction: .descending, comparison: .number)]).map { $0["n"] } == [
                .int(2), .int(1), nil
            ])
    }

    /// `"rank": null` (JSON null, an empty plist value) is a value nobody gave: it sorts last like
    /// an absent field, under every comparison and direction, and is never an error.
    @Test(arguments: [SortComparison.number, .text, .date(DateFormat("YYYY-MM-DD"))])
    func nullValuesGoLastLikeMissingOnes(comparison: SortComparison) throws {
        let a: Value = comparison == .number ? .int(1) : .string("2020-01-01")
        let b: Value = comparison == .number ? .int(2) : .string("2021-01-01")
        let items: [[String: Value]] = [
            ["n": .null, "i": .int(0)], ["n": a, "i": .int(1)], [:], ["n": b, "i": .int(3)], ["n": .null, "i": .int(4)]
        ]
        let up = try sorted(items, [SortKey(field: "n", comparison: comparison)]).map { $0["i"] }
        let down = try sorted(items, [SortKey(field: "n", direction: .descending, comparison: comparison)]).map {
            $0["i"]
        }
        #expect(up == [.int(1), .int(3), .int(0), nil, .int(4)])
        #expect(down == [.int(3), .int(1), .int(0), nil, .int(4)])
    }

    @Test func unreadableValuesAreReportedWithTheirIndex() {
        let items: [[String: Value]] = [["n": .int(1)], ["n": .string("ten")], ["n": .array([])]]
        let sorter = Sorter(keys: [SortKey(field: "n", comparison: .number)], collator: ko)
        #expect(throws: SortProblems.self) { try sorter.order(count: 3) { i, f in items[i][f] } }
        do {
            _ = try sorter.order(count: 3) { i, f in items[i][f] }
        } catch {
            #expect(error.problems.map(\.index) == [1, 2])
            #expect(error.problems[0].message == "expected a number to sort by, found \"ten\"")
        }
    }
}

@Suite struct PaginationTests {
    @Test func zeroItemsGiveOneEmptyPage() {
        let pages = Pagination.pages(itemCount: 0, pageSize: 10)
        #expect(pages == [PageSlice(number: 1, count: 1, range: 0..<0)])
    }

    @Test func exactMultiple() {
        let pages = Pagination.pages(itemCount: 20, pageSize: 10)
        #expect(pages.map(\.range) == [0..<10, 10..<20])
        #expect(pages.last!.isLast && pages.first!.isFirst)
    }

    @Test func remainder() {
        #expect(Pagination.pages(itemCount: 21, pageSize: 10).map(\.range) == [0..<10, 10..<20, 20..<21])
    }

    @Test func noPageSizeMeansOnePage() {
        #expect(Pagination.pages(itemCount: 7, pageSize: nil).map(\.range) == [0..<7])
        #expect(Pagination.pages(itemCount: 7, pageSize: 0).map(\.range) == [0..<7])
    }
}

@Suite struct GridGeometryTests {
    let bounty = GridGeometry(
        breakpoints: [
            .init(minWidth: 0, columns: 2), .init(minWidth: 1024, columns: 4), .init(minWidth: 640, columns: 3)
        ],
        spacing: 10, mediaAspect: (7, 10), textHeight: 65)

    @Test func phoneCellMatchesTheApp() {
        let cell = bounty.cell(gridWidth: 375, columns: 2)
        #expect(cell.width == 182.5)
        #expect(abs(cell.height - 325.714) < 0.001)
        #expect(abs(cell.mediaHeight / cell.width - 10.0 / 7.0) < 1e-9)
    }

    /// A breakpoint applies from its min-width on, as CSS `min-width` does: at exactly 640 px the
    /// grid has 3 columns, one pixel less has 2.
    @Test func aBreakpointAppliesFromExactlyItsMinWidth() {
        #expect(bounty.columns(atViewport: 0) == 2)
        #expect(bounty.columns(atViewport: 639.5) == 2)
        #expect(bounty.columns(atViewport: 640) == 3)
        #expect(bounty.columns(atViewport: 1023) == 3)
        #expect(bounty.columns(atViewport: 1024) == 4)
    }

    @Test func columnsPerViewport() {
        #expect(bounty.columns(atViewport: 375) == 2)
        #expect(bounty.columns(atViewport: 768) == 3)
        #expect(bounty.columns(atViewport: 1280) == 4)
    }
}
