import Foundation
import Testing

@testable import SiteMarkdown

/// The work cmark-gfm may do on a note (`MarkdownBudget`): link ends × openers per paragraph,
/// table cells and columns, counted on the text before parsing, with the line that refuses.
@Suite struct MarkdownBudgetTests {
    func check(_ text: String, smart: Bool = false) -> MarkdownError? { MarkdownBudget.check(text, smart: smart) }

    /// Each `]` costs the openers (`[`, runs of `*` `_` `~`) before it in its paragraph.
    @Test func linkWorkIsLinkEndsTimesOpeners() {
        // The k-th "[a](b) *c* " has 3(k-1) + 1 openers before its `]`: 3n(n+1)/2 - 2n in all.
        let under = 2_582  // 9,998,795; 2,583: 10,006,542
        #expect(check(String(repeating: "[a](b) *c* ", count: under)) == nil)
        let over = check(String(repeating: "[a](b) *c* ", count: under + 1))
        #expect(over?.line == 1)
        #expect(over?.message.contains("10,000,000") == true)
        #expect(over?.message.contains("split the paragraph with blank lines") == true)
    }

    /// A run of markers is one delimiter; quotes count only with smart punctuation.
    @Test func runsAndQuotes() {
        let runs = String(repeating: "***", count: 4_000) + String(repeating: "]", count: 2_600)
        #expect(check(runs) == nil)  // 1 opener × 2,600
        let quotes = String(repeating: "'x", count: 4_000) + String(repeating: "]", count: 2_600)
        #expect(check(quotes) == nil)
        #expect(check(quotes, smart: true)?.line == 1)  // 4,000 × 2,600
    }

    /// Blank lines, list items and headings start a paragraph's count again; the error names the
    /// paragraph's first line, and the work of all paragraphs adds up.
    @Test func paragraphsAndTheirLines() {
        let paragraph = String(repeating: "[a](b) *c*\n", count: 1_000)  // 1,499,500 each
        #expect(check(Array(repeating: paragraph, count: 6).joined(separator: "\n")) == nil)
        let many = Array(repeating: paragraph, count: 7).joined(separator: "\n")  // 10,496,500
        #expect(check(many)?.line == 6_007)  // the 7th paragraph's first line
        let items = String(repeating: "- [a](b) *c*\n  - [a](b) _c_\n", count: 30_000)
        #expect(check(items) == nil)
        let headings = String(repeating: "## [a](b) *c*\n", count: 30_000)
        #expect(check(headings) == nil)
    }

    /// Lines that do not end a paragraph for cmark-gfm do not end its count: `2.` (it cannot
    /// interrupt one), items indented 4 or more past the paragraph (lazy continuation text),
    /// empty items, tab-indented lines, and CR-only line endings.
    @Test func continuationLinesKeepCounting() {
        for line in ["2. [a](b) *c*", "    - [a](b) *c*", "-\t[a](b) *c*", "\t- [a](b) *c*", "[a](b) *c*\r"] {
            let text = "x\n" + String(repeating: line + "\n", count: 3_000)
            #expect(check(text)?.line == 1, "\(line.debugDescription)")
        }
        #expect(check(String(repeating: "[a](b) *c*\r", count: 3_000))?.line == 1)
        #expect(check(String(repeating: "[a](b) *c*\r\r", count: 3_000)) == nil)  // CR alone ends a line
    }

    /// Lines starting items and headings, with their indentation (block quote markers count).
    @Test func blockStarts() {
        func start(_ line: String) -> Int? {
            var line = line
            return line.withUTF8 { MarkdownBudget.blockStart($0) }
        }
        #expect(start("- x") == 0)
        #expect(start("  * x") == 2)
        #expect(start("> > + x") == 4)
        #expect(start("1. x") == 0)
        #expect(start("1) x") == 0)
        #expect(start("### x") == 0)
        #expect(start("#") == 0)
        #expect(start("2. x") == nil)
        #expect(start("- ") == nil)
        #expect(start("-x") == nil)
        #expect(start("####### x") == nil)
        #expect(start("#x") == nil)
        #expect(start("\t- x") == nil)
        #expect(start("text") == nil)
    }

    /// Cells are columns × rows, every line after the delimiter row until a blank line a row.
    @Test func tableCells() {
        func table(_ columns: Int, rows: Int) -> String {
            "|" + String(repeating: "a|", count: columns) + "\n|" + String(repeating: "-|", count: columns) + "\n"
                + String(repeating: "x\n", count: rows)
        }
        #expect(check(table(500, rows: 198)) == nil)  // 500 × 200 = 100,000
        let over = check("intro\n\n" + table(500, rows: 199))
        #expect(over?.line == 3 + 1 + 199)  // the row past the budget
        #expect(over?.message.contains("100,000 cells") == true)
        #expect(check(table(10, rows: 10) + "\n" + table(10, rows: 10)) == nil)
        #expect(check(String(repeating: table(100, rows: 98) + "\n", count: 11))?.line != nil)  // 11 × 10,000
    }

    @Test func tableColumns() {
        let wide = "|" + String(repeating: "a|", count: 501) + "\n|" + String(repeating: " :-: |", count: 501) + "\n"
        let refused = check("# Wide\n\n" + wide)
        #expect(refused?.line == 4)
        #expect(refused?.message.contains("501 columns") == true)
        #expect(check("|" + String(repeating: "a|", count: 500) + "\n|" + String(repeating: "-|", count: 500)) == nil)
    }

    /// Delimiter rows as the table extension reads them, inside block quotes too.
    @Test func delimiterRows() {
        func columns(_ line: String) -> Int? {
            var line = line
            return line.withUTF8 { MarkdownBudget.delimiterRowColumns($0) }
        }
        #expect(columns("|---|:--:|--:|") == 3)
        #expect(columns("--- | ---") == 2)
        #expect(columns("> | - | - |") == 2)
        #expect(columns("---") == 1)
        #expect(columns("| a | - |") == nil)
        #expect(columns("|  |") == nil)
        #expect(columns("") == nil)
    }

    /// The renderer refuses before parsing; the real notes' shapes pass.
    @Test func rendererRefusesWithTheLine() throws {
        let renderer = MarkdownRenderer()
        let note = "# Title\n\n" + String(repeating: "[a](b) *c* ", count: 3_000) + "\n"
        #expect(throws: MarkdownError.self) { try renderer.render(note, .init()) }
        do {
            _ = try renderer.render(note, .init())
        } catch {
            #expect(error.line == 3)
        }
        #expect(try renderer.render("| a | b |\n|---|---|\n| 1 | 2 |\n\n[x](y) *z*", .init()).html.contains("<table>"))
    }
}
