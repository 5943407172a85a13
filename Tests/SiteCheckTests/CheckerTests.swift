import Foundation
import SiteCore
import Testing
@testable import SiteCheck

/// A temporary output folder.
struct OutputFolder {
    let root: URL

    init(_ files: [String: String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-check-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    func check(_ baseURL: String = "https://example.org/") throws -> CheckReport {
        guard let site = SiteAddress(baseURL: baseURL) else { throw Diagnostic(file: baseURL, "not a base URL") }
        return try SiteChecker.check(output: root, display: "public", site: site)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

@Suite struct CheckerTests {
    /// A page of the shape the theme writes: navigation to every section.
    static func page(_ body: String) -> String {
        """
        <!DOCTYPE html>
        <html><head><link rel="stylesheet" href="/assets/site.css"><link rel="icon" href="/icon.png"></head>
        <body><a href="#main">skip</a><nav><a href="/">home</a> <a href="/bounties/">bounties</a></nav>
        <main id="main">\(body)</main></body></html>
        """
    }

    static let cleanSite: [String: String] = [
        "index.html": page(
            #"<a href="/notes/about/#intro">about</a> <img src="/images/a.png" srcset="/images/a.png 1x, images/b.png 2x" alt="">"#
        ),
        "404.html": page(#"<a href="https://example.org/">home</a>"#),
        "bounties/index.html": page(
            #"<a href="luffy/">luffy</a> <a href="../notes">notes, no slash</a> <a href="/people/%EB%A3%A8%ED%94%BC/">루피</a>"#
        ),
        "bounties/luffy/index.html": page(
            #"<a href="../">back</a> <a href="https://other.example/x">elsewhere</a> <a href="mailto:a@b.c">mail</a> <a href="about:invalid#sitegen-unsafe-url">neutralised</a> <script src="/app.js"></script>"#
        ),
        "notes/index.html": page(#"<a href="about/">about</a>"#),
        "notes/about/index.html": page(
            ##"<h2 id="intro">Intro</h2><a href="#top">top</a> <a href="?page=2#intro">again</a>"##),
        "people/루피/index.html": page(#"<video poster="/images/b.png" src="/v.mp4"></video>"#),
        "assets/site.css": "", "icon.png": "", "app.js": "", "v.mp4": "", "images/a.png": "", "images/b.png": "",
        "sitemap.xml": """
        <?xml version="1.0" encoding="UTF-8"?>
        <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>https://example.org/</loc></url>
          <url><loc>https://example.org/people/%EB%A3%A8%ED%94%BC/</loc><lastmod>2026-01-01</lastmod></url>
          <url><loc> <![CDATA[https://example.org/notes/about/]]> </loc></url>
        </urlset>
        """
    ]

    @Test func aCleanSiteHasNoProblem() throws {
        let folder = try OutputFolder(Self.cleanSite)
        defer { folder.remove() }
        let report = try folder.check()
        #expect(report.problems.map(\.description) == [])
        #expect(report.pages == 7)
        // Per page: the style sheet, `#main`, `/`, `/bounties/` (4 × 7 = 28), plus 1 on the home
        // page, 1 on 404, 3 on bounties, 2 on luffy, 1 on notes, 2 on about, 1 (video) on 루피,
        // plus 3 sitemap entries.
        #expect(report.links == 28 + 1 + 1 + 3 + 2 + 1 + 2 + 1 + 3)
        // The icon on every page (7), src and two srcset candidates on home, the poster.
        #expect(report.images == 7 + 3 + 1)
        #expect(
            report.summary
                == "7 pages, 42 links, 11 images checked; 0 broken links, 0 missing images, 0 unreachable pages")
    }

    @Test func everyKindOfProblem() throws {
        var files = Self.cleanSite
        files["index.html"] = Self.page(
            """
            <a href="/notes/about/#intro">about</a> <a href="/bounties/luffy/#nowhere">luffy</a> <a href="#missing">x</a>
            <a href="/gone/">gone</a> <a href="/gone">gone without a slash</a> <img src="/images/nope.png" alt="">
            <img src="/images/a.png" srcset="/images/a.png 1x, /images/nope@2x.png 2x" alt=""> <img src="" alt="">
            <script src="/missing.js"></script> <a href="https://example.org/also-gone/">absolute</a> <a href="/c%C3%A9/">encoded</a>
            """)
        files.removeValue(forKey: "icon.png")
        files["orphan/index.html"] = Self.page(#"<a href="../island/">island</a>"#)
        files["island/index.html"] = Self.page(#"<a href="../orphan/">back</a>"#)
        files["sitemap.xml"] = """
            <urlset>
            <url><loc>https://example.org/notes/</loc></url>
            <url><loc>https://example.org/not-there/</loc></url>
            <url><loc>https://elsewhere.example/x/</loc></url>
            <url><loc>/relative/</loc></url>
            </urlset>
            """
        let folder = try OutputFolder(files)
        defer { folder.remove() }
        let report = try folder.check()
        let icon = "missing image /icon.png (no public/icon.png)"
        #expect(
            report.problems.map(\.description) == [
                "public/404.html:2:83: error: \(icon)",
                "public/bounties/index.html:2:83: error: \(icon)",
                "public/bounties/luffy/index.html:2:83: error: \(icon)",
                "public/index.html:2:83: error: \(icon)",
                "public/index.html:4:66: error: broken link to /bounties/luffy/#nowhere (no id=\"nowhere\" in public/bounties/luffy/index.html)",
                "public/index.html:4:111: error: broken link to #missing (no id=\"missing\" in this page)",
                "public/index.html:5:10: error: broken link to /gone/ (no public/gone/index.html)",
                "public/index.html:5:36: error: broken link to /gone (no public/gone or public/gone/index.html)",
                "public/index.html:5:78: error: missing image /images/nope.png (no public/images/nope.png)",
                "public/index.html:6:34: error: missing image /images/nope@2x.png in srcset (no public/images/nope@2x.png)",
                "public/index.html:6:94: error: missing image: empty src",
                "public/index.html:7:14: error: broken link to /missing.js (no public/missing.js)",
                "public/index.html:7:46: error: broken link to https://example.org/also-gone/ (no public/also-gone/index.html)",
                "public/index.html:7:100: error: broken link to /c%C3%A9/ (no public/cé/index.html)",
                "public/island/index.html: error: unreachable page /island/: only pages that cannot be reached themselves link to it",
                "public/island/index.html:2:83: error: \(icon)",
                "public/notes/about/index.html:2:83: error: \(icon)",
                "public/notes/index.html:2:83: error: \(icon)",
                "public/orphan/index.html: error: unreachable page /orphan/: only pages that cannot be reached themselves link to it",
                "public/orphan/index.html:2:83: error: \(icon)",
                "public/people/루피/index.html:2:83: error: \(icon)",
                "public/sitemap.xml:3:11: error: sitemap entry https://example.org/not-there/ leads to no file (no public/not-there/index.html)",
                "public/sitemap.xml:4:11: error: sitemap entry https://elsewhere.example/x/ is outside the site https://example.org/",
                "public/sitemap.xml:5:11: error: sitemap entry /relative/ is not an absolute URL (sitemaps need the full https://example.org/…)"
            ])
        #expect(
            report.count(.brokenLink) == 10 && report.count(.missingImage) == 12 && report.count(.unreachablePage) == 2)
        #expect(report.summary.hasSuffix("checked; 10 broken links, 12 missing images, 2 unreachable pages"))
    }

    /// Browsers scroll to the top for `top` in any ASCII case; every other fragment must match an
    /// id exactly, case included.
    @Test func topIsCaseInsensitiveAndIdsAreNot() {
        let ids: Set<String> = ["intro", "Caf%C3%A9", "한글"]
        for ok in [
            "top", "TOP", "Top", "tOp", "%54op", "", "intro", ":~:text=x", "intro:~:text=x", "%ED%95%9C%EA%B8%80", "한글",
            "Caf%C3%A9"
        ] {
            #expect(Context.fragment(ok, isIn: ids), "#\(ok)")
        }
        for broken in ["Intro", "INTRO", "tops", "to", "top ", "caf%c3%a9x", "한"] {
            #expect(!Context.fragment(broken, isIn: ids), "#\(broken)")
        }
    }

    @Test func aPageNobodyLinksTo() throws {
        let folder = try OutputFolder([
            "index.html":
                #"<a href="/a/">a</a> <link rel="canonical" href="/"> <a href="/a/#x">self-link elsewhere</a>"#,
            "a/index.html": #"<p id="x"><a href="./">self</a>"#,
            "b/index.html": #"<a href="/b/">only itself</a> <link rel="next" href="/c/">"#,
            "c/index.html": #"<a href="/">home</a>"#
        ])
        defer { folder.remove() }
        #expect(
            try folder.check().problems.map(\.description) == [
                "public/b/index.html: error: unreachable page /b/: no page links to it",
                "public/c/index.html: error: unreachable page /c/: no page links to it"
            ])
    }

    @Test func noHomePage() throws {
        let folder = try OutputFolder(["404.html": #"<a href="/a/">a</a>"#, "a/index.html": "", "b.html": ""])
        defer { folder.remove() }
        #expect(
            try folder.check().problems.map(\.description) == [
                "public/b.html: error: unreachable page /b.html: no page links to it",
                "public/index.html: error: no home page: / has no public/index.html"
            ])
    }

    /// Under a base path, root-relative links must carry it: one that lacks it leaves the site
    /// (a link meant for another site on the host is written with its origin), and the sitemap
    /// lists the base path's URLs.
    @Test func underABasePath() throws {
        let folder = try OutputFolder([
            "index.html":
                #"<a href="/apps/x/">x</a> <a href="x/">x</a> <a href="/apps">home</a> <a href="/other-site/">not ours</a> <img src="/apps/i.png" alt=""> <img src="/i.png" alt="">"#,
            "x/index.html":
                #"<a href="../">up</a> <a href="/x/">wrong root</a> <a href="https://example.org/apps/">home</a>"#,
            "i.png": "",
            "sitemap.xml":
                "<sitemapindex><sitemap><loc>https://example.org/apps/sitemap-1.xml</loc></sitemap><sitemap><loc>https://example.org/apps/sitemap-2.xml</loc></sitemap></sitemapindex>",
            "sitemap-1.xml":
                "<urlset><url><loc>https://example.org/apps/x/</loc></url><url><loc>https://example.org/x/</loc></url></urlset>"
        ])
        defer { folder.remove() }
        let report = try folder.check("https://example.org/apps/")
        let outside = "outside the site https://example.org/apps/ (it lacks the base path /apps/)"
        #expect(
            report.problems.map(\.description) == [
                "public/index.html:1:79: error: broken link to /other-site/: \(outside)",
                "public/index.html:1:147: error: missing image /i.png: \(outside)",
                "public/sitemap-1.xml:1:68: error: sitemap entry https://example.org/x/ is outside the site https://example.org/apps/",
                "public/sitemap.xml:1:97: error: sitemap index entry https://example.org/apps/sitemap-2.xml leads to no file (no public/sitemap-2.xml)",
                "public/x/index.html:1:31: error: broken link to /x/: \(outside)"
            ])
        #expect(report.links == 7 + 4, "seven links on the pages, two sitemaps and two pages in them")
        #expect(report.images == 2)
    }

    /// `<base href>` changes what relative URLs mean; on another site, they are not checked.
    @Test func baseElement() throws {
        let folder = try OutputFolder([
            "index.html":
                ##"<base href="/docs/"><a href="a/">a</a> <a href="b/">b</a> <a href="#frag">f</a> <a href="#nope">f</a>"##,
            "elsewhere.html":
                #"<base href="https://cdn.example/"><a href="missing/">not ours</a> <a href="/missing/">not ours either</a> <a href="https://example.org/missing/">ours</a>"#,
            "docs/a/index.html": #"<a href="/elsewhere.html">e</a>"#,
            "docs/index.html": #"<p id="frag">"#
        ])
        defer { folder.remove() }
        // `#frag` is /docs/#frag here: it makes /docs/ reachable.
        #expect(
            try folder.check().problems.map(\.description) == [
                "public/elsewhere.html:1:116: error: broken link to https://example.org/missing/ (no public/missing/index.html)",
                "public/index.html:1:49: error: broken link to b/ (no public/docs/b/index.html)",
                "public/index.html:1:90: error: broken link to #nope (no id=\"nope\" in public/docs/index.html)"
            ])
    }

    @Test func aMissingOutputFolderIsAnError() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sitegen-check-missing-\(UUID().uuidString)")
        let result = Result { () throws(Diagnostics) in
            try SiteChecker.check(
                output: missing, display: "public", site: SiteAddress(baseURL: "https://example.org/")!)
        }
        guard case .failure(let d) = result else { Issue.record("expected an error"); return }
        #expect(
            d.description == "public: error: no output folder at \(missing.path) (build the site first: sitegen build)")
    }

    @Test func countsAreGroupedByThousands() {
        #expect(CheckReport.counted(0, "page") == "0 pages")
        #expect(CheckReport.counted(1, "missing image") == "1 missing image")
        #expect(CheckReport.counted(1234, "link") == "1,234 links")
        #expect(CheckReport.counted(1_234_567, "link") == "1,234,567 links")
        #expect(CheckReport.counted(100_000, "link") == "100,000 links")
    }

    @Test func problemsSortByLineAsNumbers() {
        let a = CheckProblem(.brokenLink, Diagnostic(file: "a.html", line: 9, column: 1, "x"))
        let b = CheckProblem(.brokenLink, Diagnostic(file: "a.html", line: 10, column: 1, "x"))
        let c = CheckProblem(.unreachablePage, Diagnostic(file: "a.html", "x"))
        #expect([b, a, c].sorted() == [c, a, b])
    }

    /// File before line, column as a number before message.
    @Test func problemsSortByFileColumnThenMessage() {
        func p(_ file: String, _ column: Int, _ message: String) -> CheckProblem {
            CheckProblem(.brokenLink, Diagnostic(file: file, line: 1, column: column, message))
        }
        let expected = [p("a.html", 2, "y"), p("a.html", 10, "x"), p("a.html", 10, "y"), p("b.html", 1, "a")]
        #expect(expected.reversed().sorted() == expected)
    }
}
