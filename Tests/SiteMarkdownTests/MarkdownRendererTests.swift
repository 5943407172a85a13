import Testing
@testable import SiteMarkdown

@Suite struct MarkdownRendererTests {
    let safe = MarkdownRenderer()
    let unsafe = MarkdownRenderer(allowRawHTML: true)

    @Test func rendersCommonMarkWithHeadingIDs() {
        #expect(
            safe.render("# Title\n\nSome *emphasis* and `code`.\n")
                == "<h1 id=\"title\">Title<a class=\"heading-anchor\" href=\"#title\" aria-label=\"Link to this section: Title\"></a></h1>\n"
                + "<p>Some <em>emphasis</em> and <code>code</code>.</p>\n")
        #expect(safe.render("") == "")
    }

    /// A site served under /apps/: site-absolute links and images move under it (raw HTML's
    /// too); relative, protocol-relative and external ones, and fragments stay.
    @Test func siteAbsoluteURLsMoveUnderTheRootPath() {
        let r = MarkdownRenderer(rootPath: "/apps/")
        #expect(
            r.render(
                "[Luffy](/bounties/luffy/) ![x](/img/a.png \"t\") [rel](../x/) [cdn](//cdn.example/a) [ext](https://e.org/) [top](#top) [/](/)\n"
            )
                == "<p><a href=\"/apps/bounties/luffy/\">Luffy</a> <img src=\"/apps/img/a.png\" alt=\"x\" title=\"t\"> <a href=\"../x/\">rel</a> <a href=\"//cdn.example/a\">cdn</a> <a href=\"https://e.org/\">ext</a> <a href=\"#top\">top</a> <a href=\"/apps/\">/</a></p>\n"
        )
        #expect(r.render("[ref]\n\n[ref]: /notes/about/\n") == "<p><a href=\"/apps/notes/about/\">ref</a></p>\n")
        let raw = MarkdownRenderer(allowRawHTML: true, rootPath: "/apps/")
        #expect(raw.render("<a href=\"/x/\">raw</a>\n") == "<p><a href=\"/apps/x/\">raw</a></p>\n")
        #expect(safe.render("[a](/b/)\n") == "<p><a href=\"/b/\">a</a></p>\n")
    }

    @Test func unsafeModeKeepsRawHTMLAndLinks() {
        #expect(unsafe.render("<script>alert(1)</script>\n") == "<script>alert(1)</script>\n")
        #expect(unsafe.render("[x](javascript:alert(1))") == "<p><a href=\"javascript:alert(1)\">x</a></p>\n")
        #expect(
            unsafe.render("<div onclick=\"go()\" style=\"color: red\">hi</div>\n")
                == "<div onclick=\"go()\" style=\"color: red\">hi</div>\n")
    }

    @Test func noneModeDropsRawHTML() throws {
        var options = MarkdownOptions()
        options.html = .none
        let none = MarkdownRenderer(options: options)
        #expect(none.render("<p align=\"center\">x</p>\n\na <b>b</b> c\n") == "<p>a b c</p>\n")
        let out = try none.render("<b>x</b>", MarkdownRenderer.Context())
        #expect(out.removed.isEmpty)  // dropped by choice, nothing to warn about
    }

    @Test func handlesNonASCIIAndCRLFAndNUL() {
        #expect(safe.render("한글 본문 — ünïcödé 😀\r\n") == "<p>한글 본문 — ünïcödé 😀</p>\n")
        // cmark replaces NUL with U+FFFD; the length is passed explicitly so nothing is cut off.
        #expect(safe.render("a\u{0}b") == "<p>a\u{FFFD}b</p>\n")
    }

    @Test func substringBackedStringsRender() {
        let text = "xx*em*"
        let tail = String(text.dropFirst(2))
        #expect(safe.render(tail) == "<p><em>em</em></p>\n")
    }
}

/// GitHub-flavoured Markdown, on by default and off key by key.
@Suite struct GFMTests {
    let gfm = MarkdownRenderer()

