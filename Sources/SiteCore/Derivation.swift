/// A field computed from others before rendering: Mustache is logic-less, so formatting and
/// small computations happen here, once per item.
public enum Derivation: Sendable, Hashable {
    /// A number with the language's thousands separators: 300000000 → "300,000,000".
    case thousands(from: String)
    /// A date re-written in another layout: "20220105" (YYYYMMDD) → "2022.01.05" (YYYY.MM.DD).
    case date(from: String, input: DateFormat, output: DateFormat)
    /// Text with `{field}` placeholders filled from the item: "images/{name}.jpg".
    case template(String)
    /// The absolute value of a number (or numeric string): "-3" → 3.
    case absolute(from: String)
    /// The direction of a signed number, for logic-less templates: `{name: "up", up: true}` for a
    /// positive number, `down` for a negative one, `same` for zero.
    case sign(from: String)
    /// The value itself, e.g. a nested one (`urls.small`) brought to the top level.
    case copy(from: String)
    /// True when the value's text is exactly `value`: `rankOldAndNew == "NEW"`.
    case equals(from: String, value: String)
    /// A list's elements (or their `field`) joined into text: directors → "A, B".
    case join(from: String, field: String?, separator: String)
    /// A separated list split into trimmed, non-empty strings: "A, B" → ["A", "B"].
    case list(from: String, separator: String)
    /// A URL path segment made from text: "Hello World!" → "hello-world".
    case slug(from: String)

    /// The fields this derivation reads.
    public var inputs: [String] {
        switch self {
        case .thousands(let f), .date(let f, _, _), .absolute(let f), .sign(let f), .list(let f, _), .slug(let f),
            .copy(let f), .equals(let f, _), .join(let f, _, _):
            [f]
        case .template(let t): TemplateText.fields(in: t)
        }
    }

    /// The value at `path` in `fields`: a field name, or a dotted key path into nested
    /// dictionaries and lists (`info.directors.0.peopleNm`) when no field has that exact name.
    /// `tags[0]` is read as `tags.0`, as in the key paths of `items:`.
    public static func lookup(_ path: String, in fields: [String: Value]) -> Value? {
        if let v = fields[path] { return v }
        guard path.contains(".") || path.contains("[") else { return nil }
        var current: Value = .dictionary(fields)
        let dotted =
            path.contains("[")
            ? path.replacingOccurrences(of: "]", with: "").replacingOccurrences(of: "[", with: ".") : path
        for part in dotted.split(separator: ".", omittingEmptySubsequences: false) {
            switch current {
            case .dictionary(let d):
                guard let next = d[String(part)] else { return nil }
                current = next
            case .array(let a):
                guard let i = Int(part), i >= 0, i < a.count else { return nil }
                current = a[i]
            default:
                return nil
            }
        }
        return current
    }

    /// Computes the value from an item's fields. A missing input gives `.null` (the template shows
    /// nothing); an input of the wrong kind is an error.
    public func apply(_ item: [String: Value], language: String) -> Result<Value, CoreError> {
        // Inputs may be key paths into nested values (resolved only then: no copy otherwise).
        var fields = item
        for name in inputs where item[name] == nil && name.contains(".") {
            if let v = Self.lookup(name, in: item) { fields[name] = v }
        }
        switch self {
        case .thousands(let f):
            guard let v = fields[f], v != .null else { return .success(.null) }
            switch number(v) {
            case .some(.int(let i)): return .success(.string(NumberFormat.grouped(i, language: language)))
            case .some(.double(let d)):
                guard let text = NumberFormat.grouped(real: d, language: language) else {
                    return .failure(CoreError("field '\(f)' is not a finite number: \(d)"))
                }
                return .success(.string(text))
            default: return .failure(CoreError("field '\(f)' is not a number: \(describe(v))"))
            }
        case .date(let f, let input, let output):
            guard let v = fields[f], v != .null else { return .success(.null) }
            switch v {
            case .date(let d): return .success(.string(output.format(CalendarDate(d))))
            case .string(let s) where s.isEmpty: return .success(.null)
            case .string(let s):
                guard let day = input.parse(s) else {
                    return .failure(CoreError("field '\(f)' is not a date in the form \(input): \"\(s)\""))
                }
                return .success(.string(output.format(day)))
            case .int(let i):
                guard let day = input.parse(String(i)) else {
                    return .failure(CoreError("field '\(f)' is not a date in the form \(input): \(i)"))
                }
                return .success(.string(output.format(day)))
            default: return .failure(CoreError("field '\(f)' is not a date: \(describe(v))"))
            }
        case .template(let t):
            return .success(
                .string(TemplateText.fill(t) { name in Self.lookup(name, in: item).map(TemplateText.plain) ?? "" }))
        case .absolute(let f):
            guard let v = fields[f], v != .null else { return .success(.null) }
            switch number(v) {
            case .some(.int(let i)): return .success(i == .min ? .double(-Double(i)) : .int(abs(i)))
            case .some(.double(let d)): return .success(.double(abs(d)))
            default: return .failure(CoreError("field '\(f)' is not a number: \(describe(v))"))
            }
        case .sign(let f):
            guard let v = fields[f], v != .null else { return .success(.null) }
            switch number(v) {
            case .some(.int(let i)): return .success(Self.direction(i > 0 ? "up" : (i < 0 ? "down" : "same")))
            case .some(.double(let d)): return .success(Self.direction(d > 0 ? "up" : (d < 0 ? "down" : "same")))
            default: return .failure(CoreError("field '\(f)' is not a number: \(describe(v))"))
            }
        case .copy(let f):
            return .success(fields[f] ?? .null)
        case .equals(let f, let value):
            guard let v = fields[f], v != .null else { return .success(.bool(false)) }
            return .success(.bool(TemplateText.plain(v) == value))
        case .join(let f, let field, let separator):
            guard let v = fields[f], v != .null else { return .success(.null) }
            guard case .array(let elements) = v else {
                return .failure(CoreError("field '\(f)' is not a list: \(describe(v))"))
            }
            let parts = elements.compactMap { e -> String? in
                let value = field.map { Self.lookup($0, in: e.dictionaryValue ?? [:]) ?? .null } ?? e
                let text = TemplateText.plain(value)
                return text.isEmpty ? nil : text
            }
            return .success(parts.isEmpty ? .null : .string(parts.joined(separator: separator)))
        case .list(let f, let separator):
            guard let v = fields[f], v != .null else { return .success(.array([])) }
            if case .array = v { return .success(v) }
            guard case .string(let s) = v else {
                return .failure(CoreError("field '\(f)' is not text: \(describe(v))"))
            }
            let parts = s.components(separatedBy: separator).map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
            return .success(.array(parts.map(Value.string)))
        case .slug(let f):
            guard let v = fields[f], v != .null else { return .failure(CoreError("field '\(f)' is missing")) }
            let s = Slug.make(TemplateText.plain(v))
            if s.isEmpty { return .failure(CoreError("field '\(f)' gives an empty slug: \(describe(v))")) }
            return .success(.string(s))
        }
    }

