internal import SiteCore
internal import Yams

/// The plain YAML that notes' front matter almost always is — `name: value` lines at the left
/// margin whose values are plain or simply quoted scalars, `[a, b]` lists, `- item` lists or one
/// level of `name: value` lines — read without libyaml.
///
/// Composing with Yams (and the alias pre-pass before it) cost more than the rest of reading a note.
/// Anything outside the subset, and anything in it that YAML would reject or read another way
/// (duplicate keys, control characters, comments after a value, `key: a: b`), gives nil, and Yams
/// reads the front matter as before: the two never disagree on a text both read (a differential
/// test compares them on every note the tests know and thousands of generated ones).
struct PlainFrontMatter {
    /// The implicit tag of this document's scalars.
    private let tag = Tag(.implicit)

    /// The front matter's fields, or nil when `yaml` is not in the plain subset.
    static func fields(_ yaml: Substring) -> [String: Value]? {
        PlainFrontMatter().fields(yaml)
    }

    private func fields(_ yaml: Substring) -> [String: Value]? {
        guard let lines = Lines(yaml) else { return nil }
        var fields: [String: Value] = [:]
        var i = 0
        while i < lines.count {
            if lines.isBlank(i) { i += 1; continue }
            guard lines.indent(i) == 0, let (key, rest) = Self.entry(lines[i]), fields[key] == nil else { return nil }
            i += 1
            if !rest.isEmpty {
                guard let value = inlineValue(rest) else { return nil }
                fields[key] = value
                continue
            }
            let next = lines.nextContent(from: i)
            if next < lines.count, lines[next].utf8.first == Self.dash || lines.indent(next) > 0 {
                let isList = lines[next].utf8.dropFirst(lines.indent(next)).first == Self.dash
                guard let (value, end) = isList ? list(lines, at: next) : map(lines, at: next) else { return nil }
                fields[key] = value
                i = end
            } else {
                fields[key] = .null
            }
        }
        return fields
    }

    /// `name:` and what follows it on the line (trimmed), for a name of ASCII letters, digits,
    /// `_` and `-` (not first).
    private static func entry(_ line: Substring) -> (String, Substring)? {
        let utf8 = line.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let name = utf8[..<colon]
        guard let first = name.first, isNameByte(first), first != dash, name.allSatisfy(isNameByte) else { return nil }
        let after = utf8[utf8.index(after: colon)...]
        guard after.isEmpty || after.first == space else { return nil }
        return (String(Substring(name)), Self.trimmed(Self.droppingSpaces(Substring(after))))
    }

    private static let space = UInt8(ascii: " "), dash = UInt8(ascii: "-")

    /// The text without its leading spaces (YAML's indentation and separation are bytes, not
    /// Characters: a space before a combining mark is still a space).
    private static func droppingSpaces(_ text: Substring) -> Substring {
        Substring(text.utf8.drop { $0 == space })
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x5F || byte == 0x2D
    }

    /// A `- item` list at the indentation of line `start`: its value and the line after it.
    private func list(_ lines: Lines, at start: Int) -> (Value, Int)? {
        let indent = lines.indent(start)
        var items: [Value] = []
        var i = start
        while i < lines.count {
            if lines.isBlank(i) { i += 1; continue }
            let line = lines[i].utf8
            if lines.indent(i) < indent || (indent == 0 && line.first != Self.dash) { break }
            let item = line.dropFirst(indent)
            guard item.first == Self.dash else { return nil }
            let rest = item.dropFirst()
            if rest.isEmpty {
                items.append(.null)
            } else {
                guard rest.first == Self.space,
                    let value = scalar(Self.trimmed(Self.droppingSpaces(Substring(rest))), inFlow: false)
                else {
                    return nil
                }
                items.append(value)
            }
            i += 1
        }
        return (.array(items), i)
    }

    /// `name: value` lines at the indentation of line `start`, one level deep.
    private func map(_ lines: Lines, at start: Int) -> (Value, Int)? {
        let indent = lines.indent(start)
        var fields: [String: Value] = [:]
        var i = start
        while i < lines.count {
            if lines.isBlank(i) { i += 1; continue }
            if lines.indent(i) == 0 { break }
            guard lines.indent(i) == indent, let (key, rest) = Self.entry(Substring(lines[i].utf8.dropFirst(indent))),
                fields[key] == nil
            else { return nil }
            if rest.isEmpty {
                fields[key] = .null
            } else {
                guard let value = inlineValue(rest) else { return nil }
                fields[key] = value
            }
            i += 1
        }
        return (.dictionary(fields), i)
    }