    @Test func tablesWithAlignment() {
        #expect(
            gfm.render("| a | b | c |\n|:-|:-:|-:|\n| 1 | 2 | 3 |\n") == """
                <table>
                <thead>
                <tr>
                <th align="left">a</th>
                <th align="center">b</th>
                <th align="right">c</th>
                </tr>
                </thead>
                <tbody>
                <tr>
                <td align="left">1</td>
                <td align="center">2</td>
                <td align="right">3</td>
                </tr>
                </tbody>
                </table>

                """)
    }

    @Test func strikethroughAndAutolinks() {
        #expect(
            gfm.render("~~old~~ www.example.org https://a.example/b?c=1 dev@example.org\n")
                == "<p><del>old</del> <a href=\"http://www.example.org\">www.example.org</a> <a href=\"https://a.example/b?c=1\">https://a.example/b?c=1</a> <a href=\"mailto:dev@example.org\">dev@example.org</a></p>\n"
        )
    }

    @Test func taskListsHaveDisabledBoxes() throws {
        #expect(
            gfm.render("- [x] done\n- [ ] todo\n")
                == "<ul>\n<li><input type=\"checkbox\" checked disabled aria-label=\"Task\"> done</li>\n"
                + "<li><input type=\"checkbox\" disabled aria-label=\"Task\"> todo</li>\n</ul>\n")
        // A box the author writes is not sitegen's: the allowlist removes it.
        let own = try gfm.render("<input type=\"checkbox\" checked>", MarkdownRenderer.Context())
        #expect(!own.html.contains("input"))
        #expect(own.removed == ["<input>"])
    }

    @Test func footnotesArePrefixedPerNote() throws {
        let out = try gfm.render(
            "A[^n] B[^n] C[^2]\n\n[^n]: First.\n[^2]: Second.\n", MarkdownRenderer.Context(idPrefix: "luffy-"))
        #expect(
            out.html == """
                <p>A<sup class="footnote-ref"><a href="#fn-luffy-1" id="fnref-luffy-1" data-footnote-ref>1</a></sup> B<sup class="footnote-ref"><a href="#fn-luffy-1" id="fnref-luffy-1-2" data-footnote-ref>1</a></sup> C<sup class="footnote-ref"><a href="#fn-luffy-2" id="fnref-luffy-2" data-footnote-ref>2</a></sup></p>
                <section class="footnotes" data-footnotes>
                <ol>
                <li id="fn-luffy-1">
                <p>First. <a href="#fnref-luffy-1" class="footnote-backref" data-footnote-backref aria-label="Back to content">↩</a> <a href="#fnref-luffy-1-2" class="footnote-backref" data-footnote-backref aria-label="Back to content">↩<sup class="footnote-ref">2</sup></a></p>
                </li>
                <li id="fn-luffy-2">
                <p>Second. <a href="#fnref-luffy-2" class="footnote-backref" data-footnote-backref aria-label="Back to content">↩</a></p>
                </li>
                </ol>
                </section>

                """)
        // Two notes on one page share no id.
        let other = try gfm.render("A[^n]\n\n[^n]: x\n", MarkdownRenderer.Context(idPrefix: "zoro-")).html
        #expect(other.contains("id=\"fn-zoro-1\"") && !other.contains("luffy"))
    }

    @Test func footnoteIDsStayClearOfHeadings() throws {
        let out = try gfm.render("# fn-x-1\n\nA[^n]\n\n[^n]: x\n", MarkdownRenderer.Context(idPrefix: "x-"))
        #expect(out.headings.map(\.id) == ["fn-x-1-1"])
        #expect(out.html.contains("<li id=\"fn-x-1\">"))
    }

    @Test func extensionsTurnOffOneByOne() {
        var o = MarkdownOptions()
        o.tables = false; o.strikethrough = false; o.autolinks = false; o.taskLists = false; o.footnotes = false
        let plain = MarkdownRenderer(options: o)
        #expect(plain.render("|a|\n|-|\n") == "<p>|a|\n|-|</p>\n")
        #expect(plain.render("~~x~~ www.x.org") == "<p>~~x~~ www.x.org</p>\n")
        #expect(plain.render("- [x] a\n") == "<ul>\n<li>[x] a</li>\n</ul>\n")
        #expect(plain.render("a[^1]\n\n[^1]: b\n") == "<p>a<a href=\"b\">^1</a></p>\n")
    }

    @Test func smartPunctuationIsOptIn() {
        #expect(gfm.render("\"Hi\" -- it's...") == "<p>&quot;Hi&quot; -- it's...</p>\n")
        var o = MarkdownOptions()
        o.smart = true
        #expect(MarkdownRenderer(options: o).render("\"Hi\" -- it's...") == "<p>“Hi” – it’s…</p>\n")
    }

    @Test func tagfilterShowsDangerousTagsAsText() throws {
        #expect(gfm.render("<xmp>\n") == "&lt;xmp&gt;\n")
        var o = MarkdownOptions()
        o.tagfilter = false
        let out = try MarkdownRenderer(options: o).render("<xmp>x</xmp>\n", MarkdownRenderer.Context())
        #expect(!out.html.contains("xmp") && !out.html.contains("x<"))  // then the allowlist removes it
        #expect(out.removed == ["<xmp>"])
    }
}

