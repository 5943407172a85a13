import Foundation
import Testing
@testable import SiteFormats

/// The byte helpers of the text readers, against Swift's own UTF-8 validation.
@Suite struct ByteTextTests {
    private func with<R>(_ bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        bytes.withUnsafeBufferPointer(body)
    }

    /// Every sequence of one to four bytes drawn from each lead byte and the boundary values of
    /// continuation bytes is accepted exactly when Swift's decoder accepts it.
    @Test func sequenceLengthsAgreeWithSwift() {
        let tails: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
        var mismatches: [String] = []
        for lead in UInt8(0x80)...UInt8(0xFF) {
            for a in tails {
                for b in tails {
                    for c in [UInt8(0x80), 0xBF, 0x41] {
                        let bytes = [lead, a, b, c]
                        let swiftLength = (1...4).first { String(validating: bytes.prefix($0), as: UTF8.self) != nil }
                        let ours = with(bytes) { ByteText.utf8SequenceLength($0, at: 0) }
                        if ours != swiftLength { mismatches.append(bytes.map(ByteText.hexByte).joined(separator: " ")) }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) differ: \(mismatches.prefix(10))")
    }

    @Test func aSequenceCutByTheEndIsInvalid() {
        for bytes: [UInt8] in [[0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98]] {
            #expect(with(bytes) { ByteText.utf8SequenceLength($0, at: 0) } == nil)
            #expect(with(bytes) { ByteText.firstInvalidUTF8($0, from: 0) } == 0)
        }
        #expect(with(Array("a가😀".utf8)) { ByteText.firstInvalidUTF8($0, from: 0) } == nil)
    }

    @Test func theByteOrderMark() {
        #expect(with([0xEF, 0xBB, 0xBF]) { ByteText.bomLength($0) } == 3)
        #expect(with([0xEF, 0xBB]) { ByteText.bomLength($0) } == 0)
        // Columns count from just after the mark.
        let data = Data([0xEF, 0xBB, 0xBF] + Array("ab\n cd".utf8) + [0xE9])
        #expect(InvalidUTF8.first(in: data) == InvalidUTF8(line: 2, column: 4, byte: 0xE9))
        #expect(
            InvalidUTF8.first(in: Data([0xEF, 0xBB, 0xBF, 0x61, 0xFF])) == InvalidUTF8(line: 1, column: 2, byte: 0xFF))
        #expect(InvalidUTF8.first(in: Data([0xEF, 0xBB, 0xBF])) == nil)
    }

    @Test func whatIsFoundIsDescribed() {
        func describe(_ text: [UInt8], at i: Int) -> String { with(text) { ByteText.describe($0, at: i) } }
        #expect(describe(Array("ab".utf8), at: 2) == "end of file")
        #expect(describe(Array("ab".utf8), at: -1) == "end of file")
        #expect(describe(Array("x NaN_1 y".utf8), at: 2) == "'NaN_1'")
        #expect(
            describe(Array(String(repeating: "w", count: 30).utf8), at: 0) == "'" + String(repeating: "w", count: 24)
                + "'")
        #expect(describe([0x0A], at: 0) == "a line break")
        #expect(describe([0x0D], at: 0) == "a line break")
        #expect(describe([0x07], at: 0) == "U+0007")
        #expect(describe([0x7F], at: 0) == "U+007F")
        #expect(describe(Array("{".utf8), at: 0) == "'{'")
        #expect(describe(Array("가".utf8), at: 0) == "'가'")
        #expect(describe([0xC0, 0x80], at: 0) == "byte 0xC0")
        #expect(ByteText.scalarName(0x1F600) == "U+1F600")
    }

    /// Each boundary of the encoding's lengths, against Swift's encoder.
    @Test func encodingAgreesWithSwift() {
        for value: UInt32 in [
            0, 0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0xAC00, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF
        ] {
            var out: [UInt8] = []
            ByteText.appendUTF8(value, to: &out)
            #expect(out == Array(String(Unicode.Scalar(value)!).utf8), "U+\(String(value, radix: 16))")
        }
    }

    @Test func literalsMatchUpToTheLastByte() {
        with(Array("bplist".utf8)) { bytes in
            #expect(ByteText.matches(bytes, at: 0, "bplist"))
            #expect(!ByteText.matches(bytes, at: 1, "bplist"))
            #expect(ByteText.matches(bytes, at: 5, "t"))
            #expect(!ByteText.matches(bytes, at: 6, "t"))
            #expect(!ByteText.matches(bytes, at: -1, "b"))
            #expect(ByteText.equals(bytes, 1..<3, "pl"))
            #expect(!ByteText.equals(bytes, 1..<4, "pl"))
        }
    }
}
