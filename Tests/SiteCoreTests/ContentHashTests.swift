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

    @Test func theFingerprintGoesBeforeTheExtensionOfTheLastComponent() {
        let h = ContentHash.hex(Array("x".utf8))
        #expect(ContentHash.fingerprinted("a/photos.css", Array("x".utf8)) == "a/photos.\(h).css")
        #expect(ContentHash.fingerprinted("a/photos.min.js", Array("x".utf8)) == "a/photos.min.\(h).js")
        #expect(ContentHash.fingerprinted("a.b/noext", Array("x".utf8)) == "a.b/noext.\(h)")
        #expect(ContentHash.fingerprinted(".hidden", Array("x".utf8)) == ".hidden.\(h)")
        #expect(ContentHash.fingerprinted("a/.hidden", Array("x".utf8)) == "a/.hidden.\(h)")
    }
}
