import Foundation
import SiteCore
import SiteLoad
import SiteRender
import SiteWrite

/// What one rebuild of a `SiteSession` did.
public struct UpdateReport: Sendable {
    /// The whole site was rebuilt (the configuration changed).
    public var full: Bool
    public var pagesWritten: Int
    public var filesWritten: Int
    public var removed: Int
    /// URL paths of the pages written or removed; nil when every page may have changed.
    public var changedPages: [String]?
    public var seconds: Double
    /// Phase name and seconds, in order.
    public var phases: [(name: String, seconds: Double)] = []

    public init(full: Bool, pagesWritten: Int, filesWritten: Int, removed: Int, changedPages: [String]?, seconds: Double) {
        self.full = full
        self.pagesWritten = pagesWritten
        self.filesWritten = filesWritten
        self.removed = removed
        self.changedPages = changedPages
        self.seconds = seconds
    }

    /// Nothing in the output changed.
    public var isEmpty: Bool { pagesWritten == 0 && filesWritten == 0 && removed == 0 }
}

/// A site kept in memory between builds, so that an edit rebuilds only what it touches: a note
/// the pages that show it, a dataset its collection's pages, a template the pages rendered with
/// it. Each page's inputs are summed up in a fingerprint (the versions of the data it shows and
/// the text of its templates); a page is rendered again only when its fingerprint changes, and
/// the output stays byte-identical to a full build of the same sources.
///
/// A value: `update` changes this copy, so its owner holds it in one place (serve's loop hands
/// it to the rebuild thread and takes the updated copy back, also from a failed update, which
/// remembers the paths to retry).
public struct SiteSession: Sendable {
    public let options: BuildOptions
    private var model: SiteModel
    private var written: Written
    /// Paths of a failed update, retried with the next one (the error stays until they are fixed).
    private var pending: Set<String> = []
    private var nextVersion = 1

    /// What is in the output folder, as of the last successful build.
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

    /// Builds the whole site into `options.output` (replacing it only when the build succeeds).
    public init(_ options: BuildOptions) throws(Diagnostics) {
        self.options = options
        (model, written) = try Self.buildAll(options, generation: 0)
    }

    /// The base URL's path the site is served under, e.g. "/" or "/apps/".
    public var basePath: String { model.config.baseURL.root }

    /// The base path the configuration names, read without building (for a site whose first
    /// build fails); nil when the configuration cannot be read.
    public static func basePath(_ options: BuildOptions) -> String? {
        try? SiteInputs.readConfiguration(options).baseURL.root
    }

    /// How many pages the site has.
    public var pageCount: Int { written.views.count }

    /// The images left for later by the last build (`BuildOptions.deferImages`), if any.
    public var waitingImages: WaitingImages? {
        let jobs = model.inputs.images.waiting
        return jobs.isEmpty ? nil : WaitingImages(jobs: jobs, content: model.inputs.content, cache: model.imageCache, threads: options.threads,
                                                  progress: options.imageProgress)
    }

    /// Rebuilds after the files at `changed` (paths relative to the source folder) were created,
    /// modified or deleted. On failure the output is left as it was, and the same paths are
    /// tried again with the next update.
    public mutating func update(_ changed: Set<String>) throws(Diagnostics) -> UpdateReport {
        let paths = pending.union(changed)
        do {
            let report = try apply(paths)
            pending = []
            return report
        } catch {
            pending = paths
            throw error
        }
    }

    /// What a site is built from, relative to its folder: the files and folders to watch.
    public static let sourcePaths = [SiteConfig.fileName, "content", "templates"]

    /// Whether a change at `path` (relative to the source folder) can change the site.
    public static func isSource(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        guard let first = parts.first, !parts.contains(where: { $0.hasPrefix(".") }) else { return false }
        if parts.count == 1 { return first == Substring(SiteConfig.fileName) }
        return first == "content" || first == "templates"
    }

    // MARK: - Full builds

    private static func buildAll(_ options: BuildOptions, generation: Int) throws(Diagnostics) -> (SiteModel, Written) {
        let (_, model, written) = try SiteBuilder.buildKeepingModel(options, generation: generation)
        return (model, written)
    }

    // MARK: - Updates

