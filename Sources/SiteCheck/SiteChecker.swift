import Foundation
import SiteCore

/// Checks a built site in its output folder, as a static host will serve it under the base URL:
/// links and resources that lead to no file, fragments that name no element, missing images,
/// sitemap entries without a page, and pages no reader can reach.
///
/// - A URL is served from the output the way static hosts do it: the query is ignored, a folder
///   URL (`/x/`) serves `x/index.html`, and `/x` serves the file `x` or else, when
///   `x/index.html` exists, redirects to `/x/` (nginx, Apache, GitHub Pages, Netlify and
///   `sitegen serve` all do), so that counts as found. `/x` is never served from `x.html`:
///   nginx does not. Paths compare byte for byte, case included, as on Linux hosts.
/// - Checked: every URL that resolves (against the page's URL, or its `<base href>`) into the
///   base path on the base URL's host. Not checked: other hosts, schemes other than http(s)
///   (`mailto:`, `tel:`, `javascript:`, `data:`, and `about:invalid#sitegen-unsafe-url`,
///   which sitegen writes in place of an unsafe URL), and paths on the same host outside the
///   base path (another site there).
/// - A fragment (`#id`) pointing into an HTML page must name an `id` there, or the `name` of an
///   `<a>`; an empty fragment, `#top` and text fragments (`#:~:text=`) always work. Fragments
///   into other files (SVG sprites, PDFs) are not checked.
/// - Unreachable: a page that no chain of links (`<a>`, `<area>`, `<iframe>`, GET forms,
///   meta refresh) starting at the home page or at 404.html leads to. The sitemap does not
///   count: it lets search engines find a page, but a reader of the site never could, which is
///   what an unlinked page usually means (a forgotten template link, a pagination bug). Pages
///   linked only from other unreachable pages are reported too, said as such.
public enum SiteChecker {
    /// Checks the site in `output`, published at `site`. `display` is how problems name the
    /// folder (the path as the user typed it, e.g. `public`). Throws when the folder cannot be
    /// read; problems in the site are in the report.
    public static func check(output: URL, display: String, site: SiteAddress) throws(Diagnostics) -> CheckReport {
        let files = try OutputFiles.list(output, display: display)
        let pages = files.filter { $0.hasSuffix(".html") }
        let root = output.path
        let scans = pages.parallelMap(threads: Parallelism.cores, minimumCount: 16) { page in
            Result { () throws(Diagnostic) in
                try OutputFiles.withBytes(
                    root + "/" + page, display: OutputFiles.shown(page, in: display), PageScan.scan)
            }
        }
        var problems: [Diagnostic] = []
        var scanned: [PageScan] = []
        for r in scans {
            switch r {
            case .success(let s): scanned.append(s)
            case .failure(let d): problems.append(d)
            }
        }
        guard problems.isEmpty else { throw Diagnostics(problems) }

        let context = Context(
            site: site, display: display, files: Set(files.map { Array($0.utf8) }), pages: pages, scans: scanned)
        let results = Array(pages.indices).parallelMap(threads: Parallelism.cores, minimumCount: 16) {
            context.checkPage($0)
        }
        var report = CheckReport(pages: pages.count, links: 0, images: 0, problems: [])
        for r in results {
            report.links += r.links
            report.images += r.images
            report.problems += r.problems
        }
        report.problems += context.unreachable(edges: results.map(\.edges))
        let sitemap = context.checkSitemaps(output: output)
        report.links += sitemap.links
        report.problems += sitemap.problems
        report.problems.sort()
        return report
    }
}

/// Everything the checks of one site share, read-only (so pages are checked in parallel).
struct Context: Sendable {
    let site: SiteAddress
    let resolver: LinkResolver
    let display: String
    /// Every file of the output, as bytes of its path under the output folder.
    let files: Set<[UInt8]>
    let pages: [String]
    let scans: [PageScan]
    let pageIndex: [[UInt8]: Int]

    init(site: SiteAddress, display: String, files: Set<[UInt8]>, pages: [String], scans: [PageScan]) {
        self.site = site
        resolver = LinkResolver(site: site)
        self.display = display
        self.files = files
        self.pages = pages
        self.scans = scans
        pageIndex = Dictionary(pages.enumerated().map { (Array($1.utf8), $0) }, uniquingKeysWith: { a, _ in a })
    }

    struct PageResult: Sendable {
        var links = 0
        var images = 0
        var problems: [CheckProblem] = []
        /// The pages this one leads a reader to.
        var edges: Set<Int> = []
    }