    private static func direction(_ name: String) -> Value {
        .dictionary(["name": .string(name), name: .bool(true)])
    }

    private func number(_ value: Value) -> Value? {
        switch value {
        case .int, .double: return value
        case .string(let s):
            let t = s.trimmingWhitespace()
            if let i = Int64(t) { return .int(i) }
            if let d = Double(t), d.isFinite { return .double(d) }
            return nil
        default: return nil
        }
    }

    private func describe(_ value: Value) -> String {
        if case .string(let s) = value { return "\"\(s)\"" }
        return value.typePhrase
    }
}

extension String {
    /// `self` split on every occurrence of `separator` (Foundation-free).
    func components(separatedBy separator: String) -> [String] {
        guard !separator.isEmpty else { return [self] }
        var parts: [String] = []
        var rest = Substring(self)
        while let r = rest.range(of: separator) {
            parts.append(String(rest[..<r.lowerBound]))
            rest = rest[r.upperBound...]
        }
        parts.append(String(rest))
        return parts
    }
}

extension Substring {
    func range(of needle: String) -> Range<Index>? {
        guard let first = needle.first else { return nil }
        var i = startIndex
        while let start = self[i...].firstIndex(of: first) {
            if self[start...].hasPrefix(needle) { return start..<index(start, offsetBy: needle.count) }
            i = index(after: start)
        }
        return nil
    }
}

/// `{field}` placeholders in configuration strings.
public enum TemplateText {
    /// The names between braces, in order.
    public static func fields(in template: String) -> [String] {
        var names: [String] = []
        _ = fill(template) {
            names.append($0); return ""
        }
        return names
    }

    /// `template` with each `{name}` replaced by `value(name)`; `{{` and `}}` stand for braces.
    public static func fill(_ template: String, _ value: (String) -> String) -> String {
        var out = ""
        var i = template.startIndex
        while i < template.endIndex {
            let c = template[i]
            let next = template.index(after: i)
            if c == "{", next < template.endIndex, template[next] == "{" {
                out.append("{"); i = template.index(after: next); continue
            }
            if c == "}", next < template.endIndex, template[next] == "}" {
                out.append("}"); i = template.index(after: next); continue
            }
            if c == "{", let close = template[next...].firstIndex(of: "}") {
                out += value(String(template[next..<close]))
                i = template.index(after: close)
                continue
            }
            out.append(c)
            i = next
        }
        return out
    }

    /// A scalar value as plain text (numbers without separators).
    public static func plain(_ value: Value) -> String {
        switch value {
        case .null: ""
        case .bool(let b): b ? "true" : "false"
        case .int(let i): String(i)
        case .double(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        case .string(let s): s
        case .date(let d): DateFormat.iso.format(CalendarDate(d))
        case .array(let a): a.map(plain).joined(separator: ", ")
        case .dictionary: ""
        }
    }
}

/// Number formatting by language, without Foundation's formatters (deterministic, fast).
public enum NumberFormat {
    /// The thousands separator of a language: "," for ko/en/ja/zh, "." for de/es/it/nl/pt…,
    /// a narrow no-break space for fr, a no-break space for ru/pl/cs/sv/fi/nb.
    public static func groupingSeparator(language: String) -> String {
        let base = language.split(separator: "-").first.map { String($0).lowercased() } ?? ""
        switch base {
        case "de", "es", "it", "nl", "pt", "id", "tr", "da", "el": return "."
        case "fr": return "\u{202F}"
        case "ru", "pl", "cs", "sv", "fi", "nb", "no", "uk", "sk", "hu": return "\u{00A0}"
        default: return ","
        }
    }

