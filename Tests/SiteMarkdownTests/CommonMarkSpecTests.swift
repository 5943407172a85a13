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
    /// The GFM extension the example needs (`table`, `strikethrough` …; GFM spec only).
    var extensionName: String? = nil
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
    var extensionName: String? = nil
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    for (index, line) in lines.enumerated() {
        switch state {
        case 0:
            if line.hasPrefix(fence + " example") {
                let rest = line.dropFirst(fence.count + 8).trimmingCharacters(in: .whitespaces)
                extensionName = rest.isEmpty ? nil : rest
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
                examples.append(
                    SpecExample(
                        number: examples.count + 1, line: startLine, section: section,
                        markdown: text(markdown), html: text(html), extensionName: extensionName))
            } else {
                html.append(line)
            }
        }
    }
    return examples
}

@Suite struct CommonMarkSpecTests {
    /// The repository root (this file is `<root>/Tests/SiteMarkdownTests/…`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Where the spec may be: `$COMMONMARK_SPEC`; `shared/commonmark/spec-0.30.txt` beside the
    /// repository; or beside the repository this one was cloned from, when that is a local folder
    /// (a clean clone made elsewhere, e.g. `git clone . /tmp/ci-check`).
    static var specCandidates: [URL] {
        var out: [URL] = []
        if let env = ProcessInfo.processInfo.environment["COMMONMARK_SPEC"] { out.append(URL(fileURLWithPath: env)) }
        let beside = "../shared/commonmark/spec-0.30.txt"
        out.append(root.appendingPathComponent(beside).standardizedFileURL)
        out += SpecLayer.sharedFolders.map { $0.appendingPathComponent("commonmark/spec-0.30.txt") }
        if let config = try? String(contentsOf: root.appendingPathComponent(".git/config"), encoding: .utf8),
            let line = config.split(separator: "\n").first(where: {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix("url = /")
            })
        {
            let origin = line.split(separator: "=", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)
            out.append(URL(fileURLWithPath: origin).appendingPathComponent(beside).standardizedFileURL)
        }
        return out
    }

    @Test func everySpecExampleRendersAsSpecified() throws {
        guard let text = Self.specCandidates.lazy.compactMap({ try? String(contentsOf: $0, encoding: .utf8) }).first
        else {
            Issue.record(
                "CommonMark spec not found at \(Self.specCandidates.map(\.path)); it sits in shared/commonmark/ beside the repository (or set COMMONMARK_SPEC)"
            )
            return
        }
        let examples = specExamples(text)
        // The 0.30 spec has 652 examples; far fewer means the file was misread.
        #expect(examples.count == 652, "parsed \(examples.count) examples from the spec")

        // cmark-gfm implements CommonMark 0.29: these examples of the 0.30 spec come out
        // differently (listed in the README), through sitegen's layer with every GFM extension off
        // and HTML normalised on both sides (SpecLayer). Any other difference fails.
        let differing = SpecLayer.differing(examples, options: SpecLayer.commonMark)
        print(
            "CommonMark 0.30 spec: \(examples.count - differing.count) of \(examples.count) examples pass; differing: \(differing)"
        )
        for number in differing where !Self.known030Differences.contains(number) {
            let example = examples[number - 1]
            Issue.record(
                """
                example \(example.number) (\(example.section), spec line \(example.line)):
                input:    \(String(reflecting: example.markdown))
                expected: \(String(reflecting: SpecLayer.normalise(example.html)))
                actual:   \(String(reflecting: SpecLayer.render(example.markdown, options: SpecLayer.commonMark)))
                """)
        }
        #expect(differing == Self.known030Differences)
    }

    /// The 0.30 examples cmark-gfm (CommonMark 0.29) renders otherwise; README.md lists them:
    /// 28, `&#87654321;` (0.30: at most 7 digits make a numeric reference; 0.29 decodes it to
    /// U+FFFD); 171, `<textarea>` (0.30 starts an HTML block of kind 1 with it, so the blank lines
    /// inside do not end it; 0.29 renders the Markdown inside). The `cmark-gfm` command differs
    /// byte for byte on the same two.
    static let known030Differences: [Int] = [28, 171]

    @Test func specReaderHandlesTabsAndEmptyOutput() {
        let fence = String(repeating: "`", count: 32)
        let text =
            "# Tabs\n\n\(fence) example\n→foo\n.\n<pre><code>foo\n</code></pre>\n\(fence)\n\n\(fence) example\n\n.\n\(fence)\n"
        let examples = specExamples(text)
        #expect(examples.count == 2)
        #expect(examples.first?.markdown == "\tfoo\n")
        #expect(examples.first?.html == "<pre><code>foo\n</code></pre>\n")
        #expect(examples.first?.section == "Tabs")
        #expect(examples.last?.markdown == "\n")
        #expect(examples.last?.html == "")
    }
}
