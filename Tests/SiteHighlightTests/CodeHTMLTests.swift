import CHighlightLoader
import Foundation
import SiteMarkdown
import Testing
@testable import SiteHighlight

/// The HTML around the tokens: escaping, offsets past Hangul and emoji, lines, limits.
@Suite struct CodeHTMLTests {
    @Test func textIsEscapedInAndOutOfTokens() {
        let html = highlighted("swift", "let s = \"<b>&</b>\" < 1\n")
        #expect(
            html
                == block(
                    "swift",
                    "\(t("kw", "let")) \(t("va", "s")) \(t("op", "=")) \(t("st", "&quot;&lt;b&gt;&amp;&lt;/b&gt;&quot;")) \(t("op", "&lt;")) \(t("dv", "1"))\n"
                ))
        #expect(
            highlighted("x\"><script>", "a\n").hasPrefix(
                "<pre class=\"code\" tabindex=\"0\"><code class=\"language-x&quot;&gt;&lt;script&gt;\">"))
    }

    /// KSyntaxHighlighting counts UTF-16 code units: Hangul is one each, an emoji two, a family
    /// emoji eleven; the tokens after them must still start at their own characters.
    @Test func tokensAfterHangulAndEmojiKeepTheirPlace() {
        let code = "let 이름 = \"😀👨‍👩‍👧‍👦\" // 주석 🏴‍☠️\nlet n = 1\n"
        #expect(
            highlighted("swift", code)
                == block(
                    "swift",
                    "\(t("kw", "let")) \(t("va", "이름")) \(t("op", "=")) \(t("st", "&quot;😀👨‍👩‍👧‍👦&quot;")) \(t("co", "// 주석 🏴‍☠️"))\n"
                        + "\(t("kw", "let")) \(t("va", "n")) \(t("op", "=")) \(t("dv", "1"))\n"))
    }

    /// Swift's definition marks `\(` in a string as an error: it stays in the string's colour.
    @Test func anErrorTokenTakesTheStyleItContinues() {
        #expect(highlighted("swift", "\"a \\(x)\"\n") == block("swift", "\(t("st", "&quot;a \\(x)&quot;"))\n"))
        #expect(!highlighted("swift", "let } = 1\n").contains("class=\"er\""))
    }

    /// A character split between two tokens (the halves of a surrogate pair) goes with the token
    /// of its first half.
    @Test func aCharacterSplitBetweenTokensGoesWithItsFirstHalf() {
        // "a" + half of 😀, other half + "b"
        let spans = [SGHSpan(start: 0, length: 2, style: 1), SGHSpan(start: 2, length: 2, style: 12)]
        let html = spans.withUnsafeBufferPointer {
            CodeHTML.make(code: "a😀bc", language: "x", spans: $0, attributes: FenceAttributes())
        }
        #expect(html == block("x", "\(t("kw", "a😀"))\(t("st", "b"))c"))
    }

    @Test func controlCharactersPassAsTheyAre() {
        let code = "let a = \"\u{1}\u{1B}[31m\u{7F}\u{0B}\"\r\nlet b = 2\r\n"
        let html = highlighted("swift", code)
        #expect(html.contains(t("st", "&quot;\u{1}\u{1B}[31m\u{7F}\u{0B}&quot;") + "\r\n"))
        #expect(html.contains("\(t("kw", "let")) \(t("va", "b")) \(t("op", "=")) \(t("dv", "2"))\r\n"))
    }

    @Test func numberedAndMarkedLines() {
        let code = "let a = 1\nlet b = 2\n\nlet c = 3\nlet d = 4\n"
        let html = highlighted("swift", code, info: "swift {2, 4-5} showLineNumbers title=\"x\"")
        let line = { (n: String, v: String) in "\(t("kw", "let")) \(t("va", n)) \(t("op", "=")) \(t("dv", v))\n" }
        #expect(
            html
                == block(
                    "swift",
                    "<span class=\"line\">\(line("a", "1"))</span><span class=\"line hl\">\(line("b", "2"))</span>"
                        + "<span class=\"line\">\n</span><span class=\"line hl\">\(line("c", "3"))</span><span class=\"line hl\">\(line("d", "4"))</span>",
                    numbered: true))
        // Marked lines only; a block without a final line feed still closes its last line.
        #expect(
            highlighted("swift", "a\nb", info: "swift {1}")
                == block("swift", "<span class=\"line hl\">a\n</span><span class=\"line\">b</span>"))
        // An unknown language keeps its lines, without tokens.
        #expect(
            highlighted("klingon", "<a>\n", info: "klingon showLineNumbers")
                == block("klingon", "<span class=\"line\">&lt;a&gt;\n</span>", numbered: true))
    }

    /// Every block of a note on several threads at once gives the bytes one thread gives.
    @Test func theSameBytesOnAnyThreadCount() async {
        let blocks = (0..<64).map { i in
            (
                ["swift", "python", "js", "rust", "yaml", "cpp", "sh", "go"][i % 8],
                "let x\(i) = \"s\" + 1.5 // c\nfor i in 0..<\(i) { f(i) }\n"
            )
        }
        let serial = blocks.map { highlighted($0.0, $0.1) }
        let parallel = await withTaskGroup(of: (Int, String).self) { group in
            for (i, b) in blocks.enumerated() { group.addTask { (i, highlighted(b.0, b.1)) } }
            var out = [String](repeating: "", count: blocks.count)
            for await (i, html) in group { out[i] = html }
            return out
        }
        #expect(parallel == serial)
        #expect(serial.allSatisfy { $0.contains("<span") })
    }
}

