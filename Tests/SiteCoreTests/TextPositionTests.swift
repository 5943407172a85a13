import Testing
@testable import SiteCore

/// Lines end at LF, CR LF or a lone CR; columns count Unicode scalars.
@Suite struct TextPositionTests {
    private func positions(_ text: [UInt8], _ offsets: [Int], from start: Int = 0) -> [String] {
        text.withUnsafeBufferPointer { bytes in
            TextPosition.of(offsets, in: bytes, from: start).map { "\($0.line):\($0.column)" }
        }
    }

    @Test func lineBreaksOfEveryKind() {
        let text = Array("ab\r\ncd\re\nf".utf8)
        #expect(positions(text, [0, 2, 3, 4, 6, 7, 9, 10]) == ["1:1", "1:3", "1:3", "2:1", "2:3", "3:1", "4:1", "4:2"])
    }

    @Test func aCarriageReturnAtTheVeryEndIsALineBreak() {
        #expect(positions(Array("a\r".utf8), [2]) == ["2:1"])
    }

    @Test func columnsCountScalarsNotBytes() {
        #expect(positions(Array("가나x".utf8), [3, 6, 7]) == ["1:2", "1:3", "1:4"])
        // A malformed byte counts as one column.
        #expect(positions([0x61, 0xFF, 0x62], [2, 3]) == ["1:3", "1:4"])
    }

    @Test func offsetsInAnyOrderAndPastTheEnd() {
        let text = Array("a\nbc\nd".utf8)
        #expect(positions(text, [5, 0, 3, 99]) == ["3:1", "1:1", "2:2", "3:2"])
    }

    @Test func countingStartsAtStart() {
        let text: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("ab".utf8)
        #expect(positions(text, [4], from: 3) == ["1:2"])
    }
}
