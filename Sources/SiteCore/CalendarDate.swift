import Foundation

/// A calendar day with an optional time of day, as written in datasets ("20220105", "01/05/2022").
/// Kept apart from `Date` so that a day never shifts with a time zone.
public struct CalendarDate: Sendable, Hashable, Comparable, Codable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var secondsOfDay: Int

    public init(year: Int, month: Int, day: Int, secondsOfDay: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.secondsOfDay = secondsOfDay
    }

    /// The UTC calendar day of an instant (plist `<date>` values are instants).
    public init(_ date: Date) {
        // The readers refuse dates outside the years 0 to 9999; past ±10^14 s (3 million years) the
        // conversion to Int64 would trap, so a date that slips through is clamped, not a crash.
        let limit = 1e14
        let seconds = Int64(min(max(date.timeIntervalSince1970.rounded(.down), -limit), limit))
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let (y, m, d) = CalendarDate.civil(fromDays: days)
        self.init(year: y, month: m, day: d, secondsOfDay: Int(seconds - Int64(days) * 86_400))
    }

    /// A number that orders dates: days since 1970-01-01 times 86,400 plus the time of day.
    public var ordinal: Int64 {
        Int64(CalendarDate.days(year: year, month: month, day: day)) * 86_400 + Int64(secondsOfDay)
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool { lhs.ordinal < rhs.ordinal }

    /// The day `days` days later (earlier when negative), without a time of day.
    public func adding(days: Int) -> CalendarDate {
        let (y, m, d) = CalendarDate.civil(fromDays: CalendarDate.days(year: year, month: month, day: day) + days)
        return CalendarDate(year: y, month: m, day: d)
    }

    /// Whether the numbers name a day that exists (no 30 February) and a time of day within 24 hours
    /// (a leap second allowed).
    public static func isReal(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Bool
    {
        (1...12).contains(month) && day >= 1 && day <= daysIn(month: month, year: year)
            && (0..<24).contains(hour) && (0..<60).contains(minute) && (0..<61).contains(second)
    }

    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days-from-civil algorithm: exact for the proleptic Gregorian calendar.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

/// A declared date layout such as `MM/DD/YYYY`, `YYYY-MM-DD` or `YYYYMMDD`.
///
/// Tokens: `YYYY` year, `MM` month, `DD` day, `HH` hour, `mm` minute, `ss` second (two digits
/// each except the year); `M` and `D` (output only) print without a leading zero. Anything else
/// is a literal. A value with a range (`20220105~20220107`) is read up to the first `~`.
public struct DateFormat: Sendable, Hashable, CustomStringConvertible {
    enum Token: Sendable, Hashable {
        case year, month, day, hour, minute, second, monthShort, dayShort
        case literal(Character)
    }

    let tokens: [Token]
    public let description: String

    public init(_ pattern: String) {
        var tokens: [Token] = []
        var rest = Substring(pattern)
        let table: [(String, Token)] = [
            ("YYYY", .year), ("MM", .month), ("DD", .day), ("HH", .hour), ("mm", .minute), ("ss", .second),
            ("M", .monthShort), ("D", .dayShort)
        ]
        outer: while let first = rest.first {
            for (text, token) in table where rest.hasPrefix(text) {
                tokens.append(token)
                rest = rest.dropFirst(text.count)
                continue outer
            }
            tokens.append(.literal(first))
            rest = rest.dropFirst()
        }
        self.tokens = tokens
        self.description = pattern
    }

    /// Whether the pattern can read dates (it names a year, a month and a day in two-digit form).
    public var canParse: Bool {
        tokens.contains(.year) && tokens.contains(.month) && tokens.contains(.day)
    }

    /// Reads `text` in this layout, or nil when it does not match or names no real day.
    public func parse(_ text: String) -> CalendarDate? {
        var bytes = Array(text.utf8)
        if let tilde = bytes.firstIndex(of: UInt8(ascii: "~")) { bytes = Array(bytes[..<tilde]) }
        var i = 0
        var y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0
        func digits(_ count: Int) -> Int? {
            guard i + count <= bytes.count else { return nil }
            var v = 0
            for k in 0..<count {
                let b = bytes[i + k]
                guard b >= 48, b <= 57 else { return nil }
                v = v * 10 + Int(b - 48)
            }
            i += count
            return v
        }
        for token in tokens {
            switch token {
            case .year: guard let v = digits(4) else { return nil }; y = v
            case .month, .monthShort: guard let v = digits(2) else { return nil }; mo = v
            case .day, .dayShort: guard let v = digits(2) else { return nil }; d = v
            case .hour: guard let v = digits(2), v < 24 else { return nil }; h = v
            case .minute: guard let v = digits(2), v < 60 else { return nil }; mi = v
            case .second: guard let v = digits(2), v < 61 else { return nil }; s = v
            case .literal(let c):
                let utf8 = Array(String(c).utf8)
                guard i + utf8.count <= bytes.count, Array(bytes[i..<(i + utf8.count)]) == utf8 else { return nil }
                i += utf8.count
            }
        }
        guard i == bytes.count, (1...12).contains(mo), d >= 1, d <= CalendarDate.daysIn(month: mo, year: y) else {
            return nil
        }
        return CalendarDate(year: y, month: mo, day: d, secondsOfDay: h * 3600 + mi * 60 + s)
    }

    /// Writes `date` in this layout.
    public func format(_ date: CalendarDate) -> String {
        func pad(_ value: Int, _ width: Int) -> String {
            let s = String(value)
            return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
        }
        var out = ""
        for token in tokens {
            switch token {
            case .year: out += pad(date.year, 4)
            case .month: out += pad(date.month, 2)
            case .day: out += pad(date.day, 2)
            case .monthShort: out += String(date.month)
            case .dayShort: out += String(date.day)
            case .hour: out += pad(date.secondsOfDay / 3600, 2)
            case .minute: out += pad(date.secondsOfDay / 60 % 60, 2)
            case .second: out += pad(date.secondsOfDay % 60, 2)
            case .literal(let c): out.append(c)
            }
        }
        return out
    }

    /// ISO 8601 day, as used in sitemaps and feeds.
    public static let iso = DateFormat("YYYY-MM-DD")
}

/// An error of the pure core, without a file: the caller adds where it happened.
public struct CoreError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