/// Hostile blocks: bounded time and memory, escaped text past the limits.
@Suite struct CodeLimitsTests {
    @Test func aLongLineIsEscapedText() {
        let line = String(repeating: "a", count: CodeLimits.maximumLineLength - 9) + " = 1;\n"
        #expect(highlighted("javascript", "let " + line).contains("<span"))  // 5,000 units: highlighted
        #expect(!highlighted("javascript", "let a" + line).contains("<span"))  // 5,001: not
        // Two units per emoji: 2,501 emoji are 5,002 units in 10,004 bytes.
        #expect(!highlighted("swift", "let s = \"" + String(repeating: "😀", count: 2_501) + "\"\n").contains("<span"))
        #expect(highlighted("swift", "let s = \"" + String(repeating: "😀", count: 2_490) + "\"\n").contains("<span"))
    }

    @Test func aMegabyteOnOneLineIsEscapedTextAtOnce() {
        let code = String(repeating: "let x = \"<\" // ", count: 1 << 16) + "\n"
        let start = Date()
        let html = highlighted("swift", code)
        #expect(html == PlainCodeBlocks().html(for: FencedCode(info: "swift", language: "swift", code: code)))
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test func aBlockPastTheByteLimitIsEscapedText() {
        let line = "let x = 1\n"
        let fits = String(repeating: line, count: CodeLimits.maximumBytes / line.utf8.count)
        #expect(highlighted("swift", fits).contains("<span"))
        #expect(!highlighted("swift", fits + "let y\n").contains("<span"))
    }

    /// Lines × brackets open at their start: what KSyntaxHighlighting copies per line, counted on the text.
    @Test func nestingWorkCountsOpenBracketsPerLine() {
        #expect(CodeLimits.nestingWork("{[(\n{[(\n") == 3 + 6)
        #expect(CodeLimits.nestingWork("f(a[1], {b})\n") == 0)
        #expect(CodeLimits.nestingWork(")))(\n(\n") == 1 + 2)  // closers never go below zero
        #expect(CodeLimits.nestingWork("((\n))\n") == 2)
        #expect(CodeLimits.nestingWork("((") == 0)  // no line end
        #expect(CodeLimits.nestingWork("/*\n/* a */\n*/\n") == 1 + 1 + 0)  // nested comments push contexts too
        // 3k open at the k-th line end: 3n(n+1)/2 in all; stops counting once past the budget.
        #expect(CodeLimits.nestingWork(String(repeating: "{[(\n", count: 3_650)) == 19_989_225)
        #expect(CodeLimits.nestingWork(String(repeating: "{[(\n", count: 63_000)) == 20_000_178)
    }

    /// Past the nesting budget a block is escaped text at once, with the warning; under it,
    /// highlighted and no warning (the issue's 252 KB block took 12.75 s).
    @Test func deepNestingIsEscapedTextWithAWarning() {
        let under = FencedCode(info: "python", code: String(repeating: "{[(1\n", count: 3_650))
        #expect(CodeHighlighter().html(for: under).contains("<span"))
        #expect(CodeHighlighter().warning(for: under) == nil)
        let code = String(repeating: "{[(\n", count: 63_000)
        let over = FencedCode(info: "python", code: code)
        let start = Date()
        #expect(CodeHighlighter().html(for: over) == PlainCodeBlocks().html(for: over))
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(CodeHighlighter().warning(for: over)?.contains("20000000 line × open bracket pairs") == true)
        // No warning for blocks without a language or past the size limits (escaped, as documented).
        #expect(CodeHighlighter().warning(for: FencedCode(info: "", code: code)) == nil)
        #expect(CodeHighlighter().warning(for: FencedCode(info: "python", code: code + code)) == nil)
    }

    /// 100,000 short lines (195 KB) are highlighted, in bounded time.
    @Test func aHundredThousandLines() {
        let code = String(repeating: "1\n", count: 100_000)
        let start = Date()
        let html = highlighted("python", code)
        #expect(html.components(separatedBy: t("dv", "1")).count == 100_001)
        #expect(Date().timeIntervalSince(start) < 30)
    }
}
