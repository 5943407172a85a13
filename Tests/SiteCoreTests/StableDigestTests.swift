import Foundation
import Testing
@testable import SiteCore

/// `StableDigest`: the same value digests alike in every process, in any iteration order; values
/// that differ anywhere digest apart.
@Suite struct StableDigestTests {
    struct Inner: Encodable, Hashable {
        var b: Int
        var c: Int?
    }

    struct Outer: Encodable, Hashable {
        var a: Inner
        var c: Int?
    }

    /// The digest of a fixed value is a fixed number: what a build records, a later process
    /// (another seed for `Hasher`) compares. A change of the algorithm must change the record's
    /// format version (`BuildRecord.format`), and this number with it.
    @Test func isTheSameInEveryProcess() {
        let value = ["x": Value.array([.int(1), .string("ü"), .double(0.5), .null])]
        #expect(StableDigest.of(value) == 0x9530_e3d9_b45a_57fd, "\(String(StableDigest.of(value), radix: 16))")
    }

    /// Dictionaries and sets: 200 orders of insertion (and so of iteration) digest alike.
    @Test func setsAndDictionariesInAnyOrder() {
        let keys = (0..<200).map { "key\($0)" }
        var rng = SplitMix64(seed: 7)
        var digests: Set<UInt64> = []
        var setDigests: Set<UInt64> = []
        for _ in 0..<20 {
            let order = keys.shuffled(using: &rng)
            var d: [String: Int] = [:]
            var s: Set<String> = []
            for k in order {
                d[k] = k.count
                s.insert(k)
            }
            digests.insert(StableDigest.of(d))
            setDigests.insert(StableDigest.of(s))
        }
        #expect(digests.count == 1)
        #expect(setDigests.count == 1)
    }

    /// Where a value sits is part of its digest: nesting, neighbours and kinds all tell apart.
    @Test func differentTreesDigestApart() {
        let pairs: [(UInt64, UInt64)] = [
            (StableDigest.of([[1], [2]]), StableDigest.of([[1, 2]])),
            (StableDigest.of([[1], []]), StableDigest.of([[], [1]])),
            (
                StableDigest.of(Outer(a: Inner(b: 1, c: 2), c: nil)),
                StableDigest.of(Outer(a: Inner(b: 1, c: nil), c: 2))
            ),
            (StableDigest.of(["ab", "c"]), StableDigest.of(["a", "bc"])),
            (StableDigest.of(Value.int(1)), StableDigest.of(Value.double(1))),
            (StableDigest.of(Value.string("")), StableDigest.of(Value.null)),
            (StableDigest.of(["a": 1, "b": 2]), StableDigest.of(["a": 2, "b": 1])),
            (StableDigest.of(Set([1, 2])), StableDigest.of(Set([1, 3]))),
            (StableDigest.of(String(repeating: "x", count: 8)), StableDigest.of(String(repeating: "x", count: 9))),
            (StableDigest.of("abcdefgh" + "1"), StableDigest.of("abcdefgh" + "2")),
            (StableDigest.of("a\u{0}"), StableDigest.of("a"))
        ]
        for (k, (a, b)) in pairs.enumerated() { #expect(a != b, "pair \(k)") }
    }

    /// An array of strings, digested without its containers, digests as its encoding does.
    @Test func stringArraysAsTheirEncoding() {
        struct Strings: Encodable {
            var strings: [String]
            func encode(to encoder: any Encoder) throws {
                var c = encoder.unkeyedContainer()
                for s in strings { try c.encode(s) }
            }
        }
        let strings = ["a", "", "ü ö"]
        #expect(StableDigest.of(strings) == StableDigest.of(Strings(strings: strings)))
    }

    /// Equal values digest alike, whatever made them (a copy, a rebuilt dictionary).
    @Test func equalValuesDigestAlike() {
        let a = Outer(a: Inner(b: 3, c: nil), c: 4)
        var b = a
        b.c = 4
        #expect(StableDigest.of(a) == StableDigest.of(b))
        #expect(StableDigest.of(["p": [1, 2]]) == StableDigest.of(Dictionary(uniqueKeysWithValues: [("p", [1, 2])])))
    }
}