/// Heading ids as GitHub makes them, and code blocks.
@Suite struct HeadingAndCodeTests {
    @Test(arguments: [
        ("Usage", "usage"), ("Hello, World!", "hello-world"), ("A  B", "a--b"),
        ("snake_case and-dash", "snake_case-and-dash"),
        ("한글 제목", "한글-제목"), ("Ünïcödé Straße", "ünïcödé-straße"), ("C++ & Swift 6.0", "c--swift-60"),
        ("😀 Emoji", "-emoji"), ("Привет мир", "привет-мир"), ("日本語", "日本語"), ("`code` *em*", "code-em")
    ])
    func githubSlugs(text: String, id: String) {
        #expect(HeadingIDs.slug(text) == id)
    }

    /// The ASCII fast path keeps and drops what the Unicode categories keep and drop.
    @Test func asciiSlugsAreUnicodeSlugs() {
        let all = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        #expect(HeadingIDs.asciiSlug(all) == HeadingIDs.unicodeSlug(all))
        #expect(HeadingIDs.asciiSlug(all) == "--0123456789abcdefghijklmnopqrstuvwxyz_abcdefghijklmnopqrstuvwxyz")
        for b in 0..<128 {
            let text = "Ab" + String(decoding: [UInt8(b)], as: UTF8.self) + " Z"
            #expect(HeadingIDs.slug(text) == HeadingIDs.unicodeSlug(text), "byte \(b)")
        }
    }

    @Test func repeatsAreNumberedAndEmptyIsSection() throws {
        let out = try MarkdownRenderer(reservedIDs: ["main"]).render(
            "# A\n# A\n# a-1\n# !!!\n# Main\n", MarkdownRenderer.Context())
        #expect(out.headings.map(\.id) == ["a", "a-1", "a-1-1", "section", "main-1"])
        #expect(out.headings.map(\.level) == [1, 1, 1, 1, 1])
        // The next number is tried until one is free, as github-slugger does.
        #expect(
            try MarkdownRenderer().render("# A\n# A-1\n# A\n", MarkdownRenderer.Context()).headings.map(\.id) == [
                "a", "a-1", "a-2"
            ])
    }

    @Test func headingTextIsPlainText() throws {
        let out = try MarkdownRenderer().render("## The `sitegen` *way* [link](x)\n", MarkdownRenderer.Context())
        #expect(out.headings == [Heading(level: 2, id: "the-sitegen-way-link", text: "The sitegen way link")])
    }

    @Test(
        arguments: [
            ("swift", "swift"), ("swift=", "swift"), ("swift {1,3}", "swift"), ("swift{1}", "swift"),
            ("  ruby  x", "ruby"),
            ("", nil), ("=", nil), ("c++", "c++"), ("objective-c", "objective-c")
        ] as [(String, String?)])
    func languageIsTheInfoStringsFirstWord(info: String, language: String?) {
        #expect(FencedCode(info: info, code: "").language == language)
    }

    @Test func codeBlocksGoThroughTheFormatter() {
        struct Shout: CodeBlockFormatter {
            func html(for block: FencedCode) -> String {
                "<pre data-info=\"\(block.info)\">\(block.code.uppercased())</pre>"
            }
        }
        let out = MarkdownRenderer(codeBlocks: Shout()).render("```swift {1}\nlet x\n```\n\n    indented\n")
        #expect(out == "<pre data-info=\"swift {1}\">LET X\n</pre>\n<pre data-info=\"\">INDENTED\n</pre>\n")
        #expect(
            MarkdownRenderer().render("```swift=\n<a>&\n```\n")
                == "<pre class=\"code\" tabindex=\"0\"><code class=\"language-swift\">&lt;a&gt;&amp;\n</code></pre>\n")
        #expect(
            MarkdownRenderer().render("~~~\nx\n~~~\n") == "<pre class=\"code\" tabindex=\"0\"><code>x\n</code></pre>\n")
    }
}
