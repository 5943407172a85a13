import Testing
@testable import SiteHighlight

@Suite struct FenceAttributesTests {
    @Test func linesRangesAndNumbers() {
        #expect(
            FenceAttributes(info: "swift {2,4-5} showLineNumbers")
                == FenceAttributes(lineNumbers: true, marked: [2...2, 4...5]))
        #expect(FenceAttributes(info: "swift {5-6, 1 , 2}") == FenceAttributes(marked: [1...2, 5...6]))
        #expect(
            FenceAttributes(info: "swift showLineNumbers {3}") == FenceAttributes(lineNumbers: true, marked: [3...3]))
        #expect(FenceAttributes(info: "swift") == FenceAttributes())
        #expect(FenceAttributes(info: "swift").isEmpty)
    }

    @Test func overlappingAndTouchingRangesJoin() {
        #expect(FenceAttributes(info: "x {1-3,2-6,7,9}").marked == [1...7, 9...9])
    }

    @Test func whatIsNotALineOrARangeIsLeftAlone() {
        #expect(FenceAttributes(info: "x {0,-2,3-1,a,2-b,1-2-3,,4} title=\"a {b}\" showlinenumbers").marked == [4...4])
        #expect(FenceAttributes(info: "x {2").marked == [])
        #expect(!FenceAttributes(info: "x showlinenumbers").lineNumbers)
        #expect(!FenceAttributes(info: "showLineNumbers").lineNumbers)  // the first word is the language
        #expect(FenceAttributes(info: "x {1-\(FenceAttributes.largestLine + 1)}").marked == [])
        #expect(FenceAttributes(info: "x {99999999999999999999999}").marked == [])
    }
}
