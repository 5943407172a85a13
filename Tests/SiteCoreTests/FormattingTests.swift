import Foundation
import Testing
@testable import SiteCore

@Suite struct DateFormatTests {
    @Test(arguments: [
        ("MM/DD/YYYY", "01/05/2022"), ("YYYY-MM-DD", "2022-01-05"), ("YYYYMMDD", "20220105"),
        ("YYYYMMDD", "20220105~20220107")
    ])
    func parsesEachDeclaredFormat(pattern: String, text: String) {
        #expect(DateFormat(pattern).parse(text) == CalendarDate(year: 2022, month: 1, day: 5))
    }

    @Test func rejectsImpossibleDaysAndWrongShapes() {
        let f = DateFormat("YYYY-MM-DD")
        #expect(f.parse("2021-02-29") == nil)
        #expect(f.parse("2020-02-29") != nil)
        #expect(f.parse("2022-13-01") == nil)
        #expect(f.parse("2022/01/05") == nil)
        #expect(f.parse("2022-01-05x") == nil)
        #expect(DateFormat("YYYYMMDD").parse("2022015") == nil)
    }

    @Test func formatsWithAndWithoutPadding() {
        let d = CalendarDate(year: 2022, month: 1, day: 5)
        #expect(DateFormat("YYYY.MM.DD").format(d) == "2022.01.05")
        #expect(DateFormat("YYYY년 M월 D일").format(d) == "2022년 1월 5일")
    }

    @Test func instantsBecomeUTCDays() {
        let d = Date(timeIntervalSince1970: 1_641_340_800)  // 2022-01-05T00:00:00Z
        #expect(CalendarDate(d) == CalendarDate(year: 2022, month: 1, day: 5))
        #expect(
            CalendarDate(Date(timeIntervalSince1970: -1))
                == CalendarDate(year: 1969, month: 12, day: 31, secondsOfDay: 86_399))
    }
}

@Suite struct DerivationTests {
    @Test func thousandsByLanguage() {
        #expect(NumberFormat.grouped(300_000_000, language: "ko") == "300,000,000")
        #expect(NumberFormat.grouped(50, language: "ko") == "50")
        #expect(NumberFormat.grouped(-1234, language: "en") == "-1,234")
        #expect(NumberFormat.grouped(1_234_567, language: "de") == "1.234.567")
        #expect(NumberFormat.grouped(Int64.min, language: "en") == "-9,223,372,036,854,775,808")
    }

    @Test func thousandsFromNumericStrings() {
        let r = Derivation.thousands(from: "audiCnt").apply(["audiCnt": .string("64050")], language: "ko")
        #expect(r == .success(.string("64,050")))
        let bad = Derivation.thousands(from: "audiCnt").apply(["audiCnt": .string("many")], language: "ko")
        #expect(bad == .failure(CoreError("field 'audiCnt' is not a number: \"many\"")))
    }

    /// Numbers past Int64 (a dataset's 1e19 or 1e300) are written out, never converted with a trap.
    @Test(arguments: [
        (Value.double(1e19), "10,000,000,000,000,000,000"), (.double(-1e19), "-10,000,000,000,000,000,000"),
        (.double(0x1p63), "9,223,372,036,854,776,000"), (.string("18446744073709551617"), "18,446,744,073,709,552,000"),
        (.string("10000000000000000000"), "10,000,000,000,000,000,000"),
        (.double(9_007_199_254_740_993), "9,007,199,254,740,992"),
        (.double(-2.5), "-2.5"), (.double(1234.125), "1,234.125")
    ])
    func thousandsBeyondInt64(value: Value, expected: String) {
        let r = Derivation.thousands(from: "n").apply(["n": value], language: "en")
        #expect(r == .success(.string(expected)))
    }

    @Test func thousandsOfHugeAndNonFiniteNumbers() throws {
        let r = Derivation.thousands(from: "n").apply(["n": .double(1e300)], language: "de")
        let text = try #require(r.get().stringValue)
        #expect(text.hasPrefix("1.000.000.") && text.filter { $0 == "0" }.count == 300)
        #expect(text.count == 301 + 100)
        let inf = Derivation.thousands(from: "n").apply(["n": .double(.infinity)], language: "en")
        #expect(inf == .failure(CoreError("field 'n' is not a finite number: inf")))
    }