    private mutating func apply(_ paths: Set<String>) throws(Diagnostics) -> UpdateReport {
        let start = DispatchTime.now()
        var clock = PhaseClock()
        let relevant = paths.filter(Self.isSource)
        if relevant.isEmpty { return report(start, full: false) }
        if relevant.contains(SiteConfig.fileName) { return try rebuildAll(start) }
        var inputs = model.inputs
        var versions = written
        let touched = try rescan(relevant, inputs: &inputs, versions: &versions)
        clock.lap("scan")
        // content.notes is sorted, and the notes are kept in its order: binary searches, no index.
        let changedNotes = touched.content.filter { $0.lowercased().hasSuffix(".md") || inputs.content.notes.sortedContains($0) }
        if !changedNotes.isEmpty || touched.rescanned {
            try reloadNotes(changedNotes, rescanned: touched.rescanned, inputs: &inputs, versions: &versions)
        }
        clock.lap("load")
        let reload = try reloadCollections(touched.content, notes: changedNotes, inputs: &inputs, versions: &versions)
        // Images: only new or changed sources are processed, the rest come from the cache.
        if !reload.isEmpty {
            inputs.images = try ImageStep.run(inputs.collections, content: inputs.content, cache: inputs.imageCache, threads: options.threads,
                                              deferring: options.deferImages, progress: options.imageProgress)
        }
        clock.lap("images")
        return try write(inputs, versions: versions, changes: Changes(content: touched.content, assets: touched.assets, collections: reload),
                         start: start, clock: &clock)
    }

    /// `site.yml` changed: everything is built again, as a new generation.
    private mutating func rebuildAll(_ start: DispatchTime) throws(Diagnostics) -> UpdateReport {
        let (m, w) = try Self.buildAll(options, generation: written.generation + 1)
        model = m
        written = w
        return UpdateReport(full: true, pagesWritten: w.views.count, filesWritten: w.files.count + w.sitemaps.count, removed: 0,
                            changedPages: nil, seconds: seconds(since: start))
    }

    /// What an update's paths touch: content files (relative to `content/`), assets (relative to
    /// `templates/assets/`), and whether the content tree was scanned again.
    private struct Touched {
        var content: Set<String>
        var assets: Set<String>
        var rescanned: Bool
    }

