import Foundation
import SiteCore
import SiteLoad
import SiteRender
import SiteWrite

/// The phases from the model on, which every build shares — `sitegen build`'s (a `FullBuild`),
/// `serve`'s first and its rebuilds (`SiteSession`): diff against what was written, render the
/// pages that changed, write the other files that changed, publish the images.
enum BuildPass {
    /// What is in the output folder, as of the last successful pass: its output state, what
    /// the next pass compares with.
    struct Written: Sendable {
        /// Every page: its view, path and fingerprint, in the plan's order.
        var views: [PageView]
        var paths: [String]
        var prints: [Int]
        var files: Set<PlannedFile>
        var sitemaps: Set<String>
        /// Each page's `lastmod` as of the sitemap written (nil: none written yet): with the
        /// pages' kinds and paths, all a sitemap is made from.
        var sitemapDates: [CalendarDate?]?
        /// The notes' feed's notes and their versions, as of the feed written.
        var feedKey: Int?
        /// Output file of each page path (computing it decodes the path).
        var pageFiles: [String: String]
        var collectionVersions: [String: Int]
        var noteVersions: [String: Int]  // note file → version
        var contentFiles: Set<String>  // every file of the content tree
        var generation: Int
        /// The bytes of files made from the whole model (the feed, robots.txt), to write them
        /// only when they change.
        var generated: [String: Data] = [:]

        /// Nothing written yet: what a full build starts from.
        static func nothing(generation: Int, content: ContentTree) -> Written {
            Written(views: [], paths: [], prints: [], files: [], sitemaps: [], sitemapDates: nil, feedKey: nil, pageFiles: [:], collectionVersions: [:], noteVersions: [:],
                    contentFiles: Set(content.datasets + content.notes + content.staticFiles), generation: generation)
        }
    }

    /// What changed in the sources since `Written` (a full build: nothing was written, so
    /// everything is new whatever these say).
    struct Changes {
        /// Files under `content/` (relative to it), under `templates/assets/`, and collections reloaded.
        var content: Set<String> = []
        var assets: Set<String> = []
        var collections: Set<String> = []
    }

    /// What one pass of the shared phases did.
    struct Pass {
        var dirty: [PlannedPage]
        /// Output files no longer written (to remove), and the page paths among them.
        var gone: [String]
        var removedPages: [String]
        var filesWritten: Int
        /// Files other than pages, feeds, robots.txt and sitemaps (a stylesheet, an image …).
        var otherFilesWritten: Int
    }

    /// The phases from the model on, shared by `sitegen build` and every rebuild of `serve`:
    /// plan (every page and its fingerprint, against what `written` holds), render the pages
    /// whose fingerprint changed, write the other files that changed. A full build is a pass over
    /// an empty `Written`: every page and file is new, so everything is rendered and written.
    /// `plan`: the model's, when the caller made it already (checked by `SitePlan.checked`).
    static func run(_ model: SiteModel, plan planned: SitePlan? = nil, options: BuildOptions, changes: Changes,
                    written versions: inout Written, to sink: some SiteSink, clock: inout PhaseClock) throws(Diagnostics) -> Pass {
        let plan: SitePlan
        if let planned { plan = planned } else { plan = try SitePlan.checked(model) }
        let renderer = PageRenderer(model: model, plan: plan)
        // Pages whose fingerprint changed, and the other files that changed.
        let pages = plan.pages
        let views = pages.map(\.view), paths = pages.map(\.path), prints = Self.fingerprints(model, plan, versions)
        let files = plan.files
        let newFiles = Set(files)
        // The same kinds, paths and dates make the same sitemap (the base URL is the site's
        // configuration: another one starts a new session's `Written`).
        let dates = pages.map(\.lastModified)
        let sitemapSame = versions.sitemapDates == dates && views == versions.views && paths == versions.paths
        let sitemaps = sitemapSame ? nil : SiteFiles.sitemaps(plan, urls: model.urls)
        let sitemapPaths = sitemaps.map { Set($0.map(\.path)) } ?? versions.sitemaps
        var pass = Pass(dirty: [], gone: [], removedPages: [], filesWritten: 0, otherFilesWritten: 0)
        if views == versions.views && paths == versions.paths && newFiles == versions.files && sitemapPaths == versions.sitemaps {
            // The same files as before (the usual edit): compare fingerprints page by page.
            for i in prints.indices where prints[i] != versions.prints[i] { pass.dirty.append(pages[i]) }
        } else {
            (pass.dirty, pass.gone, pass.removedPages) = try Self.replan(pages, prints: prints, files: files, sitemaps: sitemapPaths, urls: model.urls, written: &versions)
        }
        clock.lap("plan")
        try renderer.render(pass.dirty, to: sink)
        clock.lap("render")
        var copies: [PlannedFile] = []
        do {
            for f in files {
                if case .image = f.kind {
                    // A changed source gets a new key, so a new path: only new paths are copied.
                    if !versions.files.contains(f) { copies.append(f) }
                    continue
                }
                if f.kind == .notesFeed || f.kind == .robots || f.kind == .codeStyles {
                    if f.kind == .notesFeed {
                        // Made only when one of its notes, or which notes it has, changed.
                        let key = Self.feedKey(model, versions)
                        guard key != versions.feedKey || !versions.files.contains(f) else { continue }
                        versions.feedKey = key
                    }
                    let data = try SiteFiles.data(f, model: model, source: options.source)
                    guard versions.generated[f.path] != data || !versions.files.contains(f) else { continue }
                    try sink.write(data, to: f.path, source: f.source)
                    versions.generated[f.path] = data
                    pass.filesWritten += 1
                    continue
                }
                let changed: Bool
                switch f.kind {
                case .content(let rel): changed = changes.content.contains(rel)
                case .userAsset(let rel): changed = changes.assets.contains(rel)
                case .builtinAsset: changed = false
                case .searchIndex(let name): changed = changes.collections.contains(name)
                case .collectionFeed(let name): changed = changes.collections.contains(name)
                case .notesFeed, .robots, .codeStyles, .image: changed = false  // handled above
                }
                guard changed || !versions.files.contains(f) else { continue }
                try sink.write(try SiteFiles.data(f, model: model, source: options.source), to: f.path, source: f.source)
                pass.filesWritten += 1
                pass.otherFilesWritten += 1
            }
            for s in sitemaps ?? [] {
                try sink.write(s.data, to: s.path, source: "sitemap")
                pass.filesWritten += 1
            }
        } catch { throw Diagnostics([error]) }
        try copy(copies, encodes: model.inputs.images.encodes, to: sink, threads: options.threads)
        pass.filesWritten += copies.count
        pass.otherFilesWritten += copies.count
        versions.views = views
        versions.paths = paths
        versions.prints = prints
        versions.files = newFiles
        versions.sitemaps = sitemapPaths
        versions.sitemapDates = dates
        Self.freeLater((plan, renderer))
        return pass
    }

