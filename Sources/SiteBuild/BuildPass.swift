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
        /// Every page: its identity, path and what it read (with its fingerprint), in the plan's
        /// order.
        var ids: [PageID]
        var paths: [String]
        var records: [PageRecord]
        /// The parts pages read, by id, with their versions as of this output.
        var parts = PartTable()
        var files: Set<PlannedFile>
        var sitemaps: Set<String>
        /// Each page's `lastmod` as of the sitemap written (nil: none written yet): with the
        /// pages' kinds and paths, all a sitemap is made from.
        var sitemapDates: [CalendarDate?]?
        /// The notes' feed's notes and their versions, as of the feed written.
        var feedKey: UInt64?
        /// Every part's version as of this output (nil: not fingerprinted, or seeded from a
        /// build record), which a pass after `ModelChange.bodies` starts from.
        var versions: PartVersions?
        /// Output file of each page path (computing it decodes the path).
        var pageFiles: [String: String]
        /// The stamps of the files of the pages a build record names, by output file: a build
        /// keeps those whose parts kept their versions (`BuildRecord`); empty in a session.
        var stamps: [String: FileStamp] = [:]
        var generation: Int
        /// The bytes of files made from the whole model (the feed, robots.txt), to write them
        /// only when they change.
        var generated: [String: Data] = [:]
        /// Whether passes record what each page read, for the next pass or build to compare
        /// with: a session's and an incremental build's do; a plain build makes every page once.
        var fingerprinted = true

        /// Nothing written yet: what a full build starts from (a build record may then say what
        /// the last build wrote: `BuildRecord.seed`).
        static func nothing(generation: Int, fingerprinted: Bool) -> Written {
            var written = Written(
                ids: [], paths: [], records: [], files: [], sitemaps: [], sitemapDates: nil,
                feedKey: nil, pageFiles: [:], generation: generation)
            written.fingerprinted = fingerprinted
            return written
        }
    }

    /// What the sources were as of the last pass, which the next one compares with: what was
    /// loaded, digested (a session forgets the digests of what it loads again), and the content
    /// tree's files.
    struct SourceVersions: Sendable {
        var loaded = LoadedDigests()
        var contentFiles: Set<String>

        init(_ content: ContentTree) { contentFiles = Set(content.datasets + content.notes + content.staticFiles) }
    }

    /// What one pass did.
    struct Outcome {
        var dirty: [PlannedPage]
        /// Output files no longer written (to remove), and the page paths among them.
        var gone: [String]
        var removedPages: [String]
        var filesWritten = 0
        /// Files other than pages, feeds, robots.txt and sitemaps (a stylesheet, an image …).
        var otherFilesWritten = 0
    }

    /// What the pages are, as the diff found them: recorded in `Written` once the pass is done.
    private struct Pages {
        var ids: [PageID]
        var paths: [String]
        /// The records of the pages kept; those of the pages to render (`dirty`) are made as
        /// they render.
        var records: [PageRecord?]
        var dirty: [Int]
        var dates: [CalendarDate?]
        var files: Set<PlannedFile>
        var sitemaps: Set<String>
    }

    /// The phases from the model on: diff (against `written`), render the pages whose
    /// fingerprint changed, write the other files that changed, publish the images. A full
    /// build is a pass over an empty `Written`: every page and file is new.
    /// `plan`: the model's, checked (`SitePlan.checked`); `change`: how the model differs from
    /// the last pass's (`.bodies`: the plan is that pass's, and only those notes changed).
    static func run(
        _ model: SiteModel, plan: SitePlan, change: ModelChange = .remade, options: BuildOptions,
        changes: ChangeSet, encodes: PendingEncodes, sources: inout SourceVersions, written: inout Written,
        to sink: some SiteSink, clock: inout PhaseClock
    ) throws(Diagnostics) -> Outcome {
        let renderer = PageRenderer(model: model, plan: plan, threads: options.threads)
        var templates = TemplateHashes(model)
        // What the last pass's versions allow: after `.bodies`, only the edited notes are versioned.
        let change = written.versions == nil ? .remade : change
        let versions =
            written.fingerprinted
            ? renderer.views.versions(
                loaded: &sources.loaded, threads: options.threads, change: change, previous: written.versions) : nil
        var parts = written.parts
        var (pages, sitemaps, diffed) = try diff(
            model, plan, change: change, versions: versions, parts: &parts, templates: &templates, written: &written)
        var outcome = diffed
        if !written.stamps.isEmpty {
            try keep(plan.pages, &pages, stamps: written.stamps, urls: model.urls, to: sink, threads: options.threads)
            outcome.dirty = pages.dirty.map { plan.pages[$0] }
        }
        clock.lap("plan")
        let rendered = try renderer.render(outcome.dirty, to: sink, recording: versions != nil)
        if let versions {
            let made = Self.records(
                outcome.dirty, rendered: rendered, versions: versions, table: &parts, templates: &templates)
            for (k, i) in pages.dirty.enumerated() { pages.records[i] = made[k] }
        }
        clock.lap("render")
        let images = try writeFiles(
            plan.files, sitemaps: sitemaps, model: model, versions: versions, options: options, changes: changes,
            written: &written, to: sink, outcome: &outcome)
        try publishImages(images, encodes: encodes, to: sink, threads: options.threads)
        outcome.filesWritten += images.count
        outcome.otherFilesWritten += images.count
        written.ids = pages.ids
        written.paths = pages.paths
        written.records = pages.records.compactMap { $0 }
        written.parts = parts
        written.versions = versions
        written.files = pages.files
        written.sitemaps = pages.sitemaps
        written.sitemapDates = pages.dates
        Self.freeLater((plan, renderer))
        return outcome
    }

    /// The pages whose fingerprint changed and the files no longer written; the sitemaps when
    /// they change (the same kinds, paths and dates make the same sitemap: the base URL is the
    /// site's configuration, and another one starts a new session's `Written`).
    private static func diff(
        _ model: SiteModel, _ plan: SitePlan, change: ModelChange, versions: PartVersions?, parts: inout PartTable,
        templates: inout TemplateHashes, written: inout Written
    ) throws(Diagnostics) -> (Pages, [(path: String, data: Data)]?, Outcome) {
        let planned = plan.pages
        if case .bodies(let edited) = change, let versions, let dates = written.sitemapDates {
            // The last pass's plan: the same pages, files and sitemaps, each record at its place.
            var pages = Pages(
                ids: written.ids, paths: written.paths, records: [], dirty: [], dates: dates, files: written.files,
                sitemaps: written.sitemaps)
            let touched = [ModelPart.site] + edited.map { ModelPart.note(model.notes[$0].file) }
            (pages.dirty, pages.records) = Self.dirtyPages(
                planned, before: written.records, changed: parts.changes(to: versions, only: touched),
                templates: &templates)
            return (pages, nil, Outcome(dirty: pages.dirty.map { planned[$0] }, gone: [], removedPages: []))
        }
        let ids = planned.map(\.id), paths = planned.map(\.path)
        let dates = planned.map(\.lastModified)
        let sitemapSame = written.sitemapDates == dates && ids == written.ids && paths == written.paths
        let sitemaps = sitemapSame ? nil : SiteFiles.sitemaps(plan, urls: model.urls)
        let sitemapPaths = sitemaps.map { Set($0.map(\.path)) } ?? written.sitemaps
        var pages = Pages(
            ids: ids, paths: paths, records: [], dirty: [], dates: dates, files: Set(plan.files),
            sitemaps: sitemapPaths)
        var outcome = Outcome(dirty: [], gone: [], removedPages: [])
        guard let versions else {
            outcome.dirty = planned  // nothing written before, nothing to compare with after
            return (pages, sitemaps, outcome)
        }
        let before: [PageRecord?]
        if ids == written.ids && paths == written.paths && pages.files == written.files
            && sitemapPaths == written.sitemaps
        {
            // The same files as before (the usual edit): each page's record is at its place.
            before = written.records
        } else {
            (before, outcome.gone, outcome.removedPages) =
                Self.replan(planned, files: plan.files, sitemaps: sitemapPaths, urls: model.urls, written: &written)
        }
        (pages.dirty, pages.records) = Self.dirtyPages(
            planned, before: before, changed: parts.changes(to: versions), templates: &templates)
        outcome.dirty = pages.dirty.map { planned[$0] }
        return (pages, sitemaps, outcome)
    }

    /// Keeps the pages a build record names whose parts kept their versions (those not `dirty`),
    /// hard-linking their files from the previous output; those whose file is not the one
    /// recorded any more join the pages to render.
    private static func keep(
        _ planned: [PlannedPage], _ pages: inout Pages, stamps: [String: FileStamp], urls: URLScheme,
        to sink: some SiteSink, threads: Int
    ) throws(Diagnostics) {
        let dirty = Set(pages.dirty)
        let clean = planned.indices.filter { !dirty.contains($0) }
        let records = pages.records
        let kept = clean.parallelMap(threads: threads, minimumCount: 256) { i -> Result<Bool, Diagnostic> in
            let file = urls.file(ofPagePath: planned[i].path)
            guard let record = records[i], let stamp = stamps[file] else { return .success(false) }
            return Result { () throws(Diagnostic) in
                try sink.keep(file, stamp: stamp, digest: record.bytes, source: planned[i].source)
            }
        }
        var again: [Int] = []
        for (k, i) in clean.enumerated() {
            switch kept[k] {
            case .success(true): continue
            case .success(false): again.append(i)
            case .failure(let d): throw Diagnostics([d])
            }
        }
        for i in again { pages.records[i] = nil }
        pages.dirty = (pages.dirty + again).sorted()
    }

    /// Writes the files other than pages that changed, and the sitemaps when they changed;
    /// returns the images to publish (those not published before: a changed source gets a new
    /// key, so a new path).
    private static func writeFiles(
        _ files: [PlannedFile], sitemaps: [(path: String, data: Data)]?, model: SiteModel,
        versions: PartVersions?, options: BuildOptions,
        changes: ChangeSet, written: inout Written, to sink: some SiteSink,
        outcome: inout Outcome
    ) throws(Diagnostics) -> [PlannedFile] {
        var images: [PlannedFile] = []
        do {
            for f in files {
                switch Self.making(f.kind, changes: changes) {
                case .published:
                    if !written.files.contains(f) { images.append(f) }
                case .generated:
                    if f.kind == .notesFeed {
                        // Made only when one of its notes, or which notes it has, changed.
                        let key = Self.feedKey(model, versions)
                        guard key != written.feedKey || !written.files.contains(f) else { continue }
                        written.feedKey = key
                    }
                    let data = try SiteFiles.data(f, model: model, source: options.source)
                    guard written.generated[f.path] != data || !written.files.contains(f) else { continue }
                    try sink.write(data, to: f.path, source: f.source)
                    written.generated[f.path] = data
                    outcome.filesWritten += 1
                case .copied(let changed):
                    guard changed || !written.files.contains(f) else { continue }
                    try sink.write(
                        try SiteFiles.data(f, model: model, source: options.source), to: f.path, source: f.source)
                    outcome.filesWritten += 1
                    outcome.otherFilesWritten += 1
                }
            }
            for s in sitemaps ?? [] {
                try sink.write(s.data, to: s.path, source: "sitemap")
                outcome.filesWritten += 1
            }
        } catch { throw Diagnostics([error]) }
        return images
    }

    /// How a pass decides to write a file of a kind.
    private enum Making {
        /// An image: linked from the cache once (a changed source gets a new key, so a new path).
        case published
        /// Made from the whole model (feed, robots.txt, the code's stylesheet): written when its
        /// bytes differ from the last ones.
        case generated
        /// Made from its own source: written when that source changed (or it is new).
        case copied(changed: Bool)
    }

    private static func making(_ kind: PlannedFile.Kind, changes: ChangeSet) -> Making {
        switch kind {
        case .image: .published
        case .notesFeed, .robots, .codeStyles: .generated
        case .content(let rel): .copied(changed: changes.content.contains(rel))
        case .userAsset(let rel): .copied(changed: changes.assets.contains(rel))
        case .builtinAsset: .copied(changed: false)
        case .searchIndex(let name), .collectionFeed(let name): .copied(changed: changes.collections.contains(name))
        }
    }

    /// Frees `value` on another thread: a plan of 15,000 pages, or a model an edit replaced, takes
    /// milliseconds to free, which the page waiting for its reload should not wait for.
    static func freeLater<T: Sendable>(_ value: T) {
        // A moment later, so the caller's own references are gone by then (were they not, the
        // caller frees it: the same, only slower).
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .milliseconds(100)) {
            withExtendedLifetime(value) {}
        }
    }

    /// Publishes resized images from the cache into the site: those in the cache first, then,
    /// once they are done, those of `encodes` still under way.
    static func publishImages(
        _ images: [PlannedFile], encodes: PendingEncodes, to sink: some SiteSink,
        threads: Int
    ) throws(Diagnostics) {
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

    /// Each page's record as of the page written to its file, and the files no longer
    /// written, when pages or files came or went (the plan checked that no file is claimed twice).
    private static func replan(
        _ pages: [PlannedPage], files: [PlannedFile], sitemaps: Set<String>, urls: URLScheme,
        written: inout Written
    ) -> (before: [PageRecord?], gone: [String], removedPages: [String]) {
        func file(_ path: String) -> String {
            if let f = written.pageFiles[path] { return f }
            let f = urls.file(ofPagePath: path)
            written.pageFiles[path] = f
            return f
        }
        var before: [String: PageRecord] = [:]
        for (path, record) in zip(written.paths, written.records) { before[file(path)] = record }
        var now = Set(files.map(\.path)).union(sitemaps)
        var aligned: [PageRecord?] = []
        aligned.reserveCapacity(pages.count)
        for page in pages {
            let f = file(page.path)
            now.insert(f)
            aligned.append(before[f])
        }
        let previous = Array(before.keys) + written.files.map(\.path) + Array(written.sitemaps)
        let gone = previous.filter { !now.contains($0) }
        let removedPages = written.paths.filter { !now.contains(file($0)) }
        return (aligned, gone, removedPages)
    }
}