    /// A scalar or a `[a, b]` list of plain scalars.
    private func inlineValue(_ text: Substring) -> Value? {
        let utf8 = text.utf8
        guard utf8.first == UInt8(ascii: "[") else { return scalar(text, inFlow: false) }
        guard utf8.last == UInt8(ascii: "]") else { return nil }
        let inner = utf8.dropFirst().dropLast()
        if Self.trimmed(Substring(inner)).isEmpty { return .array([]) }
        var items: [Value] = []
        for part in inner.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let item = Self.trimmed(Self.droppingSpaces(Substring(part)))
            guard let value = scalar(item, inFlow: true) else { return nil }
            items.append(value)
        }
        return .array(items)
    }

    /// A plain scalar typed as Yams types it, or a quoted one without escapes.
    /// Bytes (YAML's syntax is ASCII; a Character would join a combining mark to the quote).
    private func scalar(_ text: Substring, inFlow: Bool) -> Value? {
        let utf8 = text.utf8
        guard let first = utf8.first else { return nil }
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            guard !inFlow, utf8.count >= 2, utf8.last == first else { return nil }
            return Self.quoted(Substring(utf8.dropFirst().dropLast()), double: first == UInt8(ascii: "\""))
                .map(Value.string)
        }
        if Self.indicators.contains(first) { return nil }
        if first == Self.dash || first == UInt8(ascii: "?") || first == UInt8(ascii: ":") {
            guard utf8.count > 1, utf8.dropFirst().first != Self.space else { return nil }
        }
        if Self.has(text, ":", " ") || utf8.last == UInt8(ascii: ":") || Self.has(text, " ", "#") { return nil }
        if inFlow, utf8.contains(where: { Self.flowIndicators.contains($0) }) { return nil }
        return Converter.plainScalarValue(String(text), tag: tag)
    }

    /// What a plain scalar may not start with, and what it may not hold in a `[a, b]` list.
    private static let indicators = Array("[]{},#&*!|>'\"%@`".utf8), flowIndicators = Array("[]{},#:".utf8)

    /// The text between quotes: single-quoted without a quote inside, or double-quoted whose
    /// only escapes are `\"` and `\\` (JSON strings of titles, as generators write them).
    private static func quoted(_ inner: Substring, double: Bool) -> String? {
        let quote = double ? UInt8(ascii: "\"") : UInt8(ascii: "'"), backslash = UInt8(ascii: "\\")
        guard double, inner.utf8.contains(backslash) else {
            return inner.utf8.contains(quote) ? nil : String(inner)
        }
        var text: [UInt8] = []
        var escaped = false
        for byte in inner.utf8 {
            if escaped {
                guard byte == quote || byte == backslash else { return nil }
                text.append(byte)
                escaped = false
            } else if byte == backslash {
                escaped = true
            } else {
                guard byte != quote else { return nil }
                text.append(byte)
            }
        }
        return escaped ? nil : String(decoding: text, as: UTF8.self)
    }

    /// Whether `text` holds `first` followed by `second` (Foundation's `contains` costs a microsecond).
    private static func has(_ text: Substring, _ first: Unicode.Scalar, _ second: Unicode.Scalar) -> Bool {
        let utf8 = text.utf8
        var previous: UInt8 = 0
        for byte in utf8 {
            if previous == UInt8(first.value), byte == UInt8(second.value) { return true }
            previous = byte
        }
        return false
    }

    private static func trimmed(_ text: Substring) -> Substring {
        var utf8 = text.utf8
        while utf8.last == space { utf8 = utf8.dropLast() }
        return Substring(utf8)
    }

    /// The lines of the front matter, accepted only if every character is one YAML reads as
    /// itself (no tabs, no control characters, no line breaks other than LF and CRLF).
    private struct Lines {
        private var lines: [Substring]
        private var indents: [Int]

        init?(_ yaml: Substring) {
            guard Self.readsAsWritten(yaml) else { return nil }
            // Split on the bytes, not on Characters (which costs a grapheme break at every one):
            // LF ends a line, and CR before it goes with it ("\r\n" is one Character, after
            // which Unicode always breaks), so the lines are what splitting the Characters gave.
            let utf8 = yaml.utf8
            var lines: [Substring] = []
            var start = utf8.startIndex
            var i = start
            while i < utf8.endIndex {
                if utf8[i] == 0x0A {
                    var end = i
                    if end > start, utf8[utf8.index(before: end)] == 0x0D { end = utf8.index(before: end) }
                    lines.append(yaml[start..<end])
                    start = utf8.index(after: i)
                }
                i = utf8.index(after: i)
            }
            lines.append(yaml[start...])
            if lines.contains(where: { $0.utf8.contains(0x0D) }) { return nil }
            self.lines = lines
            indents = lines.map { line in line.utf8.prefix { $0 == 0x20 }.count }
        }

        /// No character YAML reads as something else: control characters but LF and CR, C1
        /// controls, line and paragraph separators, byte order marks, non-characters.
        private static func readsAsWritten(_ yaml: Substring) -> Bool {
            for byte in yaml.utf8 {
                if byte < 0x20 && byte != 0x0A && byte != 0x0D || byte == 0x7F { return false }
                if byte >= 0x80 { return scalarsReadAsWritten(yaml) }  // most front matter is ASCII
            }
            return true
        }

        private static func scalarsReadAsWritten(_ yaml: Substring) -> Bool {
            for scalar in yaml.unicodeScalars {
                let v = scalar.value
                if v < 0x20 && v != 0x0A && v != 0x0D { return false }
                if (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 || v == 0xFEFF || v >= 0xFFFE && v <= 0xFFFF
                {
                    return false
                }
            }
            return true
        }

        var count: Int { lines.count }
        subscript(line: Int) -> Substring { lines[line] }
        func indent(_ line: Int) -> Int { indents[line] }

        /// Empty, blank or a comment line.
        func isBlank(_ line: Int) -> Bool {
            let rest = lines[line].utf8.dropFirst(indents[line])
            return rest.isEmpty || rest.first == UInt8(ascii: "#")
        }

        func nextContent(from start: Int) -> Int {
            var i = start
            while i < count, isBlank(i) { i += 1 }
            return i
        }
    }
}
