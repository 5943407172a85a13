import Foundation
import SiteCore
@testable import SiteMarkdown
import Testing
import Yams

/// The diagnostic `FrontMatter.parse` throws for `text`, or nil when it succeeds.
private func parseError(_ text: String) -> Diagnostic? {
    do {
        _ = try FrontMatter.parse(text, file: "notes/a.md")
        return nil
    } catch {
        return error
    }
}

@Suite struct FrontMatterTests {
    @Test func fieldsOfEveryType() throws {
        let text = """
            ---
            title: 안녕하세요, 세계
            count: 42
            big: 9007199254740993
            negative: -3000000000
            hex: 0x1F
            ratio: 3.25
            exponent: 1.5e3
            draft: true
            published: yes
            nothing: ~
            empty:
            day: 2024-01-05
            moment: 2024-01-05T10:30:00Z
            quoted: "42"
            tags: [swift, 한국어, 3]
            author:
              name: 김민수
              links:
                - site: https://example.com
            summary: |
              line one
              line two
            ---
            # Body

            """
        let document = try FrontMatter.parse(text, file: "notes/a.md")
        let fields = document.fields
        #expect(fields["title"] == .string("안녕하세요, 세계"))
        #expect(fields["count"] == .int(42))
        #expect(fields["big"] == .int(9_007_199_254_740_993))
        #expect(fields["negative"] == .int(-3_000_000_000))
        #expect(fields["hex"] == .int(31))
        #expect(fields["ratio"] == .double(3.25))
        #expect(fields["exponent"] == .double(1500))
        #expect(fields["draft"] == .bool(true))
        #expect(fields["published"] == .bool(true))
        #expect(fields["nothing"] == .null)
        #expect(fields["empty"] == .null)
        #expect(fields["day"] == .date(Date(timeIntervalSince1970: 1_704_412_800)))  // 2024-01-05T00:00:00Z
        #expect(fields["moment"] == .date(Date(timeIntervalSince1970: 1_704_412_800 + 10 * 3600 + 30 * 60)))
        #expect(fields["quoted"] == .string("42"))
        #expect(fields["tags"] == .array([.string("swift"), .string("한국어"), .int(3)]))
        #expect(
            fields["author"]
                == .dictionary([
                    "name": .string("김민수"),
                    "links": .array([.dictionary(["site": .string("https://example.com")])])
                ]))
        #expect(fields["summary"] == .string("line one\nline two\n"))
        #expect(fields.count == 17)
        #expect(document.body == "# Body\n")
        #expect(document.bodyStartLine == 25)
    }

    @Test func noFrontMatter() throws {
        for text in ["# Title\n\nText\n", "", "----\nnot a fence\n", "--- x\n---\n", " ---\na: 1\n---\n"] {
            let document = try FrontMatter.parse(text, file: "n.md")
            #expect(document.fields.isEmpty)
            #expect(document.body == text)
            #expect(document.bodyStartLine == 1)
        }
    }

    @Test func bodyStartLine() throws {
        let document = try FrontMatter.parse("---\na: 1\nb: 2\n---\n# Body\n", file: "n.md")
        #expect(document.bodyStartLine == 5)
        #expect(document.body == "# Body\n")

        let empty = try FrontMatter.parse("---\n---\ntext", file: "n.md")
        #expect(empty.fields.isEmpty)
        #expect(empty.body == "text")
        #expect(empty.bodyStartLine == 3)

        let commentsOnly = try FrontMatter.parse("---\n# nothing yet\n\n---\n", file: "n.md")
        #expect(commentsOnly.fields.isEmpty)
        #expect(commentsOnly.body == "")
        #expect(commentsOnly.bodyStartLine == 5)

        let noBody = try FrontMatter.parse("---\na: 1\n---", file: "n.md")
        #expect(noBody.fields == ["a": .int(1)])
        #expect(noBody.body == "")
        #expect(noBody.bodyStartLine == 4)
    }

    @Test func crlfBOMAndTrailingBlanksOnFences() throws {
        let text = "\u{FEFF}---  \r\ntitle: Hello\r\ntags:\r\n  - a\r\n  - b\r\n--- \t\r\nBody line\r\n"
        let document = try FrontMatter.parse(text, file: "n.md")
        #expect(document.fields == ["title": .string("Hello"), "tags": .array([.string("a"), .string("b")])])
        #expect(document.body == "Body line\r\n")
        #expect(document.bodyStartLine == 7)

        let bomOnly = try FrontMatter.parse("\u{FEFF}# Hi\n", file: "n.md")
        #expect(bomOnly.body == "# Hi\n")
    }

    /// A lone CR ends a line, as in CommonMark: a classic Mac file has front matter too.
    @Test func loneCRLineEnds() throws {
        let document = try FrontMatter.parse("---\rtitle: Draft\rdraft: true\r---\rBody\r\rMore\r", file: "n.md")
        #expect(document.fields == ["title": .string("Draft"), "draft": .bool(true)])
        #expect(document.body == "Body\n\nMore\n")
        #expect(document.bodyStartLine == 5)
        // CRLF stays CRLF, mixed with lone CRs; a CR last in the file is a line end too.
        #expect(FrontMatter.withLoneCRsAsLF("a\r\nb\rc\r") == "a\r\nb\nc\n")
        #expect(FrontMatter.withLoneCRsAsLF("é\r") == "é\n")
        let error = try #require(parseError("---\ra: 1\rb: [1, 2\r---\r"))
        #expect(error.location.line == 4)
    }

    @Test func crlfErrorsCountLinesOfTheFile() throws {
        let error = try #require(parseError("---\r\na: 1\r\nb: [1, 2\r\n---\r\n"))
        #expect(error.location.line == 4)
    }

    @Test func mergeKeysAndScalarKeysInFrontMatter() throws {
        let text =
            "---\ndefaults: &d\n  layout: post\n  draft: no\npage:\n  <<: *d\n  draft: yes\n'<<': literal\n2024: year\n---\n"
        let fields = try FrontMatter.parse(text, file: "n.md").fields
        #expect(fields["page"] == .dictionary(["layout": .string("post"), "draft": .bool(true)]))
        #expect(fields["<<"] == .string("literal"))
        #expect(fields["2024"] == .string("year"))
    }

    @Test func unterminatedFrontMatterIsAnError() throws {
        let error = try #require(parseError("---\ntitle: Draft\n\nBody without a closing fence\n"))
        #expect(error.location.file == "notes/a.md")
        #expect(error.location.line == 1)
        #expect(error.message.contains("never closed"))
    }

    @Test func invalidYAMLNamesLineAndColumnInTheFile() throws {
        // Line 4 of the file is the third line of YAML; the stray indentation is at column 5.
        let error = try #require(parseError("---\ntitle: ok\ndate: 2024-01-05\n    bad: indent\n---\nBody\n"))
        #expect(error.location.file == "notes/a.md")
        #expect(error.location.line == 4)
        #expect(error.location.column == 8)
        #expect(error.message.hasPrefix("invalid YAML in front matter: a ': ' where a value is already being read"))
        #expect(!error.message.contains("scanner("))  // not Swift's dump of the Yams error
        #expect(error.description.hasPrefix("notes/a.md:4:8: error: invalid YAML"))

        let unclosedQuote = try #require(parseError("---\na: 1\nb: \"open\n---\n"))
        #expect(unclosedQuote.location.line == 4)
        #expect(unclosedQuote.message.contains("the quote opened at line 3, column 4 is not closed on its line"))
    }

    /// The nesting limit every reader shares: 512 containers (the front matter's own mapping
    /// counts), exact whether libyaml or the conversion to values finds it.
    @Test(arguments: [(511, true), (512, false), (10_000, false)])
    func flowNestingUpToTheLimit(depth: Int, accepted: Bool) throws {
        let text =
            "---\ntitle: x\ndeep: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            + "\n---\n"
        let error = parseError(text)
        #expect((error == nil) == accepted, "\(String(describing: error))")
        if let error {
            #expect(
                error.description.hasPrefix("notes/a.md:3:")
                    && error.message == "mappings and sequences are nested more than 512 deep", "\(error)")
        }
    }

    /// `levels` lines of `k:`, each indented under the one before: `levels` mappings.
    @Test(arguments: [(512, true), (513, false), (10_000, false)])
    func blockNestingUpToTheLimit(levels: Int, accepted: Bool) throws {
        let yaml = (0..<levels).map { String(repeating: "  ", count: $0) + "k:\n" }.joined()
        let error = parseError("---\n" + yaml + "---\n")
        #expect((error == nil) == accepted, "\(String(describing: error))")
        #expect(accepted || error?.message == "mappings and sequences are nested more than 512 deep")
    }

    /// "Billion laughs": 12 anchors, each a list of ten aliases of the one before, stand for 10^12
    /// values; expanding them would never finish.
    @Test func aliasesThatExpandWithoutBoundAreAnError() throws {
        var lines = ["---", "a0: &a0 [" + Array(repeating: "lol", count: 10).joined(separator: ", ") + "]"]
        for i in 1..<12 {
            lines.append("a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]")
        }
        let error = try #require(parseError((lines + ["---", ""]).joined(separator: "\n")))
        #expect(error.message == "aliases (*name) expand this YAML to more than 100,000 values")
        #expect(error.location.file == "notes/a.md")
    }

    /// Found by fuzzing: an alias of a huge shared node used as a mapping key made Yams hash the
    /// whole expansion (32 s for 1.2 KB). The aliases are measured before Yams builds anything.
    @Test func anAliasOfAHugeNodeAsAKeyFailsFast() throws {
        var lines = ["---", "a0: &a0 [" + Array(repeating: "lol", count: 10).joined(separator: ", ") + "]"]
        for i in 1..<7 {
            lines.append("a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]")
        }
        lines.append("k: [{*a6: x}]")
        let text = (lines + ["---", ""]).joined(separator: "\n")
        let error = try #require(parseError(text))
        #expect(error.message == "aliases (*name) expand this YAML to more than 100,000 values")
        #expect(error.location.line == 6, "at the definition that crosses the limit (a4: 111,111 values): \(error)")
        // The first pass, not Yams' tree, finds it.
        let yaml = lines.dropFirst().joined(separator: "\n")
        #expect(throws: Diagnostic.self) {
            try AliasBudget.check(
                yaml, limit: Converter.maximumValues, converter: Converter(file: "a.md", lineOffset: 1))
        }
        // 9 values once *a is expanded: the mapping, a, the list and its 2 items, b, and *a's 3.
        #expect(throws: Never.self) {
            try AliasBudget.check("a: &a [1, 2]\nb: *a\n", limit: 9, converter: Converter(file: "a.md", lineOffset: 1))
        }
        #expect(throws: Diagnostic.self) {
            try AliasBudget.check("a: &a [1, 2]\nb: *a\n", limit: 8, converter: Converter(file: "a.md", lineOffset: 1))
        }
    }

    @Test func controlCharactersAreLocated() throws {
        let error = try #require(parseError("---\ntitle: ok\nbad: a\u{1}b\n---\n"))
        #expect(error.location.line == 3)
        #expect(error.location.column == 7)
        #expect(error.message == "invalid YAML in front matter: control characters are not allowed")
    }

    @Test func duplicateKeysAreAnError() throws {
        // Reported where the key is written again.
        let error = try #require(parseError("---\ntitle: a\nother: 1\n# c\n\ntitle: b\n---\n"))
        #expect(error.location.line == 6)
        #expect(error.location.column == 1)
        #expect(error.message == "key 'title' appears more than once in the front matter (first at line 2)")

        // In front matter every key is its text, so `1` and `'1'` are the same field.
        let same = try #require(parseError("---\n1: a\n'1': b\n---\n"))
        #expect(same.location.line == 3)
        #expect(same.message == "key '1' appears more than once in the front matter (first at line 2)")

        // In a nested mapping, at its own indentation; a key of the mapping around it is not it.
        let nested = try #require(parseError("---\na:\n  b: 1\n  c:\n    b: 2\n  b: 3\nb: 4\n---\n"))
        #expect((nested.location.line, nested.location.column) == (6, 3))
        // In a flow mapping, where Yams marks it (not at a key of the mapping after it).
        let flow = try #require(parseError("---\na: {b: 1, b: 2}\nc:\n    b: 3\n---\n"))
        #expect(flow.location.line == 2 && flow.message == "key 'b' appears more than once in the front matter")
    }

    @Test(arguments: [
        ("---\n- a\n- b\n---\n", "list"),
        ("---\njust a sentence\n---\n", "scalar")
    ])
    func nonMappingFrontMatterIsAnError(text: String, kind: String) throws {
        let error = try #require(parseError(text))
        #expect(error.location.line == 2)
        #expect(error.location.column == 1)
        #expect(error.message.contains("must be a mapping"))
        #expect(error.message.hasSuffix("not a \(kind)"))
    }

    @Test func nonScalarKeysAreAnError() throws {
        let error = try #require(parseError("---\ntitle: x\n? [a, b]\n: c\n---\n"))
        #expect(error.location.line == 3)
        #expect(error.location.column == 3)
        #expect(error.message.contains("mapping key"))
    }
}