    func checkPage(_ index: Int) -> PageResult {
        let file = pages[index]
        let scan = scans[index]
        let here = SitePath(file: file, site: site)
        var base: SitePath? = here
        if let href = scan.base {
            if case .path(let p, _) = resolver.absolute(href, from: here) { base = p } else { base = nil }
        }
        var result = PageResult()
        for ref in scan.references {
            let kind: CheckProblem.Kind = ref.role == .image ? .missingImage : .brokenLink
            func problem(_ message: String) {
                result.problems.append(
                    CheckProblem(kind, Diagnostic(file: shown(file), line: ref.line, column: ref.column, message)))
            }
            var written: String { Self.shortened(ref.url) + (ref.attribute == "srcset" ? " in srcset" : "") }
            if ref.role != .navigation, LinkResolver.cleaned(ref.url).isEmpty {
                if ref.role == .image { result.images += 1 } else { result.links += 1 }
                problem(
                    ref.role == .image ? "missing image: empty \(ref.attribute)" : "broken link: empty \(ref.attribute)"
                )
                continue
            }
            let resolved = resolver.resolve(ref.url, from: base)
            if resolved == .outsideBasePath {
                // A root-relative path written without the base path (`/movies/` for a site under
                // `/movies-site/`): it leaves the site. One meant to is written with its origin.
                if ref.role == .image { result.images += 1 } else { result.links += 1 }
                let what = ref.role == .image ? "missing image" : "broken link to"
                problem("\(what) \(written): outside the site \(site) (it lacks the base path \(site.root))")
                continue
            }
            guard case .inside(let path, let isFolder, let fragment) = resolved else { continue }
            if ref.role == .image { result.images += 1 } else { result.links += 1 }
            switch lookup(path, isFolder: isFolder) {
            case .missing(let tried):
                // `or x/index.html` says what else a link could have meant; an image or a script
                // is a file, and naming the other would be noise.
                let named = ref.role == .navigation ? tried : [tried[0]]
                let what = ref.role == .image ? "missing image" : "broken link to"
                problem("\(what) \(written) (no \(named.map(shown).joined(separator: " or ")))")
            case .found(let target):
                guard let page = pageIndex[target] else { continue }
                if ref.role == .navigation, page != index { result.edges.insert(page) }
                if let fragment, !Self.fragment(fragment, isIn: scans[page].anchors) {
                    let inPage = page == index ? "this page" : shown(pages[page])
                    problem("broken link to \(written) (no id=\"\(Self.shortened(fragment))\" in \(inPage))")
                }
            }
        }
        return result
    }

    enum Lookup {
        case found([UInt8])
        case missing([[UInt8]])
    }

    /// The file a static host serves for a path under the base path (see `SiteChecker`).
    func lookup(_ path: [UInt8], isFolder: Bool) -> Lookup {
        if isFolder {
            let index = path + Array("index.html".utf8)
            return files.contains(index) ? .found(index) : .missing([index])
        }
        if files.contains(path) { return .found(path) }
        let index = path + Array("/index.html".utf8)
        return files.contains(index) ? .found(index) : .missing([path, index])
    }

    /// Whether a fragment names an element of a page with `anchors`. Tried as written and
    /// percent-decoded, as browsers do; "", `top` and text fragments need no element.
    static func fragment(_ fragment: String, isIn anchors: Set<String>) -> Bool {
        var f = Substring(fragment)
        if let directive = f.range(of: ":~:") { f = f[..<directive.lowerBound] }
        if f.isEmpty || anchors.contains(String(f)) { return true }
        let decoded = String(decoding: Percent.decode(Array(f.utf8)), as: UTF8.self)
        return anchors.contains(decoded) || decoded.lowercased() == "top"
    }

    /// Breadth-first from the home page and 404.html over the pages' `edges`: every page not
    /// reached is a problem.
    func unreachable(edges: [Set<Int>]) -> [CheckProblem] {
        var problems: [CheckProblem] = []
        let homeKey = Array("index.html".utf8)
        let roots = [homeKey, Array("404.html".utf8)].compactMap { pageIndex[$0] }
        if pageIndex[homeKey] == nil {
            problems.append(
                CheckProblem(
                    .brokenLink,
                    Diagnostic(file: shown("index.html"), "no home page: \(site.root) has no \(shown("index.html"))")))
        }
        var reached = Set(roots)
        var queue = roots
        while let page = queue.popLast() {
            for next in edges[page] where reached.insert(next).inserted { queue.append(next) }
        }
        var linked = Set<Int>()
        for e in edges { linked.formUnion(e) }
        for page in pages.indices where !reached.contains(page) {
            let why =
                linked.contains(page)
                ? "only pages that cannot be reached themselves link to it" : "no page links to it"
            let url = SitePath(file: pages[page], site: site).text
            problems.append(
                CheckProblem(.unreachablePage, Diagnostic(file: shown(pages[page]), "unreachable page \(url): \(why)")))
        }
        return problems
    }

