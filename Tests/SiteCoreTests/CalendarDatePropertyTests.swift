import Foundation
import PropertyBased
import Testing
@testable import SiteCore

/// Dates against an independent oracle: Foundation's Gregorian calendar in UTC (its proleptic
/// rules from 1583 on, where the two calendars agree).
@Suite struct CalendarDatePropertyTests {
    static let utc: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()

    /// Any year from 1600 to 9999, any month, and a day from 1 to 31 (some do not exist).
    static let years = Gen.int(in: 1600...9999), months = Gen.int(in: 1...12), days = Gen.int(in: 1...31)

    /// A day exists exactly when Foundation's calendar makes that day of those numbers, and its
    /// count of days since 1970 is the calendar's.
    @Test func daysAndRealityMatchFoundation() async {
        await propertyCheck(input: Self.years, Self.months, Self.days) { y, m, d in
            let parts = DateComponents(year: y, month: m, day: d)
            let date = Self.utc.date(from: parts)
            let back = date.map { Self.utc.dateComponents([.year, .month, .day], from: $0) }
            let real = back?.year == y && back?.month == m && back?.day == d
            #expect(CalendarDate.isReal(year: y, month: m, day: d) == real, "\(y)-\(m)-\(d)")
            if real, let date {
                let days = Int((date.timeIntervalSince1970 / 86_400).rounded())
                #expect(CalendarDate.days(year: y, month: m, day: d) == days)
                #expect(CalendarDate(date) == CalendarDate(year: y, month: m, day: d))
            }
        }
    }

    /// Every month's end in years that test the leap rules (÷4, ÷100, ÷400), against Foundation.
    @Test func monthEndsMatchFoundation() {
        for y in [1600, 1700, 1900, 2000, 2023, 2024, 2100, 2400] {
            for m in 1...12 {
                for d in 28...31 {
                    let back = Self.utc.date(from: DateComponents(year: y, month: m, day: d))
                        .map { Self.utc.dateComponents([.year, .month, .day], from: $0) }
                    let real = back?.year == y && back?.month == m && back?.day == d
                    #expect(CalendarDate.isReal(year: y, month: m, day: d) == real, "\(y)-\(m)-\(d)")
                }
            }
        }
    }

    /// Adding days is Foundation's adding of days, across months, leap years and centuries.
    @Test func addingDaysMatchesFoundation() async {
        await propertyCheck(input: Self.years, Self.months, Self.days, Gen.int(in: -400_000...400_000)) { y, m, d, n in
            guard CalendarDate.isReal(year: y, month: m, day: d),
                let start = Self.utc.date(from: DateComponents(year: y, month: m, day: d)),
                let end = Self.utc.date(byAdding: .day, value: n, to: start)
            else { return }
            let parts = Self.utc.dateComponents([.year, .month, .day], from: end)
            guard let ey = parts.year, let em = parts.month, let ed = parts.day, ey >= 1600 else { return }
            let ours = CalendarDate(year: y, month: m, day: d).adding(days: n)
            #expect(ours == CalendarDate(year: ey, month: em, day: ed), "\(y)-\(m)-\(d) + \(n)")
        }
    }
}
