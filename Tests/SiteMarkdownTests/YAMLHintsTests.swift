import SiteCore
@testable import SiteMarkdown
import Testing

/// libyaml's errors in plain words, one case per kind of mistake (the message of
/// `YAMLDocument.compose`, file "site.yml").
@Suite struct YAMLHintsTests {
    func message(_ yaml: String) -> String? {
        do { _ = try YAMLDocument.compose(yaml, file: "site.yml", what: "site configuration"); return nil } catch {
            return error.description
        }
    }

    @Test func aKeyIndentedLikeNoMapping() {
        #expect(
            message("a:\n  b: 1\n  c: 2\n d: 3\n")
                == "site.yml:4:2: error: invalid YAML in site configuration: this line is indented by 1 space, but the keys of the mapping that starts at line 1 are indented by 0 spaces and line 3 by 2 spaces: indent it like the lines it belongs with"
        )
    }

    @Test func aListItemWhereAKeyBelongs() {
        #expect(
            message("a: 1\n- b\n")
                == "site.yml:2:1: error: invalid YAML in site configuration: this line is not a 'key: value' like the other keys of the mapping that starts at line 1 (a list item goes under its key, indented more than it)"
        )
    }

    @Test func aColonInAValue() {
        #expect(
            message("title: A: B\n")
                == "site.yml:1:9: error: invalid YAML in site configuration: a ': ' where a value is already being read: put a value holding ': ' in quotes (title: \"A: B\"), or indent a key like the keys above it"
        )
    }

    @Test func aQuoteNeverClosed() {
        #expect(
            message("a: \"x\nb: 1\nc: \"y\"\n")?.contains(
                "the quote opened at line 1, column 4 is not closed on its line") == true)
        // Closed quotes, escaped ones and apostrophes inside words are not taken for it.
        #expect(
            YAMLHints.unclosedQuote(in: ["a: \"x \\\" y\"", "b: it's", "c: 'it''s'", "d: it 'is", "# - \"x"], before: 6)
                == nil)
        #expect(YAMLHints.unclosedQuote(in: ["a: [\"x\", 'y", "b: 1"], before: 3)! == (1, 10))
    }

    @Test func aTabInTheIndentation() {
        #expect(
            message("a:\n\tb: 1\n")?.hasSuffix(
                "invalid YAML in site configuration: a tab: YAML indents with spaces only") == true)
    }

    @Test func aListItemOutOfLine() {
        #expect(
            message("a:\n  - x\n  y: 1\n")
                == "site.yml:3:3: error: invalid YAML in site configuration: this line does not fit the list that starts at line 2: its items start with '- ' indented by 2 spaces"
        )
    }

    @Test func otherErrorsKeepLibYAMLsWords() {
        // A character that starts no token, but not a tab.
        #expect(message("a: @b\n")?.contains("a tab") == false)
        // An error the hints do not know is reported as libyaml words it.
        #expect(YAMLHints.explain("some other problem", line: 1, column: 1, context: nil, yaml: "a: 1\n") == nil)
        #expect(message("a: [1, 2\n")?.contains("invalid YAML in site configuration: ") == true)
    }
}