    @Test func instantsFarOutsideTheCalendarDoNotTrap() {
        #expect(CalendarDate(Date(timeIntervalSince1970: 1e300)).year > 3_000_000)
        #expect(CalendarDate(Date(timeIntervalSince1970: -1e300)).year < -3_000_000)
    }

    @Test func dateReformat() {
        let d = Derivation.date(from: "openDt", input: DateFormat("YYYYMMDD"), output: DateFormat("YYYY.MM.DD"))
        #expect(d.apply(["openDt": .string("20220105")], language: "ko") == .success(.string("2022.01.05")))
        #expect(
            d.apply(["openDt": .string("2022")], language: "ko")
                == .failure(CoreError("field 'openDt' is not a date in the form YYYYMMDD: \"2022\"")))
    }

    @Test func templateSignAbsListSlug() {
        let fields: [String: Value] = ["name": .string("luffy"), "inten": .string("-3"), "cast": .string("A, B ,, C")]
        #expect(
            Derivation.template("images/{name}.jpg").apply(fields, language: "ko")
                == .success(.string("images/luffy.jpg")))
        #expect(Derivation.template("images/{name}.jpg").inputs == ["name"])
        let down: Value = .dictionary(["name": .string("down"), "down": .bool(true)])
        #expect(Derivation.sign(from: "inten").apply(fields, language: "ko") == .success(down))
        let same: Value = .dictionary(["name": .string("same"), "same": .bool(true)])
        #expect(Derivation.sign(from: "n").apply(["n": .string("0")], language: "ko") == .success(same))
        #expect(Derivation.absolute(from: "inten").apply(fields, language: "ko") == .success(.int(3)))
        #expect(
            Derivation.list(from: "cast", separator: ",").apply(fields, language: "ko")
                == .success(.array([.string("A"), .string("B"), .string("C")])))
        #expect(Slug.make("Luffy D. Monkey!") == "luffy-d-monkey")
        #expect(Slug.make("오징어 게임") == "오징어-게임")
        #expect(Slug.make("Café Crème") == "café-crème")
    }

    @Test func copyEqualsJoinAndKeyPaths() {
        let info: Value = .dictionary([
            "directors": .array([.dictionary(["peopleNm": .string("가")]), .dictionary(["peopleNm": .string("나")])]),
            "genres": .array([.string("액션"), .string(""), .string("드라마")]),
            "openDt": .string("20250105")
        ])
        let fields: [String: Value] = [
            "info": info, "status": .string("NEW"), "urls": .dictionary(["small": .string("a.jpg")])
        ]
        #expect(Derivation.copy(from: "urls.small").apply(fields, language: "ko") == .success(.string("a.jpg")))
        #expect(Derivation.copy(from: "urls.large").apply(fields, language: "ko") == .success(.null))
        #expect(Derivation.equals(from: "status", value: "NEW").apply(fields, language: "ko") == .success(.bool(true)))
        #expect(Derivation.equals(from: "status", value: "OLD").apply(fields, language: "ko") == .success(.bool(false)))
        #expect(
            Derivation.equals(from: "missing", value: "NEW").apply(fields, language: "ko") == .success(.bool(false)))
        #expect(
            Derivation.join(from: "info.directors", field: "peopleNm", separator: ", ").apply(fields, language: "ko")
                == .success(.string("가, 나")))
        #expect(
            Derivation.join(from: "info.genres", field: nil, separator: " · ").apply(fields, language: "ko")
                == .success(.string("액션 · 드라마")))
        #expect(
            Derivation.join(from: "status", field: nil, separator: ", ").apply(fields, language: "ko")
                == .failure(CoreError("field 'status' is not a list: \"NEW\"")))
        let opened = Derivation.date(
            from: "info.openDt", input: DateFormat("YYYYMMDD"), output: DateFormat("YYYY.MM.DD"))
        #expect(opened.apply(fields, language: "ko") == .success(.string("2025.01.05")))
        #expect(
            Derivation.template("{info.directors.1.peopleNm}!").apply(fields, language: "ko") == .success(.string("나!"))
        )
        #expect(Derivation.lookup("info.directors.5.peopleNm", in: fields) == nil)
    }

    @Test func unsafeSegments() {
        for bad in ["", ".", "..", "a/b", "a\\b", "a\u{0}b", "x?y"] { #expect(!Slug.isSafeSegment(bad)) }
        #expect(Slug.isSafeSegment("루피"))
    }
}