    /// Sorts the changed paths, and reads again what they change of the content tree, the
    /// templates and the assets.
    private func rescan(_ relevant: Set<String>, inputs: inout SiteInputs, versions: inout Written) throws(Diagnostics) -> Touched {
        let contentRoot = options.source.appendingPathComponent("content")
        var contentPaths = Set(relevant.filter { $0.hasPrefix("content/") }.map { String($0.dropFirst("content/".count)) })
        let assetPaths = Set(relevant.filter { $0.hasPrefix("templates/assets/") }.map { String($0.dropFirst("templates/assets/".count)) })
        let templatesChanged = relevant.contains { $0.hasPrefix("templates/") && !$0.hasPrefix("templates/assets/") }

        // A file that appeared or disappeared (or a folder) changes the content tree: scan it again.
        let needsScan = contentPaths.contains { rel in
            var isDir: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: contentRoot.appendingPathComponent(rel).path, isDirectory: &isDir)
            return isDir.boolValue || exists != versions.contentFiles.contains(rel)
        }
        if needsScan {
            inputs.content = try ContentTree.scan(contentRoot)
            let now = Set(inputs.content.datasets + inputs.content.notes + inputs.content.staticFiles)
            // A folder moved in or out is one event for many files.
            contentPaths.formUnion(now.symmetricDifference(versions.contentFiles))
            versions.contentFiles = now
        }
        // Files that came and went between two looks (an editor's temporary file) change nothing.
        contentPaths = contentPaths.filter { written.contentFiles.contains($0) || versions.contentFiles.contains($0) }
        if templatesChanged {
            inputs.templates = try SiteInputs.loadTemplates(options.source)
        }
        // A folder of assets that came or went is one event for `templates/assets` (or `templates`).
        if !assetPaths.isEmpty || templatesChanged {
            try inputs.loadAssets(options.source)
        }
        return Touched(content: contentPaths, assets: assetPaths, rescanned: needsScan)
    }

    /// Parses again the notes at `changed` (relative to `content/`); after a scan, the notes
    /// follow the content tree's list.
    private mutating func reloadNotes(_ changed: Set<String>, rescanned: Bool, inputs: inout SiteInputs, versions: inout Written) throws(Diagnostics) {
        let loader = NoteLoader(content: inputs.content, notesCollection: inputs.config.notes.collection, includeDrafts: options.includeDrafts,
                                rootPath: inputs.config.baseURL.root, threads: options.threads)
        var problems: [Diagnostic] = []
        var loaded: [String: Note?] = [:]  // by file; nil: gone or a draft left out
        for rel in changed {
            versions.noteVersions["content/\(rel)"] = bump()
            guard inputs.content.notes.sortedContains(rel) else { loaded["content/\(rel)"] = .some(nil); continue }
            do { loaded["content/\(rel)"] = .some(try loader.load(rel)) } catch { problems.append(error) }
        }
        if !problems.isEmpty { throw Diagnostics(problems) }
        // An edit that neither adds nor removes a note replaces it in place; if no slug changes
        // and no note becomes attached or standalone, slugs cannot newly clash.
        let files = inputs.notes.lazy.map(\.file)
        let positions = loaded.mapValues { note in note.flatMap { files.sortedIndex(of: $0.file) } }
        var slugsChanged = true
        if !rescanned, positions.values.allSatisfy({ $0 != nil }) {
            slugsChanged = false
            for (file, note) in loaded {
                guard let note, let i = positions[file] ?? nil else { continue }
                if inputs.notes[i].slug != note.slug || (inputs.notes[i].attachment == nil) != (note.attachment == nil) { slugsChanged = true }
                inputs.notes[i] = note
            }
        } else {
            let old = inputs.notes
            inputs.notes = inputs.content.notes.compactMap { rel -> Note? in
                let file = "content/\(rel)"
                if let changed = loaded[file] { return changed }
                return old.lazy.map(\.file).sortedIndex(of: file).map { old[$0] }
            }
        }
        if slugsChanged {
            let duplicates = NoteLoader.duplicateSlugs(inputs.notes)
            if !duplicates.isEmpty { throw Diagnostics(duplicates) }
        }
    }

    /// Loads again the collections whose data files changed, and those showing images when any
    /// other content file changed (an image's size may have changed); returns their names.
    private mutating func reloadCollections(_ content: Set<String>, notes: Set<String>, inputs: inout SiteInputs, versions: inout Written) throws(Diagnostics) -> Set<String> {
        let datasetPaths = content.filter { ContentTree.datasetExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
        let otherPaths = content.filter { !notes.contains($0) && !datasetPaths.contains($0) }
        let reload = Set(inputs.config.collections.filter { c in
            let patterns = c.dataFiles + c.joins.flatMap(\.dataFiles)
            if datasetPaths.contains(where: { rel in patterns.contains { ContentPath.matches(rel, pattern: $0) } }) { return true }
            return !otherPaths.isEmpty && ((c.images.map { !$0.external } ?? false) || c.icon != nil)
        }.map(\.name))
        guard !reload.isEmpty else { return reload }
        var problems: [Diagnostic] = []
        let configs = inputs.config.collections.filter { reload.contains($0.name) }
        let loaded = SiteInputs.collectProblems(SiteInputs.loadCollections(configs, config: inputs.config, content: inputs.content, imageSizes: ImageSizeCache(), threads: options.threads), into: &problems)
        if !problems.isEmpty { throw Diagnostics(problems) }
        for c in loaded {
            if let i = inputs.collections.firstIndex(where: { $0.config.name == c.config.name }) { inputs.collections[i] = c }
            versions.collectionVersions[c.config.name] = bump()
        }
        return reload
    }

    /// The model made again, reusing the collections that did not change, and what it changes
    /// written into the live output; the session then holds them.
    private mutating func write(_ inputs: SiteInputs, versions: Written, changes: Changes, start: DispatchTime,
                                clock: inout PhaseClock) throws(Diagnostics) -> UpdateReport {
        var versions = versions
        let reusable = Set(inputs.config.collections.filter { c in
            !changes.collections.contains(c.name) && !c.related.contains { changes.collections.contains($0.collection) }
        }.map(\.name))
        let newModel = try SiteModel.make(inputs, reusing: model, reusable: reusable)
        clock.lap("sort")

        let sink = LiveOutput(folder: options.output)
        let pass = try Self.planRenderWrite(newModel, options: options, changes: changes, written: &versions, to: sink, clock: &clock)
        for file in pass.gone.sorted() { sink.remove(file) }
        let replaced = (model, written)
        model = newModel
        written = versions
        Self.freeLater(replaced)
        clock.lap("write")
        var r = report(start, full: false)
        r.phases = clock.phases
        r.pagesWritten = pass.dirty.count
        r.filesWritten = pass.filesWritten
        r.removed = pass.gone.count
        // A stylesheet, script, image or search index may change how any page looks.
        r.changedPages = pass.otherFilesWritten > 0 ? nil : (pass.dirty.map(\.path) + pass.removedPages).sorted()
        return r
    }

    // MARK: - The phases every build shares

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
    static func planRenderWrite(_ model: SiteModel, options: BuildOptions, changes: Changes, written versions: inout Written,
                                to sink: some SiteSink, clock: inout PhaseClock) throws(Diagnostics) -> Pass {
        let plan = SitePlan(model)
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
                if f.kind == .notesFeed || f.kind == .robots {
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
                case .notesFeed, .robots, .image: changed = false  // handled above
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

    /// Each plan page's fingerprint: its template (with its partials), the site-wide values and
    /// the versions of the inputs its plan names.
    static func fingerprints(_ model: SiteModel, _ plan: SitePlan, _ w: Written) -> [Int] {
        var templateHashes: [String: Int] = [:]
        func templateHash(_ name: String) -> Int {
            if let h = templateHashes[name] { return h }
            var h = Hasher()
            for t in model.inputs.templates.closure(of: name) { h.combine(t); h.combine(model.inputs.templates.text(of: t)) }
            let v = h.finalize()
            templateHashes[name] = v
            return v
        }
        let own = model.collections.map { w.collectionVersions[$0.config.name] ?? 0 }
        let effective = model.collections.map { c -> Int in
            var h = Hasher()
            h.combine(w.collectionVersions[c.config.name] ?? 0)
            for rule in c.config.related { h.combine(rule.collection); h.combine(w.collectionVersions[rule.collection] ?? 0) }
            return h.finalize()
        }
        // Each note once: its file and version.
        let noteHashes = model.notes.indices.map { n in
            var h = Hasher()
            h.combine(model.notes[n].file)
            h.combine(w.noteVersions[model.notes[n].file] ?? 0)
            return h.finalize()
        }
        var global = Hasher()
        global.combine(w.generation)
        global.combine(model.standaloneNotes.isEmpty)
        // Every page may name a stylesheet or script by its fingerprinted name.
        for (path, named) in model.inputs.assetNames.sorted(by: { $0.key < $1.key }) { global.combine(path); global.combine(named) }
        let globalHash = global.finalize()
        // Pages are read in place and a run of pages with one template hashes its name once:
        // copying each planned page cost more reference counting than the hashing itself.
        let pages = plan.pages
        var prints: [Int] = []
        prints.reserveCapacity(pages.count)
        var lastTemplate = "", lastTemplateHash = 0
        for i in pages.indices {
            if pages[i].template != lastTemplate {
                lastTemplate = pages[i].template
                lastTemplateHash = templateHash(lastTemplate)
            }
            var h = Hasher()
            h.combine(globalHash)
            h.combine(lastTemplateHash)
            for input in pages[i].inputs {
                switch input {
                case .collectionData(let ci): h.combine(1); h.combine(own[ci])
                case .collection(let ci): h.combine(2); h.combine(effective[ci])
                case .dataShownBy(let template):
                    h.combine(3)
                    if let shown = model.inputs.templates.dataCollections(of: template) {
                        for (ci, c) in model.collections.enumerated() where shown.contains(c.config.name) { h.combine(c.config.name); h.combine(effective[ci]) }
                    } else {
                        h.combine(effective)
                    }
                case .note(let n): h.combine(4); h.combine(noteHashes[n])
                case .identity(let view): h.combine(5); h.combine(view)
                case .count(let n): h.combine(6); h.combine(n)
                case .text(let s): h.combine(7); h.combine(s)
                }
            }
            prints.append(h.finalize())
        }
        return prints
    }

    /// The notes' feed's notes (by file) and their versions: the feed is made from nothing else
    /// but the site's configuration, which a session keeps.
    static func feedKey(_ model: SiteModel, _ w: Written) -> Int {
        var h = Hasher()
        h.combine(w.generation)
        for n in model.feedNotes { h.combine(model.notes[n].file); h.combine(w.noteVersions[model.notes[n].file] ?? 0) }
        return h.finalize()
    }

    private mutating func bump() -> Int {
        nextVersion += 1
        return nextVersion
    }

    private func report(_ start: DispatchTime, full: Bool) -> UpdateReport {
        UpdateReport(full: full, pagesWritten: 0, filesWritten: 0, removed: 0, changedPages: [], seconds: seconds(since: start))
    }

    private func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

}

extension Collection where Element: Comparable {
    /// The index of `value` in this ascending collection (binary search).
    func sortedIndex(of value: Element) -> Index? {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let mid = index(low, offsetBy: half)
            if self[mid] < value {
                low = index(after: mid)
                count -= half + 1
            } else {
                count = half
            }
        }
        return low != endIndex && self[low] == value ? low : nil
    }

    func sortedContains(_ value: Element) -> Bool { sortedIndex(of: value) != nil }
}
