import Foundation
import SiteCore
@testable import SiteMarkdown
import Testing

/// The fast path for plain front matter against Yams: wherever the fast path reads a text, Yams
/// must read the same values from it (and not reject it).
@Suite struct PlainFrontMatterTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// What the fast path and Yams say of `yaml`: nil when the fast path declines.
    private func compare(_ yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Bool {
        guard let fast = PlainFrontMatter.fields(Substring(yaml)) else { return false }
        do {
            let slow = try FrontMatter.yamsFields(yaml, file: "a.md")
            #expect(fast == slow, "\(yaml.debugDescription)", sourceLocation: sourceLocation)
        } catch {
            Issue.record(
                "the fast path read what Yams rejects (\(error)): \(yaml.debugDescription)",
                sourceLocation: sourceLocation)
        }
        return true
    }

    /// The YAML between the fences of a note, or nil without front matter.
    private func frontMatter(of text: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first.map({ $0.trimmingCharacters(in: .whitespaces) }) == "---",
            let end = lines.dropFirst().firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "---" })
        else { return nil }
        return lines[1..<end].joined(separator: "\n")
    }

    /// Every note the repository holds: the example site's, the invalid sites', the fuzz seeds.
    private func repositoryNotes() throws -> [URL] {
        var notes: [URL] = []
        for folder in ["content", "e2e/invalid-sites", "fuzz/seeds/frontmatter", "large"] {
            let url = Self.root.appendingPathComponent(folder)
            guard let walk = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in walk where file.pathExtension == "md" { notes.append(file) }
        }
        return notes
    }

    @Test func theExampleSitesNotesAllTakeTheFastPath() throws {
        let folder = Self.root.appendingPathComponent("content/notes")
        let notes = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter {
            $0.pathExtension == "md"
        }
        #expect(notes.count >= 3)
        for note in notes {
            let yaml = try #require(frontMatter(of: String(decoding: Data(contentsOf: note), as: UTF8.self)))
            #expect(compare(yaml), "\(note.lastPathComponent) is not read by the fast path")
        }
    }

    @Test func everyNoteOfTheRepositoryReadsTheSame() throws {
        let notes = try repositoryNotes()
        #expect(notes.count >= 10)
        for note in notes {
            if let yaml = frontMatter(of: String(decoding: try Data(contentsOf: note), as: UTF8.self)) {
                _ = compare(yaml)
            }
        }
    }

    @Test func theSubsetAndItsEdges() {
        let accepted = [
            "title: Hello", "title: 안녕, 세계", "count: 42", "ratio: 1.5e3", "hex: 0x1F", "draft: yes", "day: 2024-01-05",
            "moment: 2024-01-05T10:30:00Z", "bad: 2026-02-30", "time: 1:20:30", "nothing: ~", "empty:", "q: \"42\"",
            "q: 'it''s'".replacingOccurrences(of: "''", with: "x"), #"t: "a \"b\" \\ c""#, "url: https://x.org/a#b",
            "t: C# tips",
            "tags: [a, b, 3]", "tags: []", "tags: [ a , b ]", "tags:\n  - a\n  - 2\n  -\n", "tags:\n- a\n- b\nnext: 1",
            "author:\n  name: Kim\n  site: https://k.dev\nafter: x", "a: 1\n\n# comment\nb: 2\n", "a: 1\r\nb: two\r\n",
            "neg: -5", "x: -.inf", "x: .Inf", "x: 0o17", "x: 0b101", "x: 1_000", "x: +12", "x: 012", "x: 09", "x: =",
            "x: <<",
            "snake_case-key: v", "x: a - b", "x: a ? b", "x: what?", "x: :x", "x: -x", "x: ?x", "Key1: v",
            // YAML's syntax is read in bytes: a combining mark does not join a quote, a space or a dash.
            "t: \"\u{301}x\"", "t: [a, \u{301}b]", "t: '\u{301}'", "t:\n- \u{301}x", "t: -\u{301}"
        ]
        for yaml in accepted { #expect(compare(yaml), "declined: \(yaml.debugDescription)") }
        let declined = [
            "a: 1\na: 2", "a: x # c", "a: b: c", "a: [x, ]", "a: [\"x\"]", "a: [x: y]", "a: |\n  t", "a: >\n  t",
            "a: &x 1",
            "a: *x", "a: !!str 1", "  a: 1", "a: x\n  continued", "a:\n  b:\n    c: 1", "a:\n  - - x", "a:\n  - k: v",
            "a: \"x\\ty\"", "a: 'x'y'", "a: \"unterminated", "a: x\tb", "a:\tb", "a: x\u{85}b", "a: x\u{7F}",
            "<<: {a: 1}",
            "a:b", "a : b", "제목: x", "a: @x", "a: `x`", "a: %x", "a: -", "a: - x", "a: ? x", "a: x:", "---", "...",
            "a:\n  b: 1\n   c: 2", "a:\n  - x\n - y", "a: {b: 1}", "a: x\rb"
        ]
        for yaml in declined {
            #expect(
                !(PlainFrontMatter.fields(Substring(yaml)) != nil && compare(yaml)), "read: \(yaml.debugDescription)")
        }
    }

    /// Thousands of front matters built from pieces that sit on the subset's edges.
    @Test func generatedFrontMatterReadsTheSame() {
        var rng = SplitMix64(seed: 2026)
        let keys = ["title", "date", "tags", "summary", "item", "draft", "a", "b", "x_1", "k-2", "1", "true", "title"]
        let scalars = [
            "Hello world", "42", "-7", "3.5", "1e3", ".5", "0x1F", "0o7", "1_000", "1:30", "yes", "No", "off", "~",
            "null", "2024-01-05",
            "2024-1-5", "2024-01-05 10:30:00", "2026-02-30", "\"quoted\"", "\"a \\\"b\\\"\"", "\"x\\n\"", "'single'",
            "'it''s'", "a: b",
            "a #b", "C#", "http://x.org/#f", "-", "-x", "- x", "?", "?x", ":x", "x:", "[a, b]", "[]", "[a, [b]]",
            "[\"a\"]", "{a: 1}",
            "&anchor x", "*ref", "!!str 5", "|", ">", "%x", "@x", "한국어 제목", "a\tb", " padded ", "é", "x\u{85}y", "="
        ]
        var read = 0
        let total = 4000
        for _ in 0..<total {
            var lines: [String] = []
            for _ in 0..<Int.random(in: 1...5, using: &rng) {
                let key = keys.randomElement(using: &rng)!
                switch Int.random(in: 0..<10, using: &rng) {
                case 0:
                    lines.append("\(key):")
                    let indent = ["", "  ", "    ", " "].randomElement(using: &rng)!
                    for _ in 0..<Int.random(in: 0...3, using: &rng) {
                        lines.append(indent + "- " + scalars.randomElement(using: &rng)!)
                    }
                case 1:
                    lines.append("\(key):")
                    for _ in 0..<Int.random(in: 1...3, using: &rng) {
                        lines.append(
                            ["  ", "  ", "   "].randomElement(using: &rng)! + keys.randomElement(using: &rng)! + ": "
                                + scalars.randomElement(using: &rng)!)
                    }
                case 2:
                    let items = (0..<Int.random(in: 0...3, using: &rng)).map { _ in scalars.randomElement(using: &rng)!
                    }
                    lines.append("\(key): [\(items.joined(separator: ", "))]")
                case 3:
                    lines.append(["", "# note", "  # indented comment"].randomElement(using: &rng)!)
                default:
                    lines.append("\(key): \(scalars.randomElement(using: &rng)!)")
                }
            }
            let separator = Bool.random(using: &rng) ? "\n" : "\r\n"
            if compare(lines.joined(separator: separator)) { read += 1 }
        }
        // The generator is meant to land on both sides of the subset's edge.
        #expect(read > total / 10 && read < total * 9 / 10, "the fast path read \(read) of \(total)")
    }
}