@Suite struct YAMLValueTests {
    private func convert(_ yaml: String) throws -> Value {
        let node = try #require(try Yams.compose(yaml: yaml))
        return try YAMLValue.value(from: node, file: "data.yml")
    }

    @Test func scalarsResolveLikeYams() throws {
        #expect(try convert("9223372036854775807") == .int(.max))
        #expect(try convert("-9223372036854775808") == .int(.min))
        // Too large for 64 bits: Yams' constructor gives up and the text stays a string.
        #expect(try convert("9223372036854775808") == .string("9223372036854775808"))
        #expect(try convert("1_000") == .int(1000))
        #expect(try convert("0o17") == .int(15))
        #expect(try convert(".inf") == .double(.infinity))
        #expect(try convert("off") == .bool(false))
        #expect(try convert("'true'") == .string("true"))
        #expect(try convert("null") == .null)
        #expect(try convert("'null'") == .string("null"))
        #expect(try convert("!!str 12") == .string("12"))
        #expect(
            try convert("2024-01-05 10:30:00 +09:00")
                == .date(Date(timeIntervalSince1970: 1_704_412_800 + 3600 * 1 + 30 * 60)))
        #expect(try convert("2024-13-45x") == .string("2024-13-45x"))
    }

    /// Found by fuzzing: Yams traps on base-60 integers that overflow (`2022222222022222222:2`,
    /// or eleven components). Those stay text; the ones that fit are integers as before.
    @Test func sexagesimalIntegersNeverTrap() throws {
        #expect(try convert("1:20:30") == .int(4830))
        #expect(try convert("-1_0:00") == .int(-600))
        #expect(try convert("2022222222022222222:2") == .string("2022222222022222222:2"))
        #expect(try convert("1:2:3:4:5:6:7:8:9:10:11:12") == .string("1:2:3:4:5:6:7:8:9:10:11:12"))
        #expect(parseError("---\ne: 2022222222022222222:2\n---\n") == nil)
    }

    /// Yams' constructor rolls impossible days over (2026-02-30 would be 2 March): they stay text.
    @Test(arguments: [
        "2026-02-30", "2026-13-45", "2023-02-29", "2024-01-05 24:00:00", "2024-01-05T10:60:00Z", "2024-00-10"
    ])
    func impossibleTimestampsStayText(text: String) throws {
        #expect(try convert(text) == .string(text))
    }

    @Test func realEdgeDaysAreDates() throws {
        #expect(try convert("2024-02-29") == .date(Date(timeIntervalSince1970: 1_709_164_800)))
        #expect(try convert("2016-12-31 23:59:60Z") == .date(Date(timeIntervalSince1970: 1_483_228_800)))
    }

    @Test func anchorsAliasesAndMergeKeys() throws {
        let yaml = """
            base: &base
              color: red
              size: 1
            extra: &extra
              size: 2
              shape: round
            item:
              <<: [*base, *extra]
              size: 3
            copy: *base
            """
        let value = try convert(yaml)
        #expect(value["item"] == .dictionary(["color": .string("red"), "size": .int(3), "shape": .string("round")]))
        #expect(value["copy"] == .dictionary(["color": .string("red"), "size": .int(1)]))
    }

    @Test func errorsCarryOneBasedMarks() throws {
        let node = try #require(try Yams.compose(yaml: "a: 1\nb:\n  <<: 5\n"))
        do {
            _ = try YAMLValue.value(from: node, file: "data.yml")
            Issue.record("expected an error")
        } catch {
            #expect(error.location.file == "data.yml")
            #expect(error.location.line == 3)
            #expect(error.location.column == 7)
            #expect(error.message.contains("merge key"))
        }
    }

    @Test func keysThatYAMLTellsApartMayStillClash() throws {
        // For Yams `1` (an integer) and `'1'` (a string) differ; as dictionary keys they do not.
        let node = try #require(try Yams.compose(yaml: "1: a\n'1': b\n"))
        do {
            _ = try YAMLValue.value(from: node, file: "data.yml")
            Issue.record("expected an error")
        } catch {
            #expect(error.location.line == 2)
            #expect(error.location.column == 1)
            #expect(error.message == "duplicate key '1'")
        }
    }

    @Test func handBuiltAliasIsAnError() throws {
        let node = Node.alias(.init("a"))
        #expect(throws: Diagnostic.self) { try YAMLValue.value(from: node, file: "x.yml") }
    }
}
