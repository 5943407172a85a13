import Foundation
import PropertyBased
import Testing
import _FoundationICU
@testable import SiteCore

/// Sort keys order text as ICU's own string comparison (`ucol_strcoll`) does, per language.
@Suite struct CollationTests {
    /// Hangul, Latin of both cases, digits, accents and spaces, up to 40 characters: long enough
    /// that a key outgrows the first buffer.
    static let texts = Gen.element(of: Array("가나다라마바사아자차카타파하한글abcABCéè 019-")).map { $0 ?? "a" }
        .array(of: 0...40).map { String($0) }

    /// ICU's strcoll with a collator of its own: the oracle the keys must agree with.
    static func strcoll(_ a: String, _ b: String, _ language: String) -> ComparisonResult {
        var status = U_ZERO_ERROR
        let collator = swift_ucol_open(language, &status)
        defer { swift_ucol_close(collator) }
        let x = Array(a.utf16), y = Array(b.utf16)
        let r = swift_ucol_strcoll(collator, x, Int32(x.count), y, Int32(y.count))
        return r == UCOL_LESS ? .orderedAscending : r == UCOL_EQUAL ? .orderedSame : .orderedDescending
    }

    @Test(arguments: ["ko", "en"]) func keysOrderAsICU(language: String) async {
        let collator = Collator(language: language)
        await propertyCheck(input: Self.texts, Self.texts) { a, b in
            #expect(collator.compare(a, b) == Self.strcoll(a, b, language), "\(a) vs \(b)")
            #expect(collator.compare(a, a) == .orderedSame)
        }
    }

    /// Two long texts that differ only at their end: the key is whole, not cut at the first buffer.
    @Test func longTextsDifferAtTheEnd() {
        let ko = Collator(language: "ko")
        let stem = String(repeating: "한글", count: 30)
        #expect(ko.compare(stem + "가", stem + "나") == .orderedAscending)
        // U+FDFA is one UTF-16 unit that expands to 18 letters: its key outgrows the first buffer
        // (4 bytes a unit), which is then made as large as ICU asks.
        let ligatures = String(repeating: "\u{FDFA}", count: 10)
        #expect(ko.sortKey(ligatures + "a").count > 4 * (ligatures + "a").utf16.count)
        #expect(ko.compare(ligatures + "a", ligatures + "b") == .orderedAscending)
        #expect(ko.compare(ligatures + "b", ligatures + "a") == .orderedDescending)
        #expect(ko.compare("한글", "abc") == .orderedAscending, "Hangul before Latin in Korean")
        #expect(Collator(language: "en").compare("한글", "abc") == .orderedDescending)
    }
}
