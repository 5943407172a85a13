/// libyaml's errors said in plain words about the line they point at ("did not find expected key
/// (while parsing a block mapping at line 8, column 3)" is an indentation, or a quote never
/// closed): what is wrong there and how to write it. nil for errors it does not know.
enum YAMLHints {
    /// `line`/`column` (1-based, in the YAML text) is where libyaml stopped; `context` the
    /// construct it was reading (`while parsing a block mapping`) and where that started; the
    /// lines named in the text are the file's (`lineOffset` added).
    static func explain(
        _ problem: String, line: Int, column: Int, context: (text: String, line: Int, column: Int)?,
        yaml: String, lineOffset: Int = 0
    ) -> String? {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        guard line >= 1, line <= lines.count else { return nil }
        let text = lines[line - 1]
        if let open = unclosedQuote(in: lines, before: line) {
            return
                "the quote opened at line \(open.line + lineOffset), column \(open.column) is not closed on its line, "
                + "so the text runs on to the next quote: close it"
        }
        switch problem {
        case "did not find expected key" where context?.text == "while parsing a block mapping":
            return misplacedKey(
                text, column: column, mapping: context!, lines: lines, line: line,
                lineOffset: lineOffset)
        case "did not find expected '-' indicator" where context != nil:
            return "this line does not fit the list that starts at line \(context!.line + lineOffset): "
                + "its items start with '- ' indented by \(spaces(context!.column - 1))"
        case "mapping values are not allowed in this context":
            return "a ': ' where a value is already being read: put a value holding ': ' in quotes "
                + "(title: \"A: B\"), or indent a key like the keys above it"
        case "found character that cannot start any token" where text.dropFirst(max(0, column - 1)).first == "\t":
            return "a tab: YAML indents with spaces only"
        case "could not find expected ':'":
            return "a key without ':' after it (write key: value)"
        default:
            return nil
        }
    }

    /// "did not find expected key" at a line's start: its indentation matches no key around it,
    /// or it lines up with the keys but is not a `key: value` (a list item under a mapping).
    static func misplacedKey(
        _ text: Substring, column: Int, mapping: (text: String, line: Int, column: Int),
        lines: [Substring], line: Int, lineOffset: Int
    ) -> String? {
        let indent = text.prefix { $0 == " " }.count
        guard column - 1 == indent else { return nil }
        let keys = mapping.column - 1
        if indent == keys {
            let item =
                text.dropFirst(indent).hasPrefix("-") ? " (a list item goes under its key, indented more than it)" : ""
            return "this line is not a 'key: value' like the other keys of the mapping that starts at line "
                + "\(mapping.line + lineOffset)\(item)"
        }
        var above = ""
        if let p = (0..<(line - 1)).reversed().first(where: { isContent(lines[$0]) }) {
            let pi = lines[p].prefix { $0 == " " }.count
            if pi != keys { above = " and line \(p + 1 + lineOffset) by \(spaces(pi))" }
        }
        return "this line is indented by \(spaces(indent)), but the keys of the mapping that starts at line "
            + "\(mapping.line + lineOffset) are indented by \(spaces(keys))\(above): indent it like the lines it "
            + "belongs with"
    }

    static func spaces(_ count: Int) -> String { count == 1 ? "1 space" : "\(count) spaces" }

    static func isContent(_ line: Substring) -> Bool {
        let t = line.drop { $0 == " " }
        return !t.isEmpty && !t.hasPrefix("#")
    }

    /// The first line before `before` where a value starts with a quote that the line does not
    /// close (1-based line and column of the quote).
    static func unclosedQuote(in lines: [Substring], before: Int) -> (line: Int, column: Int)? {
        for (i, line) in lines.prefix(before - 1).enumerated() {
            let chars = Array(line)
            var k = 0
            while k < chars.count {
                let c = chars[k]
                if c == "#", k == 0 || chars[k - 1] == " " { break }
                let startsValue = k == 0 || chars[k - 1] == " " || "[{,".contains(chars[k - 1])
                guard (c == "\"" || c == "'"), startsValue, valueMayStart(chars, at: k) else { k += 1; continue }
                guard let end = closing(chars, from: k) else { return (i + 1, k + 1) }
                k = end + 1
            }
        }
        return nil
    }

    /// Whether a quote at `k` starts a scalar: after indentation, `: `, `- `, `[`, `{` or `,`.
    static func valueMayStart(_ chars: [Character], at k: Int) -> Bool {
        var j = k - 1
        while j >= 0, chars[j] == " " { j -= 1 }
        return j < 0 || ":-[{,".contains(chars[j])
    }

    /// The index of the quote closing the one at `start` on the same line.
    static func closing(_ chars: [Character], from start: Int) -> Int? {
        let q = chars[start]
        var k = start + 1
        while k < chars.count {
            if q == "\"", chars[k] == "\\" { k += 2; continue }
            if chars[k] == q {
                if q == "'", k + 1 < chars.count, chars[k + 1] == "'" { k += 2; continue }
                return k
            }
            k += 1
        }
        return nil
    }
}
