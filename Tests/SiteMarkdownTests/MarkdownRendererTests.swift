import Testing
import SiteMarkdown

@Suite struct MarkdownRendererTests {
    let safe = MarkdownRenderer()
    let unsafe = MarkdownRenderer(allowRawHTML: true)

    @Test func rendersCommonMark() {
        #expect(safe.render("# Title\n\nSome *emphasis* and `code`.\n")
                == "<h1>Title</h1>\n<p>Some <em>emphasis</em> and <code>code</code>.</p>\n")
        #expect(safe.render("") == "")
    }

    /// A site served under /apps/: site-absolute links and images move under it; relative,
    /// protocol-relative and external ones, fragments and raw HTML stay.
    @Test func siteAbsoluteURLsMoveUnderTheRootPath() {
        let r = MarkdownRenderer(rootPath: "/apps/")
        #expect(r.render("[Luffy](/bounties/luffy/) ![x](/img/a.png \"t\") [rel](../x/) [cdn](//cdn.example/a) [ext](https://e.org/) [top](#top) [/](/)\n")
                == "<p><a href=\"/apps/bounties/luffy/\">Luffy</a> <img src=\"/apps/img/a.png\" alt=\"x\" title=\"t\" /> <a href=\"../x/\">rel</a> <a href=\"//cdn.example/a\">cdn</a> <a href=\"https://e.org/\">ext</a> <a href=\"#top\">top</a> <a href=\"/apps/\">/</a></p>\n")
        #expect(r.render("[ref]\n\n[ref]: /notes/about/\n") == "<p><a href=\"/apps/notes/about/\">ref</a></p>\n")
        let raw = MarkdownRenderer(allowRawHTML: true, rootPath: "/apps/")
        #expect(raw.render("<a href=\"/x/\">raw</a>\n") == "<p><a href=\"/x/\">raw</a></p>\n")
        // At the root nothing changes (and the faster one-call path is taken).
        #expect(safe.render("[a](/b/)\n") == "<p><a href=\"/b/\">a</a></p>\n")
    }

    @Test func safeModeOmitsRawHTMLBlocks() {
        #expect(safe.render("<script>alert(1)</script>\n") == "<!-- raw HTML omitted -->\n")
        #expect(safe.render("<div onclick=\"x()\">\nhi\n</div>\n") == "<!-- raw HTML omitted -->\n")
    }

    @Test func safeModeOmitsInlineHTML() {
        #expect(safe.render("a <b onmouseover=\"x()\">bold</b> c")
                == "<p>a <!-- raw HTML omitted -->bold<!-- raw HTML omitted --> c</p>\n")
    }

    @Test(arguments: [
        "javascript:alert(1)", "JAVASCRIPT:alert(1)", "vbscript:msgbox", "file:///etc/passwd",
        "data:text/html;base64,PHNjcmlwdD4=",
    ])
    func safeModeEmptiesDangerousLinks(url: String) {
        #expect(safe.render("[x](\(url))") == "<p><a href=\"\">x</a></p>\n")
    }

    @Test func safeModeKeepsImageDataURLsAndOrdinaryLinks() {
        #expect(safe.render("![i](data:image/png;base64,AAAA)")
                == "<p><img src=\"data:image/png;base64,AAAA\" alt=\"i\" /></p>\n")
        #expect(safe.render("[x](https://example.com/a?b=1&c=2)")
                == "<p><a href=\"https://example.com/a?b=1&amp;c=2\">x</a></p>\n")
        #expect(safe.render("<https://example.com>")
                == "<p><a href=\"https://example.com\">https://example.com</a></p>\n")
    }

    @Test func safeModeEscapesTextAndAutolinks() {
        #expect(safe.render("1 < 2 & \"q\"") == "<p>1 &lt; 2 &amp; &quot;q&quot;</p>\n")
        #expect(safe.render("<javascript:alert(1)>") == "<p><a href=\"\">javascript:alert(1)</a></p>\n")
    }

    @Test func unsafeModeKeepsRawHTMLAndLinks() {
        #expect(unsafe.render("<script>alert(1)</script>\n") == "<script>alert(1)</script>\n")
        #expect(unsafe.render("[x](javascript:alert(1))") == "<p><a href=\"javascript:alert(1)\">x</a></p>\n")
    }

    @Test func handlesNonASCIIAndCRLFAndNUL() {
        #expect(safe.render("# 한글 제목\r\n\r\n본문 — ünïcödé 😀\r\n")
                == "<h1>한글 제목</h1>\n<p>본문 — ünïcödé 😀</p>\n")
        // cmark replaces NUL with U+FFFD; the length is passed explicitly so nothing is cut off.
        #expect(safe.render("a\u{0}b") == "<p>a\u{FFFD}b</p>\n")
    }

    @Test func substringBackedStringsRender() {
        let text = "xx*em*"
        let tail = String(text.dropFirst(2))
        #expect(safe.render(tail) == "<p><em>em</em></p>\n")
    }
}
