import Foundation
import Testing
@testable import SiteMarkdown

/// One example of the CommonMark spec text.
struct SpecExample {
    var number: Int
    var line: Int
    var section: String
    var markdown: String
    var html: String
}

/// Reads the examples from the spec text: input and output between a line of 32 backticks +
/// ` example` and a line of 32 backticks, separated by a `.` line; `→` stands for a tab.
func specExamples(_ text: String) -> [SpecExample] {
    let fence = String(repeating: "`", count: 32)
    var examples: [SpecExample] = []
    var section = ""
    var markdown: [Substring] = []
    var html: [Substring] = []
    var state = 0  // 0 prose, 1 markdown, 2 html
    var startLine = 0
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    for (index, line) in lines.enumerated() {
        switch state {
        case 0:
            if line == fence + " example" {
                state = 1
                startLine = index + 1
                markdown = []
                html = []
            } else if line.hasPrefix("#") {
                section = String(line.drop { $0 == "#" }.drop { $0 == " " })
            }
        case 1:
            if line == "." { state = 2 } else { markdown.append(line) }
        default:
            if line == fence {
                state = 0
                func text(_ lines: [Substring]) -> String {
                    lines.map { $0 + "\n" }.joined().replacingOccurrences(of: "→", with: "\t")
                }
                examples.append(SpecExample(number: examples.count + 1, line: startLine, section: section,
                                            markdown: text(markdown), html: text(html)))
            } else {
                html.append(line)
            }
        }
    }
    return examples
}

@Suite struct CommonMarkSpecTests {
    /// `../shared/commonmark/spec-0.30.txt` relative to the repository root (this file is
    /// `<root>/Tests/SiteMarkdownTests/…`): the shared folder sits beside the repository.
    static let specURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // <root>/Tests/SiteMarkdownTests
        .deletingLastPathComponent()  // <root>/Tests
        .deletingLastPathComponent()  // <root>
        .appendingPathComponent("../shared/commonmark/spec-0.30.txt")
        .standardizedFileURL

    @Test func everySpecExampleRendersAsSpecified() throws {
        guard let text = try? String(contentsOf: Self.specURL, encoding: .utf8) else {
            Issue.record("CommonMark spec not found at \(Self.specURL.path); it must sit beside the repository in shared/commonmark/")
            return
        }
        let examples = specExamples(text)
        // The 0.30 spec has 652 examples; far fewer means the file was misread.
        #expect(examples.count == 652, "parsed \(examples.count) examples from the spec")

        let renderer = MarkdownRenderer(allowRawHTML: true)
        var failures: [SpecExample] = []
        for example in examples where renderer.render(example.markdown) != example.html {
            failures.append(example)
        }
        print("CommonMark 0.30 spec: \(examples.count - failures.count) of \(examples.count) examples pass")
        for example in failures.prefix(10) {
            Issue.record("""
                example \(example.number) (\(example.section), spec line \(example.line)):
                input:    \(String(reflecting: example.markdown))
                expected: \(String(reflecting: example.html))
                actual:   \(String(reflecting: renderer.render(example.markdown)))
                """)
        }
        #expect(failures.isEmpty, "\(failures.count) of \(examples.count) spec examples differ")
    }

    @Test func specReaderHandlesTabsAndEmptyOutput() {
        let fence = String(repeating: "`", count: 32)
        let text = "# Tabs\n\n\(fence) example\n→foo\n.\n<pre><code>foo\n</code></pre>\n\(fence)\n\n\(fence) example\n\n.\n\(fence)\n"
        let examples = specExamples(text)
        #expect(examples.count == 2)
        #expect(examples.first?.markdown == "\tfoo\n")
        #expect(examples.first?.html == "<pre><code>foo\n</code></pre>\n")
        #expect(examples.first?.section == "Tabs")
        #expect(examples.last?.markdown == "\n")
        #expect(examples.last?.html == "")
    }
}