    /// `sitemap.xml`, and the sitemaps a sitemap index names: every entry an absolute URL into
    /// the site that leads to a file.
    func checkSitemaps(output: URL) -> (links: Int, problems: [CheckProblem]) {
        var links = 0
        var problems: [CheckProblem] = []
        var queue = [Array("sitemap.xml".utf8)]
        var seen = Set(queue)
        while let name = queue.popLast() {
            guard files.contains(name) else { continue }
            let file = String(decoding: name, as: UTF8.self)
            let sitemap: SitemapFile
            do {
                sitemap = try OutputFiles.withBytes(output.path + "/" + file, display: shown(file), SitemapFile.read)
            } catch {
                problems.append(CheckProblem(.brokenLink, error))
                continue
            }
            for entry in sitemap.entries {
                links += 1
                func problem(_ message: String) {
                    problems.append(
                        CheckProblem(
                            .brokenLink, Diagnostic(file: shown(file), line: entry.line, column: entry.column, message))
                    )
                }
                let what = sitemap.isIndex ? "sitemap index entry" : "sitemap entry"
                guard LinkResolver.scheme(of: LinkResolver.cleaned(entry.url)[...]) != nil else {
                    problem(
                        "\(what) \(Self.shortened(entry.url)) is not an absolute URL (sitemaps need the full \(site)…)")
                    continue
                }
                guard case .inside(let path, let isFolder, _) = resolver.resolve(entry.url, from: nil) else {
                    problem("\(what) \(Self.shortened(entry.url)) is outside the site \(site)")
                    continue
                }
                switch lookup(path, isFolder: isFolder) {
                case .missing(let tried):
                    let named = sitemap.isIndex ? [tried[0]] : tried  // a sitemap is a file, a page may be a folder
                    problem(
                        "\(what) \(Self.shortened(entry.url)) leads to no file (no "
                            + "\(named.map(shown).joined(separator: " or ")))"
                    )
                case .found(let target):
                    if sitemap.isIndex, seen.insert(target).inserted { queue.append(target) }
                }
            }
        }
        return (links, problems)
    }

    func shown(_ file: String) -> String { OutputFiles.shown(file, in: display) }
    func shown(_ file: [UInt8]) -> String { shown(String(decoding: file, as: UTF8.self)) }

    /// A URL or fragment as messages show it: whole when short, else its start (a `data:` URL
    /// can run to megabytes).
    static func shortened(_ text: String) -> String {
        text.count <= 200 ? text : text.prefix(200) + "…"
    }
}

/// The files of the output folder.
enum OutputFiles {
    /// Every file under `folder` (a symbolic link to a file counts, as hosts follow it; one to a
    /// folder is not entered, which keeps a link cycle from looping), as paths relative to it,
    /// sorted. Read with `readdir`, whose entry types spare a `stat` per file: Foundation's
    /// enumerator took most of the check's time on a 15,000-page site.
    static func list(_ folder: URL, display: String) throws(Diagnostics) -> [String] {
        let root = folder.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder), isFolder.boolValue else {
            throw Diagnostics([
                Diagnostic(file: display, "no output folder at \(root) (build the site first: sitegen build)")
            ])
        }
        var files: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let path = relative.isEmpty ? root : root + "/" + relative
            guard let dir = opendir(path) else {
                throw Diagnostics([Diagnostic(file: shown(relative, in: display), "cannot read this folder")])
            }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                let child = relative.isEmpty ? name : relative + "/" + name
                switch Int32(entry.pointee.d_type) {
                case Int32(DT_DIR): pending.append(child)
                case Int32(DT_REG): files.append(child)
                default:  // a link, or a file system that does not say: ask
                    var info = stat()
                    if stat(root + "/" + child, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
                        files.append(child)
                    } else if lstat(root + "/" + child, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                        pending.append(child)
                    }
                }
            }
        }
        return files.sorted()
    }

    /// Runs `body` over a file's bytes.
    static func withBytes<T>(_ path: String, display: String, _ body: (UnsafeBufferPointer<UInt8>) -> T)
        throws(Diagnostic) -> T
    {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Diagnostic(file: display, "cannot read this file")
        }
        return data.withUnsafeBytes { body($0.bindMemory(to: UInt8.self)) }
    }

    /// A file of the output as messages name it: `public/bounties/index.html`.
    static func shown(_ file: String, in display: String) -> String {
        display.isEmpty ? file : display.hasSuffix("/") ? display + file : display + "/" + file
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
