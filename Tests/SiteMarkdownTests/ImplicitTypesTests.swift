import Foundation
import Testing
import Yams
@testable import SiteMarkdown

/// The hand-written implicit typing must agree with Yams' `Resolver.default` regular expressions.
@Suite struct ImplicitTypesTests {
    private func expectSameAsYams(_ samples: [String]) {
        var mismatches: [String] = []
        for sample in samples {
            let ours = ImplicitTypes.tag(of: sample)
            let yams = Resolver.default.resolveTag(of: Node(sample))
            if ours != yams {
                mismatches.append("\(String(reflecting: sample)): ours \(ours.rawValue), Yams \(yams.rawValue)")
            }
        }
        #expect(
            mismatches.isEmpty,
            "\(mismatches.count) of \(samples.count) differ: \(mismatches.prefix(20).joined(separator: "; "))")
    }

    @Test func edgeCases() {
        expectSameAsYams([
            "", "~", "null", "Null", "NULL", "nULL", "yes", "Yes", "YES", "yEs", "y", "n", "on", "ON", "oN", "off",
            "true", "True", "TRUE", "tRUE", "false", "<<", "=", "==",
            "0", "00", "07", "08", "0_", "0o", "0o7", "0o8", "0b", "0b101", "0b2", "0x", "0x1F", "0xg", "-0x1f",
            "+12", "-0", "1_000", "_1", "1:30", "1:30:59", "1:60", "1:5", "1:05:", "190:20:30", "0:30", "1:300",
            "1.", ".5", "._", ".", "-.5", "+.", "1e5", "1E+5", "1e", ".5e5", ".5e+5", "1.5e-3", "1_0.0_1",
            ".inf", "+.inf", "-.Inf", ".INF", "-.inf", ".nan", ".NaN", "-.nan", "+.nan", ".Nan",
            "1:30.5", "1:30:05.", "1:30.", "-1:20.5", "0:1.5", "1:7a.5",
            "2024-01-05", "2024-1-5", "2024-01-5", "2024-01-05T10:30:00", "2024-01-05t10:30:00Z", "2024-1-5 1:30:00",
            "2024-01-05  \t10:30:00.123 +09:00", "2024-01-05 10:30:00 ", "2024-01-05 10:30:00Z ",
            "2024-01-05 10:30:00 Z",
            "2024-01-05 10:30:00-5", "2024-01-05 10:30:00+05:3", "2024-01-05 10:30:00+05:30", "2024-01-05T10:30",
            "2024-01-05T10:30:00.", "20240-01-05", "2024-001-05", "2024-01-05x", "2024-01-05 ", " 2024-01-05",
            "12abc", "abc", "한글", "1 2", "0x_", "-", "+", "_", ":", "1:_", "1__:2"
        ])
    }

    @Test func shortStringsOverATrickyAlphabet() {
        let alphabet = [
            "0", "1", "5", "6", "8", "_", ".", ":", "-", "+", "e", "E", "x", "b", "o", "a", "n", "i", "Z", "T", " "
        ]
        var samples = alphabet
        var previous = alphabet
        for _ in 2...3 {
            previous = previous.flatMap { prefix in alphabet.map { prefix + $0 } }
            samples += previous
        }
        expectSameAsYams(samples)
    }

    @Test func randomNumberAndDateShapes() {
        // A fixed linear congruential generator keeps the samples the same on every run.
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let pieces = [
            "0", "1", "2", "5", "6", "9", "12", "59", "60", "2024", "_", ".", ":", "-", "+", "e", "E",
            "T", "t", " ", "\t", "Z", "x", "o", "b", "inf", "nan", "f"
        ]
        var samples: [String] = []
        for _ in 0..<6000 {
            samples.append((0..<(1 + next(8))).map { _ in pieces[next(pieces.count)] }.joined())
        }
        let dates = [
            "2024", "-", "01", "1", "-", "05", "5", "T", " ", "10", ":", "30", ":", "00", ".", "123",
            "Z", "+", "-", "09", "9", ":", "00", " "
        ]
        for _ in 0..<4000 {
            // Start from a valid timestamp's pieces and drop or repeat a few.
            var parts = dates
            for _ in 0..<(1 + next(3)) {
                let index = next(parts.count)
                if next(2) == 0 { parts.remove(at: index) } else { parts.insert(parts[index], at: index) }
            }
            samples.append(parts.joined())
        }
        expectSameAsYams(samples)
    }
}

/// `Converter.plainDay` (front matter's `date: YYYY-MM-DD` without Yams) against Yams' own
/// `Date.construct`, on every day of a few centuries' sample and at the calendar's edges.
@Suite struct PlainDayTests {
    @Test func everyDayAsYamsReadsIt() throws {
        var mismatches: [String] = []
        var texts: [String] = []
        for year in stride(from: 1600, through: 2400, by: 7) + [1900, 2000, 2024, 2100, 9999] {
            for month in 1...12 {
                for day in [1, 15, 28, 29, 30, 31] {
                    texts.append(String(format: "%04d-%02d-%02d", year, month, day))
                }
            }
        }
        for text in texts {
            let yams = Converter.namesRealDay(text) ? Date.construct(from: Node.Scalar(text)) : nil
            if Converter.plainDay(text) != yams { mismatches.append(text) }
        }
        #expect(texts.count > 7000)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test(arguments: [
        "1599-12-31", "1582-10-10", "2026-02-30", "2026-13-01", "2026-00-10", "2026-1-05", "2026-01-5",
        "2026/01/05", "2026-01/05", "2026-0:-05", "2026-01-0:", "2026-01-05T10:30:00", "2026-01-05 ",
        "+026-01-05", "２０２６-01-05"
    ])
    func othersAreLeftToYams(text: String) {
        #expect(Converter.plainDay(text) == nil)
    }
}
