import Testing
@testable import SiteCheck

/// The tag scanner finds the URLs a browser would, and only those.
@Suite struct ScannerTests {
    func scan(_ html: String) -> PageScan {
        var bytes = Array(html.utf8)
        return bytes.withUnsafeMutableBufferPointer { PageScan.scan(UnsafeBufferPointer($0)) }
    }

    func urls(_ html: String) -> [String] { scan(html).references.map(\.url) }

    @Test func quotedAndUnquotedValues() {
        let html =
            #"<a title='x > y' href="/double quoted/">a</a><a href='/single/'>b</a><a data-x=1 href=/unquoted/>c</a><A HREF = "/spaced/" >d</A><a href>e</a>"#
        #expect(urls(html) == ["/double quoted/", "/single/", "/unquoted/", "/spaced/", ""])
    }

    /// A tag written inside a quoted value is text, and the real attribute after it counts.
    @Test func quotesHideMarkup() {
        #expect(urls(#"<a title="<a href='/fake/'>" href="/real/">x</a>"#) == ["/real/"])
        #expect(urls(#"<img alt='"<img src=/fake.png>' src="/real.png">"#) == ["/real.png"])
    }

    /// The HTML parser keeps the first of repeated attributes.
    @Test func firstAttributeWins() {
        #expect(urls(#"<a href="/first/" href="/second/">x</a>"#) == ["/first/"])
    }