    public static func decimalSeparator(language: String) -> String {
        groupingSeparator(language: language) == "," ? "." : ","
    }

    public static func grouped(_ number: Int64, language: String) -> String {
        (number < 0 ? "-" : "") + grouped(digits: String(number.magnitude), language: language)
    }

    /// A run of decimal digits with the language's separator between groups of three.
    static func grouped(digits: String, language: String) -> String {
        let sep = groupingSeparator(language: language)
        let digits = Array(digits)
        var out = ""
        for (k, d) in digits.enumerated() {
            if k > 0, (digits.count - k) % 3 == 0 { out += sep }
            out.append(d)
        }
        return out
    }

    /// A finite number grouped: whole numbers without decimals, others with up to six. Whole numbers
    /// beyond Int64 (1e19, 1e300) are written out from their shortest decimal form, padded with
    /// zeros, as JavaScript's `toLocaleString` writes them. Not finite: nil.
    public static func grouped(real d: Double, language: String) -> String? {
        guard d.isFinite else { return nil }
        if d == d.rounded(), abs(d) < 9e15 { return grouped(Int64(d), language: language) }
        let sign = d < 0 ? "-" : ""
        let whole = abs(d).rounded(.down)
        guard whole < 9e15 else { return sign + grouped(digits: wholeDigits(whole), language: language) }
        var fraction = String(abs(d) - whole).dropFirst(2)  // "0.25" → "25"
        if fraction.count > 6 { fraction = fraction.prefix(6) }
        return sign + grouped(Int64(whole), language: language) + decimalSeparator(language: language) + fraction
    }

    /// The decimal digits of a finite, non-negative whole number (Swift's shortest form of it,
    /// "1.8446744073709552e+19", written out: "18446744073709552000").
    static func wholeDigits(_ whole: Double) -> String {
        let text = whole.description
        let parts = text.split(separator: "e", maxSplits: 1)
        let exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0].split(separator: ".", maxSplits: 1)
        let fraction = mantissa.count == 2 ? String(mantissa[1]) : ""  // "0" of "9007199254740990.0" too
        let digits = String(mantissa[0]) + fraction
        let zeros = exponent - fraction.count
        return zeros >= 0 ? digits + String(repeating: "0", count: zeros) : String(digits.dropLast(-zeros))
    }
}

/// URL path segments made from text.
public enum Slug {
    /// Lowercased letters and digits of any script, other runs of characters turned into one "-".
    /// "Luffy D. Monkey" → "luffy-d-monkey"; "오징어 게임" → "오징어-게임".
    public static func make(_ text: String) -> String {
        makeASCII(text) ?? makeUnicode(text)
    }

    /// `make` by Unicode's properties, for any text.
    static func makeUnicode(_ text: String) -> String {
        var out = ""
        var pendingDash = false
        for scalar in text.lowercased().unicodeScalars {
            let p = scalar.properties
            if p.isAlphabetic || p.numericType != nil || scalar == "_" {
                if pendingDash, !out.isEmpty { out += "-" }
                pendingDash = false
                out.unicodeScalars.append(scalar)
            } else if p.generalCategory == .nonspacingMark || p.generalCategory == .spacingMark, !out.isEmpty {
                out.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
        }
        return out
    }

    /// `make` for ASCII text, on its bytes (most file names; Unicode's properties cost a
    /// microsecond a name): the letters lowercased, digits and `_` kept, runs of other bytes
    /// one "-". nil for other text.
    static func makeASCII(_ text: String) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var pendingDash = false
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte
            let kept =
                (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z"))
                || (lower >= UInt8(ascii: "0") && lower <= UInt8(ascii: "9")) || lower == UInt8(ascii: "_")
            if kept {
                if pendingDash, !out.isEmpty { out.append(UInt8(ascii: "-")) }
                pendingDash = false
                out.append(lower)
            } else {
                pendingDash = true
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// What a slug may not hold, for messages (with `isSafeSegment` and no `%`).
    public static let segmentRule = "no '/', '\\', '..', '?', '#', '%' or control characters"

    /// Whether `slug` is safe as one path segment: non-empty, no `/`, `\`, NUL, `.`/`..`, no
    /// control characters.
    public static func isSafeSegment(_ slug: String) -> Bool {
        guard !slug.isEmpty, slug != ".", slug != ".." else { return false }
        for s in slug.unicodeScalars {
            if s == "/" || s == "\\" || s.value < 0x20 || s.value == 0x7F || s == "?" || s == "#" { return false }
        }
        return true
    }
}
