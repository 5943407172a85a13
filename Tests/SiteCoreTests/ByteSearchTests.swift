import PropertyBased
import Testing
@testable import SiteCore

/// `firstIndex(of:from:to:)` (memchr) against the standard library's search of the same range.
@Suite struct ByteSearchTests {
    static let bytes = Gen.int(in: 0...3).array(of: 0...40)
    /// Where a search starts or ends: anywhere in the 40 bytes or past them.
    static let offsets = Gen.int(in: 0...44)

    @Test func findsWhatTheStandardLibraryFinds() async {
        await propertyCheck(input: Self.bytes, Self.offsets, Self.offsets) { codes, from, to in
            let bytes = codes.map(UInt8.init)
            let end = min(to, bytes.count)
            let expected = from < end ? bytes[from..<end].firstIndex(of: 1) : nil
            let toTheEnd = from < bytes.count ? bytes[from...].firstIndex(of: 1) : nil
            bytes.withUnsafeBufferPointer { b in
                #expect(b.firstIndex(of: 1, from: from, to: to) == expected, "\(bytes) \(from)..<\(to)")
                #expect(b.firstIndex(of: 1, from: from) == toTheEnd, "\(bytes) \(from)...")
            }
        }
    }

    /// The search stays in the buffer: `to` past its end is its end, and a byte just beyond is not
    /// found (the buffer here is the front of a longer array, so that byte is readable memory).
    @Test func neverPastTheEnd() {
        let longer: [UInt8] = [0, 0, 0, 1, 1]
        longer.withUnsafeBufferPointer { whole in
            let front = UnsafeBufferPointer(rebasing: whole[0..<3])
            #expect(front.firstIndex(of: 1, from: 0, to: 5) == nil)
            #expect(front.firstIndex(of: 1, from: 0) == nil)
            #expect(front.firstIndex(of: 0, from: 4) == nil, "from past the end")
            #expect(front.firstIndex(of: 0, from: 2, to: 1) == nil, "an empty range")
        }
    }
}
