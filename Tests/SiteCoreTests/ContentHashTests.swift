import Foundation
import Testing
@testable import SiteCore

/// FNV-1a's published values, and where the fingerprint goes in a name.
@Suite struct ContentHashTests {
    @Test func fnv1aOf64Bits() {
        #expect(ContentHash.hex([UInt8]()) == "cbf29ce484222325")
        #expect(ContentHash.hex(Array("a".utf8)) == "af63dc4c8601ec8c")
        #expect(ContentHash.hex(Array("foobar".utf8)) == "85944171f73967e8")
        // Leading zeros are kept: every fingerprint is 16 digits.
        #expect(ContentHash.hex(Array("26900".utf8)) == "05c818f9eaa766a0")
    }

    @Test func wideIsTwoLanesOfSixteenDigits() {
        #expect(ContentHash.wide(Data("a".utf8)) == "af63dc4c8601ec8c" + "e5c9b63722c2ee79")
        #expect(ContentHash.wide(Data("26900".utf8)) == "05c818f9eaa766a0" + "088bb08170ee4f39")
    }

    /// XXH64's published values (xxhsum -H64), over each length path: the tail only, 4 and 8-byte
    /// tails, whole stripes.
    @Test func xxh64OfSeedZero() {
        func xxh(_ text: String, seed: UInt64 = 0) -> UInt64 {
            Array(text.utf8).withUnsafeBytes { ContentHash.xxh64($0, seed: seed) }
        }
        #expect(xxh("") == 0xEF46_DB37_51D8_E999)
        #expect(xxh("a") == 0xD24E_C4F1_A98C_6E5B)
        #expect(xxh("abc") == 0x44BC_2CF5_AD77_0999)
        #expect(xxh("message digest") == 0x066E_D728_FCEE_B3BE)
        #expect(xxh("abcdefghijklmnopqrstuvwxyz") == 0xCFE1_F278_FA89_835C)
        #expect(xxh(String(repeating: "1234567890", count: 8)) == 0xE04A_477F_19EE_145D)
    }

    /// `digest` is XXH64 with seeds 0 and 1, whatever the length (stripes and tails shared).
    @Test func digestIsTwoSeedsOfXXH64() {
        for length in [0, 1, 3, 4, 7, 8, 31, 32, 33, 63, 64, 100, 1000] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
            bytes.withUnsafeBytes { raw in
                let d = ContentHash.digest(raw)
                #expect(d.high == ContentHash.xxh64(raw, seed: 0) && d.low == ContentHash.xxh64(raw, seed: 1))
            }
        }
        #expect(ContentHash.digest(Data("a".utf8)).hex.count == 32)
    }

    @Test func theFingerprintGoesBeforeTheExtensionOfTheLastComponent() {
        let h = ContentHash.hex(Array("x".utf8))
        #expect(ContentHash.fingerprinted("a/photos.css", Array("x".utf8)) == "a/photos.\(h).css")
        #expect(ContentHash.fingerprinted("a/photos.min.js", Array("x".utf8)) == "a/photos.min.\(h).js")
        #expect(ContentHash.fingerprinted("a.b/noext", Array("x".utf8)) == "a.b/noext.\(h)")
        #expect(ContentHash.fingerprinted(".hidden", Array("x".utf8)) == ".hidden.\(h)")
        #expect(ContentHash.fingerprinted("a/.hidden", Array("x".utf8)) == "a/.hidden.\(h)")
    }
}
