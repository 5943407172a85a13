import Foundation
import Testing
@testable import SiteMarkdown

/// The pass that reads cmark-gfm's own markup without parsing it (`KnownMarkupPass`) against the
/// parsing pass (`HTMLRewriter`): byte for byte, with everything sitegen adds, on every document
/// without raw HTML among the specs' examples, the repository's Markdown files and generated
/// documents; and it must take the great majority of them (giving up is always correct, so a
/// pass that gave up on everything would pass the comparison).
@Suite struct KnownMarkupPassTests {
    struct Code: CodeBlockFormatter {
        func html(for block: FencedCode) -> String {
            "<pre>[\(HTMLText.escape(block.info))]\(HTMLText.escape(block.code))</pre>"
        }
    }

    /// Settings that exercise every addition: ids with a prefix, a root path, note links and images.
    static let variants: [HTMLRewriter.Settings] = [
        HTMLRewriter.Settings(
            trusted: false, rootPath: "/", idPrefix: "", prefixHeadings: false, reservedIDs: ["main"],
            labels: MarkdownLabels(), codeBlocks: Code()),
        HTMLRewriter.Settings(
            trusted: true, rootPath: "/apps/", idPrefix: "luffy-", prefixHeadings: true, reservedIDs: [],
            labels: MarkdownLabels(headingLink: "링크", footnoteBack: "돌아가기", task: "할 일"),
            codeBlocks: Code(), folder: "notes"),
        HTMLRewriter.Settings(
            trusted: false, rootPath: "/", idPrefix: "n-", prefixHeadings: false, reservedIDs: [],
            labels: MarkdownLabels(), codeBlocks: Code(), folder: ""),
        HTMLRewriter.Settings(
            trusted: true, rootPath: "/", idPrefix: "", prefixHeadings: false, reservedIDs: [],
            labels: MarkdownLabels(), codeBlocks: Code(), decorateHeadings: false, sortAttributes: true)
    ]

    struct Tally {
        var withoutRawHTML = 0
        var fast = 0
        var differing: [String] = []
    }

    static func compare(
        _ name: String, _ markdown: String, options: MarkdownOptions = MarkdownOptions(), into tally: inout Tally
    ) {
        for (v, settings) in variants.enumerated() {
            let marked = Cmark.render(markdown, options: options, removeRawHTML: false, tagfilter: !settings.trusted)
            guard !marked.hasRawHTML else { continue }
            tally.withoutRawHTML += 1
            let deep = NestingDepth.exceeds(marked.html)
            guard let fast = try? KnownMarkupPass.rewrite(marked, settings: settings) else {
                if deep != ((try? KnownMarkupPass.rewrite(marked, settings: settings)) == nil) {
                    tally.differing.append("\(name) (settings \(v)): nesting")
                }
                continue
            }
            if deep { tally.differing.append("\(name) (settings \(v)): too deep, but written") }
            tally.fast += 1
            let parsed = HTMLRewriter.rewrite(marked, settings: settings)
            if fast.html != parsed.html || fast.headings != parsed.headings || fast.removed != parsed.removed
                || fast.noteLinks != parsed.noteLinks || fast.images != parsed.images || fast.holes != parsed.holes
            {
                tally.differing.append("\(name) (settings \(v))")
                if tally.differing.count <= 3 {
                    print(
                        "--- \(name) (settings \(v))\n\(markdown)=> parsed\n\(parsed.html)\n=> known\n\(fast.html)\n"
                            + "\(parsed.removed) \(fast.removed)")
                }
            }
        }
    }