    /// Frees `value` on another thread: a plan of 15,000 pages, or a model an edit replaced, takes
    /// milliseconds to free, which the page waiting for its reload should not wait for.
    static func freeLater<T: Sendable>(_ value: T) {
        // A moment later, so the caller's own references are gone by then (were they not, the
        // caller frees it: the same, only slower).
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .milliseconds(100)) { withExtendedLifetime(value) {} }
    }

    /// Copies resized images from the cache into the site: those in the cache first, then, once
    /// they are done, those of `encodes` still under way.
    static func copy(_ images: [PlannedFile], encodes: PendingEncodes?, to sink: some SiteSink, threads: Int) throws(Diagnostics) {
        guard let encodes else {
            do throws(Diagnostic) { try copy(images, to: sink, threads: threads) } catch { throw Diagnostics([error]) }
            return
        }
        var now: [PlannedFile] = [], later: [PlannedFile] = []
        for f in images {
            if case .image(let cached) = f.kind, encodes.makes(cached) { later.append(f) } else { now.append(f) }
        }
        do throws(Diagnostic) { try copy(now, to: sink, threads: threads) } catch {
            _ = encodes.wait()
            throw Diagnostics([error])
        }
        if let problems = encodes.wait() { throw problems }
        do throws(Diagnostic) { try copy(later, to: sink, threads: threads) } catch { throw Diagnostics([error]) }
    }

    /// Publishes resized images from the cache (hard links where it can), on `threads` threads (a
    /// site has a thousand of them; each is a few system calls).
    private static func copy(_ images: [PlannedFile], to sink: some SiteSink, threads: Int) throws(Diagnostic) {
        let failures = images.parallelMap(threads: threads) { f -> Diagnostic? in
            guard case .image(let cached) = f.kind else { return nil }
            do throws(Diagnostic) { try sink.share(cached, to: f.path, source: f.source) } catch { return error }
            return nil
        }
        if let first = failures.lazy.compactMap({ $0 }).first { throw first }
    }

    /// Dirty pages and files no longer written, when pages or files came or went: every output
    /// file is claimed once (two things writing one file is an error, as in a full build).
    private static func replan(_ pages: [PlannedPage], prints: [Int], files: [PlannedFile], sitemaps: Set<String>,
                               urls: URLScheme, written: inout Written) throws(Diagnostics) -> (dirty: [PlannedPage], gone: [String], removedPages: [String]) {
        enum Owner { case page(String), file(String), sitemap }
        var owners: [String: Owner] = [:]
        var problems: [Diagnostic] = []
        func describe(_ o: Owner) -> String {
            switch o {
            case .page(let source), .file(let source): source
            case .sitemap: "sitemap"
            }
        }
        func claim(_ file: String, _ owner: Owner) {
            if let previous = owners.updateValue(owner, forKey: file) {
                problems.append(Diagnostic(file: describe(owner), "'\(file)' is also written by \(describe(previous))"))
            }
        }
        func file(_ path: String) -> String {
            if let f = written.pageFiles[path] { return f }
            let f = urls.file(ofPagePath: path)
            written.pageFiles[path] = f
            return f
        }
        var before: [String: Int] = [:]
        for (path, fingerprint) in zip(written.paths, written.prints) { before[file(path)] = fingerprint }
        var dirty: [PlannedPage] = []
        for (page, fingerprint) in zip(pages, prints) {
            let f = file(page.path)
            claim(f, .page(page.source))
            if before[f] != fingerprint { dirty.append(page) }
        }
        for f in files { claim(f.path, .file(f.source)) }
        for path in sitemaps { claim(path, .sitemap) }
        if !problems.isEmpty { throw Diagnostics(problems) }
        let gone = (Array(before.keys) + written.files.map(\.path) + Array(written.sitemaps)).filter { owners[$0] == nil }
        let removedPages = written.paths.filter { owners[file($0)] == nil }
        return (dirty, gone, removedPages)
    }
}