    @Test func characterReferencesInValues() {
        let html =
            #"<a href="/search/?a=1&amp;b=2">1</a><a href="&#47;slash&#x2F;">2</a><a href="/x?a=1&copy=2&lt=3">3</a>"#
            + #"<a href="/&unknown;&amp">4</a><a href="/caf&#233;/">5</a><a href="/z&#0;&#x110000;&#128;">6</a><a href="/a&colon;b&NewLine;">7</a>"#
        #expect(
            urls(html) == [
                "/search/?a=1&b=2", "/slash/", "/x?a=1&copy=2&lt=3", "/&unknown;&", "/café/", "/z\u{FFFD}\u{FFFD}€",
                "/a:b\n"
            ])
    }

    @Test func commentsAndDeclarationsAreSkipped() {
        let html = """
            <!DOCTYPE html><!-- <a href="/commented/"> --><a href="/one/">1</a>
            <!--> <a href="/two/">2</a> <!---> <a href="/three/">3</a>
            <!-- a -- b <a href="/still-comment/"> --!> <a href="/four/">4</a>
            <?php echo '<a href="/pi/">' ?> <![CDATA[ x ]]> <a href="/five/">5</a>
            """
        #expect(urls(html) == ["/one/", "/two/", "/three/", "/four/", "/five/"])
    }

    /// Script and style contents are text: a "tag" in a string there is no link.
    @Test func rawTextElements() {
        let html = """
            <script>var s = "<a href='/in-script/'>"; if (a </scripts) {}</script ><a href="/after-script/">x</a>
            <style>a::after { content: "<img src=/in-style.png>" }</STYLE><a href="/after-style/">x</a>
            <title><a href="/in-title/"></title><textarea><img src="/in-textarea.png"></textarea>
            <noscript><a href="/in-noscript/">without JavaScript</a></noscript>
            <script src="/app.js"></script><a href="/last/">x</a>
            """
        #expect(urls(html) == ["/after-script/", "/after-style/", "/in-noscript/", "/app.js", "/last/"])
        #expect(urls("<script>no end <a href='/x/'>") == [])
    }

    @Test func endTagsAndStrayBrackets() {
        #expect(urls(#"a < b <> </ x> </a title="<a href='/no/'>"> <a href="/yes/">"#) == ["/yes/"])
        #expect(urls(#"<a href="/cut-off/"#) == [], "a tag cut off by the end of the file is dropped")
        #expect(urls(#"<a href="/ok/"><img src="/unterminated.png"#) == ["/ok/"])
    }

    @Test func srcsetCandidates() {
        #expect(PageScan.candidates("a.jpg 1x, /b.jpg 2x") == ["a.jpg", "/b.jpg"])
        #expect(PageScan.candidates("  a.jpg 480w,b.jpg  800w  ") == ["a.jpg", "b.jpg"])
        #expect(PageScan.candidates("a.jpg, b.jpg,, c.jpg") == ["a.jpg", "b.jpg", "c.jpg"])
        #expect(
            PageScan.candidates("img(1).jpg 1x, x.jpg (max-width: 2,3) 2x, y.jpg") == ["img(1).jpg", "x.jpg", "y.jpg"])
        #expect(PageScan.candidates("data:image/png;base64,iVBOR= 1x") == ["data:image/png;base64,iVBOR="])
        #expect(PageScan.candidates(" , ") == [])
        let page = scan(
            #"<picture><source srcset="/a.webp 1x, /b.webp 2x"><img src="/a.jpg" srcset="/a.jpg 1x, /c.jpg 2x"></picture>"#
        )
        #expect(
            page.references.map { "\($0.attribute) \($0.url) \($0.role)" } == [
                "srcset /a.webp image", "srcset /b.webp image", "src /a.jpg image", "srcset /a.jpg image",
                "srcset /c.jpg image"
            ])
    }

    @Test func rolesOfReferences() {
        let html = """
            <link rel="stylesheet" href="/s.css"><link rel="shortcut icon" href="/i.png"><link rel="preconnect" href="https://cdn.example">
            <form action="/search/"></form><form method=POST action="/subscribe"></form><input type=image src="/go.png"><input src="/not-image.png">
            <video src="/v.mp4" poster="/p.jpg"><track src="/t.vtt"></video><iframe src="/frame/"></iframe><object data="/o.svg"></object>
            <meta http-equiv="Refresh" content="0; URL='/moved/'"><meta name="x" content="/not-a-url/"><area href="/map/"><svg><image href="/svg.png"/></svg>
            """
        #expect(
            scan(html).references.map { "\($0.url) \($0.role)" } == [
                "/s.css resource", "/i.png image", "/search/ navigation", "/go.png image", "/v.mp4 resource",
                "/p.jpg image",
                "/t.vtt resource", "/frame/ navigation", "/o.svg resource", "/moved/ navigation", "/map/ navigation",
                "/svg.png image"
            ])
    }

    @Test func metaRefresh() {
        #expect(PageScan.refreshURL("5; url=/next/") == "/next/")
        #expect(PageScan.refreshURL("0;URL = \"/q/\"") == "/q/")
        #expect(PageScan.refreshURL("0, /bare/") == "/bare/")
        #expect(PageScan.refreshURL("30") == nil)
        #expect(PageScan.refreshURL("soon; url=/x/") == nil)
    }

    @Test func anchorsAndBase() {
        let page = scan(
            #"<base href="/docs/"><h2 id="intro">x</h2><a name="old-anchor"></a><p name="not-an-anchor" id="">"#
                + #"<div id="caf&eacute;" ID="ignored"><span id="&#51060;&#47492;"></span><base href="/second/">"#)
        #expect(page.anchors == ["intro", "old-anchor", "caf&eacute;", "이름"])
        #expect(page.base == "/docs/")
    }

    /// Lines end at LF, CR LF or CR; columns count characters, not bytes.
    @Test func linesAndColumns() {
        let page = scan("<p>한글</p>\r\n<a\n   href=\"/a/\">\r<img alt=\"é\" src=/b.png>")
        #expect(page.references.map { "\($0.line):\($0.column)" } == ["3:10", "4:18"])
        let same = scan(#"<img srcset="/x.png 2x" src="/y.png">"#)
        #expect(same.references.map { "\($0.url) \($0.line):\($0.column)" } == ["/y.png 1:30", "/x.png 1:14"])
    }

    /// The scanner's branches each move past the right bytes: a `>` inside a comment or inside an end
    /// tag's quoted value, `<plaintext>`, and a `<` as the last byte.
    @Test func scannerBoundaries() {
        #expect(urls(#"<!-- x > <a href="/in-comment/"> --><a href="/after/">"#) == ["/after/"])
        #expect(urls(#"</p title="x>y <a href='/in-end-tag/'>"><a href="/after/">"#) == ["/after/"])
        #expect(urls(#"<a href="/before/"><plaintext><a href="/as-text/">"#) == ["/before/"])
        #expect(urls(#"<a href="/x/">text <"#) == ["/x/"])
        #expect(urls(#"<script>s = "</scripts><a href='/in-script/'>"</script>"#) == [], "</scripts ends no script")
    }

    /// Numeric and named references at the edges of what the standard decodes.
    @Test func characterReferenceEdges() {
        let html =
            #"<a href="&#X2F;a">1</a><a href="/&#x100000041;">2</a><a href="/&#;&#x;">3</a>"#
            + #"<a href="/&colon/">4</a><a href="/&#65a;">5</a>"#
        #expect(urls(html) == ["/a", "/\u{FFFD}", "/&#;&#x;", "/&colon/", "/Aa;"])
    }

    @Test func emptyNamesFormsAndRefreshes() {
        #expect(scan(#"<a name="">x</a>"#).anchors.isEmpty)
        #expect(
            urls(#"<form method action="/empty-method/"></form><form method=dialog action="/d/"></form>"#)
                == ["/empty-method/"])
        #expect(PageScan.refreshURL("1.5; url=/x/") == "/x/")
        #expect(PageScan.refreshURL("0; urls.html") == "urls.html")
        #expect(PageScan.candidates("a.jpg 1x), b.jpg") == ["a.jpg", "b.jpg"], "an unmatched ) is no nesting")
    }
}