    @Test func everySpecExample() {
        var tally = Tally()
        let gfm =
            GFMSpecTests.examples("spec-0.29-gfm.txt") + GFMSpecTests.examples("extensions.txt")
            + GFMSpecTests.examples("regression.txt")
        for e in gfm { Self.compare("gfm \(e.number)", e.markdown, into: &tally) }
        let spec = CommonMarkSpecTests.specCandidates.lazy.compactMap { try? String(contentsOf: $0, encoding: .utf8) }
            .first
        #expect(spec != nil, "the CommonMark spec (shared/commonmark/spec-0.30.txt)")
        for e in specExamples(spec ?? "") { Self.compare("commonmark \(e.number)", e.markdown, into: &tally) }
        var smart = MarkdownOptions()
        smart.smart = true
        for e in gfm { Self.compare("gfm smart \(e.number)", e.markdown, options: smart, into: &tally) }
        print("known markup pass: \(tally.fast) of \(tally.withoutRawHTML) renderings without raw HTML")
        #expect(tally.differing.isEmpty, "\(tally.differing.count) differ: \(tally.differing.prefix(12))")
        #expect(tally.withoutRawHTML > 2_500)
        #expect(
            tally.fast * 100 >= tally.withoutRawHTML * 95,
            "the known pass took \(tally.fast) of \(tally.withoutRawHTML)")
    }

    @Test func repositoryFilesAndGeneratedDocuments() {
        var tally = Tally()
        for file in DocumentsDifferentialTests.markdownFiles() {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            Self.compare(file.lastPathComponent, DocumentsDifferentialTests.body(text), into: &tally)
        }
        let pieces = (GFMSpecTests.examples("spec-0.29-gfm.txt") + GFMSpecTests.examples("extensions.txt")).map(
            \.markdown)
        var state: UInt64 = 38
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        for n in 0..<300 {
            let document = (0..<10).map { _ in pieces[next() % pieces.count] }.joined(separator: n % 2 == 0 ? "\n" : "")
            Self.compare("generated \(n)", document, into: &tally)
        }
        print("known markup pass: \(tally.fast) of \(tally.withoutRawHTML) renderings without raw HTML")
        #expect(tally.differing.isEmpty, "\(tally.differing.count) differ: \(tally.differing.prefix(12))")
        #expect(tally.withoutRawHTML > 150)
        #expect(
            tally.fast * 100 >= tally.withoutRawHTML * 90,
            "the known pass took \(tally.fast) of \(tally.withoutRawHTML)")
    }

    /// A README without raw HTML, with all that sitegen adds, goes the fast way and is written as
    /// the parsing pass writes it.
    @Test func aReadmeWithoutRawHTML() throws {
        let markdown = """
            # Title & "more"

            [Usage](#usage) · [other](other.md#x) · ![shot](shot.png "A") · [bad](javascript:alert(1))

            ## Usage

            | a | b |
            |:-|-:|
            | `x` | ~~y~~ |

            - [x] done
            - [ ] todo[^1]

            See www.example.org and <dev@example.org>.

            ```swift
            let a = 1 < 2
            ```

            [^1]: A note.
            """
        for settings in Self.variants {
            let marked = Cmark.render(markdown, options: MarkdownOptions(), removeRawHTML: false, tagfilter: true)
            #expect(!marked.hasRawHTML)
            let fast = try #require(try KnownMarkupPass.rewrite(marked, settings: settings))
            let parsed = HTMLRewriter.rewrite(marked, settings: settings)
            #expect(fast.html == parsed.html)
            #expect(fast.headings == parsed.headings)
            #expect(fast.removed == parsed.removed)
            #expect(fast.images == parsed.images)
            #expect(fast.noteLinks == parsed.noteLinks)
            #expect(fast.holes == parsed.holes)
        }
    }

    /// The renderer's pass: the known one without raw HTML, the parser with it.
    @Test func thePassChosen() throws {
        let options = MarkdownOptions()
        let settings = Self.variants[0]
        #expect(
            try !HTMLRewriter.pass(
                Cmark.render("# a\n\nb *c*", options: options, removeRawHTML: false, tagfilter: true),
                settings: settings
            ).parsed)
        #expect(
            try HTMLRewriter.pass(
                Cmark.render("# a\n\nb <em>c</em>", options: options, removeRawHTML: false, tagfilter: true),
                settings: settings
            ).parsed)
        #expect(
            try HTMLRewriter.pass(
                Cmark.render("a\u{1}b", options: options, removeRawHTML: false, tagfilter: true),
                settings: settings
            ).parsed == false, "escaped by the known pass")
    }

    /// Characters the parser replaces, written as the parsing pass writes them.
    @Test func charactersTheParserReplaces() throws {
        for text in [
            "a\u{1}b", "x\u{85}y\u{7F}", "z\u{FFFE}", "\"q\" & 1 < 2 > 0", "# h\u{89}i\u{1}", "# \u{FFFF}\u{7F}",
            "![a\u{89}](b.png)"
        ] {
            let marked = Cmark.render(text, options: MarkdownOptions(), removeRawHTML: false, tagfilter: true)
            for settings in Self.variants {
                let fast = try #require(try KnownMarkupPass.rewrite(marked, settings: settings), "\(text)")
                let parsed = HTMLRewriter.rewrite(marked, settings: settings)
                #expect(fast.html == parsed.html, "\(text)")
                #expect(fast.headings == parsed.headings, "\(text)")
                #expect(fast.images == parsed.images, "\(text)")
            }
        }
    }

    /// Nesting measured as `NestingDepth` measures it, up to the limit and past it, in the
    /// elements that nest (block quotes, lists, markers) and around those that do not (`p`, `li`).
    @Test func nestingAsNestingDepthMeasuresIt() throws {
        for (n, open) in [(512, ">"), (513, ">"), (511, "> "), (300, "- "), (1_000, "1. ")] {
            let marked = Cmark.render(
                String(repeating: open, count: n) + "x\n\n```\ny\n```\n", options: MarkdownOptions(),
                removeRawHTML: false, tagfilter: true)
            let deep = NestingDepth.exceeds(marked.html)
            do {
                let out = try KnownMarkupPass.rewrite(marked, settings: Self.variants[0])
                #expect(out != nil && !deep, "\(n) × \(open)")
            } catch {
                #expect(deep, "\(n) × \(open)")
            }
        }
        let quotes = { (n: Int) in
            Cmark.render(
                String(repeating: ">", count: n) + " x\n", options: MarkdownOptions(),
                removeRawHTML: false, tagfilter: true)
        }
        #expect(throws: MarkdownError.nestedTooDeep(limit: 512)) {
            try KnownMarkupPass.rewrite(quotes(513), settings: Self.variants[0])
        }
        #expect(try KnownMarkupPass.rewrite(quotes(512), settings: Self.variants[0]) != nil)
    }

    @Test func rawHTMLIsKnown() {
        let options = MarkdownOptions()
        #expect(Cmark.render("a <b>c</b>", options: options, removeRawHTML: false, tagfilter: true).hasRawHTML)
        #expect(Cmark.render("<div>\nx\n</div>", options: options, removeRawHTML: false, tagfilter: true).hasRawHTML)
        #expect(!Cmark.render("a <b>c</b>", options: options, removeRawHTML: true, tagfilter: true).hasRawHTML)
        #expect(!Cmark.render("a `<b>` c", options: options, removeRawHTML: false, tagfilter: true).hasRawHTML)
        #expect(MarkedHTML(html: "<b>x</b>", marker: "sitegen-m0").hasRawHTML, "made by hand: may hold anything")
    }

    /// What the parser would not read as written makes the known pass give up.
    @Test func givesUpWhereTheParserWouldChangeTheTree() throws {
        let settings = Self.variants[0]
        for html in [
            "<a href=\"x\"><a href=\"y\">z</a></a>", "<p><ul><li>x</li></ul></p>", "<h1><h2>x</h2></h1>",
            "<table><td>x</td></table>", "<table><tr><td>x</td></tr></table>", "<tr><td>x</td></tr>",
            "<table>x</table>", "<p>x</em>", "<p>x", "a\rb", "a\u{0}b", "<p>&copy;</p>", "<pre>\nx</pre>",
            "<p><sitegen-m0 data-k=\"c0\"></sitegen-m0></p>", "<script>x</script>", "<P>x</P>", "<p x>y</p>",
            "<p>x</p x=\"1\">", "\u{FEFF}<p>x</p>", "<h1><em><h2>x</h2></em></h1>",
            "<p><a href=\"&copy;\">x</a></p>", "<p><em>x</sitegen-m0></p>"
        ] {
            var marked = MarkedHTML(html: html, marker: "sitegen-m0")
            marked.hasRawHTML = false
            #expect(try KnownMarkupPass.rewrite(marked, settings: settings) == nil, "\(html)")
        }
        // Without heading ids (the headings are not read first), a heading in a heading still gives up.
        var marked = MarkedHTML(html: "<h1><h2>x</h2></h1>", marker: "sitegen-m0")
        marked.hasRawHTML = false
        #expect(try KnownMarkupPass.rewrite(marked, settings: Self.variants[3]) == nil)
    }
}

extension KnownMarkupPassTests {
    /// The known pass does not ask the allowlist: every element cmark-gfm writes is in it.
    @Test func everyKnownElementIsInTheAllowlist() {
        for element in KnownElement.allCases { #expect(HTMLAllowlist.elements.contains(element.info.name)) }
    }
}

extension KnownMarkupPassTests {
    /// Control characters in headings (their text, ids and the table of contents), link titles and
    /// image descriptions: the parser makes them U+FFFD, and so must the known pass.
    @Test func controlCharactersAsTheParserReadsThem() {
        var tally = Tally()
        for c in [0x1, 0x8, 0xB, 0x1F, 0x7F, 0x80, 0x9F, 0xFDD0].compactMap(Unicode.Scalar.init).map(String.init) {
            let markdown = "# a\(c)b\n\n## \(c)\n\n[x](/y \"t\(c)\") ![d\(c)](/e.png) `\(c)` *\(c)*\n"
            Self.compare("control U+\(String(c.unicodeScalars.first!.value, radix: 16))", markdown, into: &tally)
        }
        #expect(tally.withoutRawHTML == 8 * Self.variants.count)
        #expect(tally.fast == tally.withoutRawHTML)
        #expect(tally.differing == [])
    }
}
