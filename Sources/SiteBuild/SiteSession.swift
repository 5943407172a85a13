import Foundation
import SiteCore
import SiteFetch
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
    /// Only notes' text changed: the model took their bodies in place, and the plan and the
    /// other parts' versions were kept (`ModelChange.bodies`).
    public var bodiesOnly = false

    public init(
        full: Bool, pagesWritten: Int, filesWritten: Int, removed: Int, changedPages: [String]?, seconds: Double
    ) {
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
    /// What the last good build loaded: an update loads its edits into a copy.
    private var inputs: SiteInputs
    private var model: SiteModel
    /// The plan of `model`, which an edit of notes' bodies keeps (`ModelChange.bodies`).
    private var plan: SitePlan
    private var written: BuildPass.Written
    /// What the sources were as of `written`.
    private var sources: BuildPass.SourceVersions
    /// Paths of a failed update, retried with the next one (the error stays until they are fixed).
    private var pending: Set<String> = []

    /// Builds the whole site into `options.output` (replacing it only when the build succeeds).
    public init(_ options: BuildOptions) throws(Diagnostics) {
        self.options = options
        let built = try FullBuild.run(options, session: true)
        (inputs, model, plan, written, sources) = (built.inputs, built.model, built.plan, built.written, built.sources)
        notices = inputs.notices
    }

    /// The base URL's path the site is served under, e.g. "/" or "/apps/".
    public var basePath: String { model.config.baseURL.root }

    /// The base path the configuration names, read without building (for a site whose first
    /// build fails); nil when the configuration cannot be read.
    public static func basePath(_ options: BuildOptions) -> String? {
        try? SiteInputs.readConfiguration(options).baseURL.root
    }

    /// What the last build or update tells the user besides errors.
    public private(set) var notices: [String] = []

    /// How many pages the site has.
    public var pageCount: Int { written.ids.count }

    /// The images left for later by the last build (`BuildOptions.deferImages`), if any.
    public var waitingImages: WaitingImages? {
        let jobs = model.images.waiting
        return jobs.isEmpty
            ? nil
            : WaitingImages(
                jobs: jobs, content: model.content,
                cache: options.imageCache, threads: options.threads,
                progress: options.imageProgress)
    }

    /// Rebuilds after the files at `changed` (paths relative to the source folder) were created,
    /// modified or deleted. On failure the output is left as it was, and the same paths are
    /// tried again with the next update.
    /// `refetched`: answers of HTTP APIs were fetched into the cache (`fetchData`); the
    /// collections showing them are loaded again.
    public mutating func update(_ changed: Set<String>, refetched: Bool = false) throws(Diagnostics) -> UpdateReport {
        let paths = pending.union(changed)
        notices = []
        do {
            let report = try apply(paths, refetched: refetched)
            pending = []
            return report
        } catch {
            pending = paths
            throw error
        }
    }

    /// What a site is built from, relative to its folder: the files and folders to watch.
    public static let sourcePaths = SourceLayout.watched

    /// Whether a change at `path` (relative to the source folder) can change the site.
    public static func isSource(_ path: String) -> Bool { SourceLayout.change(at: path) != nil }

    // MARK: - Answers of HTTP APIs

    /// The options of rebuilds: answers of HTTP APIs from the cache only, so that no rebuild
    /// waits for the network (`serve` fetches them in the background with `fetchData`).
    private var rebuildOptions: BuildOptions {
        var o = options
        o.cacheOnly = true
        return o
    }

    /// Whether the oldest answer of an HTTP API the site shows is older than `fetch.maxAge`.
    public var dataIsOld: Bool {
        guard !options.offline, let oldest = inputs.oldestAnswer else { return false }
        return Date().timeIntervalSince(oldest) >= Double(model.config.fetch.maxAge)
    }

    /// Fetches the answers of HTTP APIs the site's collections read (those older than
    /// `maxAge`) into the cache, by loading those collections and dropping them: away from the
    /// rebuilds, which then read the cache (`update(_:refetched:)`). Nil when it worked.
    public static func fetchData(_ options: BuildOptions) -> Diagnostics? {
        do throws(Diagnostics) {
            let (config, content, _) = try SiteInputs.loadConfiguration(options)
            let remote = config.collections.filter(\.readsHTTP)
            guard !options.offline, let fetch = try SiteInputs.fetchSession(config, options: options) else {
                return nil
            }
            defer { fetch.close() }
            var problems: [Diagnostic] = []
            _ = SiteInputs.collectProblems(
                SiteInputs.loadCollections(
                    remote, config: config, content: content, imageSizes: ImageSizeCache(),
                    threads: options.threads, fetch: fetch), into: &problems)
            return problems.isEmpty ? nil : Diagnostics(problems)
        } catch {
            return error
        }
    }

    /// The start of the message of an answer `serve` has not fetched yet.
    public static let notFetchedYet = FetchSession.notFetchedYet

    // MARK: - Updates

    private mutating func apply(_ paths: Set<String>, refetched: Bool) throws(Diagnostics) -> UpdateReport {
        let start = DispatchTime.now()
        var clock = PhaseClock()
        var changes = ChangeSet(paths: paths)
        if changes.isEmpty && !refetched { return report(start, full: false) }
        if changes.configuration { return try rebuildAll(start) }
        var inputs = self.inputs
        var sources = self.sources
        try rescan(&changes, inputs: &inputs, sources: &sources)
        // A template that starts or stops showing images' detail variant changes which files they have.
        if ImageStep.detailed(inputs) != model.images.detailed { return try rebuildAll(start) }
        clock.lap("scan")
        // content.notes is sorted, and the notes are kept in its order: binary searches, no index.
        // A note is loaded again when its file changed, or a picture it shows (it is sized then).
        let changedNotes = changes.content.filter {
            SourceLayout.isNoteFile($0) || inputs.content.notes.sortedContains($0)
        }.union(
            inputs.notes.lazy.filter { n in n.images.contains { changes.content.contains($0.info.source) } }.map {
                SourceLayout.relativeToContent($0.file)
            })
        inputs.notices = []
        if !changedNotes.isEmpty || changes.rescanned {
            try reloadNotes(changedNotes, rescanned: changes.rescanned, inputs: &inputs, sources: &sources)
            inputs.styleCode()
        }
        clock.lap("load")
        let remote = refetched ? Set(inputs.config.collections.filter(\.readsHTTP).map(\.name)) : []
        changes.collections = try reloadCollections(
            changes.content, notes: changedNotes, also: remote, inputs: &inputs, sources: &sources)
        // Images: only new or changed sources are processed, the rest come from the cache. Their
        // encodes run on while the pages are made; the update returns only once they ended,
        // whether it succeeded or failed (the next one may need their files).
        let encodes = PendingEncodes()
        defer { _ = encodes.wait() }
        var images = model.images
        // A note's images: also when the edited notes showed some before (their files may go).
        let before = self.inputs.notes.lazy.map(\.file), after = inputs.notes.lazy.map(\.file)
        let showImages = changedNotes.contains { rel in
            let file = SourceLayout.contentFile(rel)
            return [(before, self.inputs.notes), (after, inputs.notes)].contains { files, notes in
                files.sortedIndex(of: file).map { !notes[$0].images.isEmpty } ?? false
            }
        }
        let imagesRun = !changes.collections.isEmpty || changes.rescanned || showImages
        if imagesRun {
            images = try ImageStep.run(
                inputs.collections, notes: inputs.notes, content: inputs.content,
                cache: options.imageCache, threads: options.threads, encodes: encodes,
                deferring: options.deferImages, detailed: images.detailed,
                progress: options.imageProgress)
        }
        clock.lap("images")
        // Only notes' text changed: the model is this one with their bodies (`withBodies`).
        let bodiesOnly =
            !imagesRun && !refetched && changes.templates.isEmpty && changes.assets.isEmpty
            && changes.content.allSatisfy { changedNotes.contains($0) }
        let edited = bodiesOnly ? changedNotes.compactMap { after.sortedIndex(of: SourceLayout.contentFile($0)) } : []
        let report = try remodelAndWrite(
            inputs, images: images, edited: edited.count == changedNotes.count ? edited.sorted() : [],
            encodes: encodes, sources: sources, changes: changes, start: start, clock: &clock)
        notices = inputs.notices
        return report
    }

    /// `site.yml` changed: everything is built again, as a new generation.
    private mutating func rebuildAll(_ start: DispatchTime) throws(Diagnostics) -> UpdateReport {
        let built = try FullBuild.run(rebuildOptions, generation: written.generation + 1, session: true)
        (inputs, model, plan, written, sources) = (built.inputs, built.model, built.plan, built.written, built.sources)
        notices = inputs.notices
        return UpdateReport(
            full: true, pagesWritten: written.ids.count,
            filesWritten: written.files.count + written.sitemaps.count, removed: 0,
            changedPages: nil, seconds: seconds(since: start))
    }

    /// Reads again what `changes` change of the content tree, the templates and the assets;
    /// the content files that came or went with a scan join `changes`.
    private func rescan(
        _ changes: inout ChangeSet, inputs: inout SiteInputs, sources: inout BuildPass.SourceVersions
    ) throws(Diagnostics) {
        let contentRoot = options.source.appendingPathComponent(SourceLayout.content)
        var contentPaths = changes.content
        // A file that appeared or disappeared (or a folder) changes the content tree: scan it again.
        let needsScan = contentPaths.contains { rel in
            var isDir: ObjCBool = false
            let exists = FileManager.default.fileExists(
                atPath: contentRoot.appendingPathComponent(rel).path, isDirectory: &isDir)
            return isDir.boolValue || exists != sources.contentFiles.contains(rel)
        }
        if needsScan {
            inputs.content = try ContentTree.scan(contentRoot)
            let now = Set(inputs.content.datasets + inputs.content.notes + inputs.content.staticFiles)
            // A folder moved in or out is one event for many files.
            contentPaths.formUnion(now.symmetricDifference(sources.contentFiles))
            sources.contentFiles = now
        }
        // Files that came and went between two looks (an editor's temporary file) change nothing.
        changes.content = contentPaths.filter {
            self.sources.contentFiles.contains($0) || sources.contentFiles.contains($0)
        }
        changes.rescanned = needsScan
        if !changes.templates.isEmpty {
            inputs.templates = try SiteInputs.loadTemplates(options.source)
        }
        // A folder of assets that came or went is one event for `templates/assets` (or `templates`).
        if !changes.assets.isEmpty || !changes.templates.isEmpty {
            try inputs.loadAssets(options.source)
        }
    }

    /// Parses again the notes at `changed` (relative to `content/`); after a scan, the notes
    /// follow the content tree's list.
    private mutating func reloadNotes(
        _ changed: Set<String>, rescanned: Bool, inputs: inout SiteInputs,
        sources: inout BuildPass.SourceVersions
    ) throws(Diagnostics) {
        let loader = NoteLoader(
            config: inputs.config, content: inputs.content, includeDrafts: options.includeDrafts,
            threads: options.threads)
        var problems: [Diagnostic] = []
        var loaded: [String: Note?] = [:]  // by file; nil: gone or a draft left out
        for rel in changed {
            let file = SourceLayout.contentFile(rel)
            sources.loaded.notes[file] = nil
            guard inputs.content.notes.sortedContains(rel) else { loaded[file] = .some(nil); continue }
            do { loaded[file] = .some(try loader.load(rel)) } catch { problems.append(error) }
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
                if inputs.notes[i].slug != note.slug || (inputs.notes[i].attachment == nil) != (note.attachment == nil)
                {
                    slugsChanged = true
                }
                inputs.notes[i] = note
            }
        } else {
            let old = inputs.notes
            inputs.notes = inputs.content.notes.compactMap { rel -> Note? in
                let file = SourceLayout.contentFile(rel)
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
    private mutating func reloadCollections(
        _ content: Set<String>, notes: Set<String>, also: Set<String>, inputs: inout SiteInputs,
        sources: inout BuildPass.SourceVersions
    ) throws(Diagnostics) -> Set<String> {
        let datasetPaths = content.filter {
            ContentTree.datasetExtensions.contains(($0 as NSString).pathExtension.lowercased())
        }
        let otherPaths = content.filter { !notes.contains($0) && !datasetPaths.contains($0) }
        let reload = Set(
            inputs.config.collections.filter { c in
                let patterns = c.dataFiles + c.joins.flatMap(\.dataFiles)
                if datasetPaths.contains(where: { rel in patterns.contains { ContentPath.matches(rel, pattern: $0) } })
                {
                    return true
                }
                return !otherPaths.isEmpty && ((c.images.map { !$0.external } ?? false) || c.icon != nil)
            }.map(\.name)
        ).union(also)
        guard !reload.isEmpty else { return reload }
        var problems: [Diagnostic] = []
        let configs = inputs.config.collections.filter { reload.contains($0.name) }
        let fetch = try SiteInputs.fetchSession(inputs.config, options: rebuildOptions)
        defer { fetch?.close() }
        let loaded = SiteInputs.collectProblems(
            SiteInputs.loadCollections(
                configs, config: inputs.config, content: inputs.content, imageSizes: ImageSizeCache(),
                threads: options.threads, fetch: fetch), into: &problems)
        if !problems.isEmpty { throw Diagnostics(problems) }
        if let oldest = fetch?.oldestAnswer, !also.isEmpty { inputs.oldestAnswer = oldest }
        for c in loaded {
            if let i = inputs.collections.firstIndex(where: { $0.config.name == c.config.name }) {
                inputs.collections[i] = c
            }
            sources.loaded.collections[c.config.name] = nil
        }
        return reload
    }

    /// Makes the model again from `inputs` (reusing the collections that did not change), runs a
    /// build pass over the live output (rendering the pages whose parts changed, writing the
    /// files that changed), removes the files no longer planned, and holds the new inputs, model
    /// and output state.
    /// `edited`: the notes (indices) whose text alone changed, whose bodies the model may take in
    /// place (`SiteModel.withBodies`); empty: the model is made again.
    private mutating func remodelAndWrite(
        _ inputs: SiteInputs, images: ImageStep.Result, edited: [Int], encodes: PendingEncodes,
        sources: BuildPass.SourceVersions,
        changes: ChangeSet, start: DispatchTime,
        clock: inout PhaseClock
    ) throws(Diagnostics) -> UpdateReport {
        var (output, sources) = (written, sources)
        let (newModel, change, plan) = try remodel(
            inputs, images: images, edited: edited, changes: changes, clock: &clock)
        let sink = LiveOutput(folder: options.output)
        let pass = try BuildPass.run(
            newModel, plan: plan, change: change, options: options, changes: changes, encodes: encodes,
            sources: &sources, written: &output, to: sink,
            clock: &clock)
        for file in pass.gone.sorted() { sink.remove(file) }
        let replaced = (self.inputs, model, self.plan, written)
        self.inputs = inputs
        (model, self.plan) = (newModel, plan)
        (written, self.sources) = (output, sources)
        BuildPass.freeLater(replaced)
        clock.lap("write")
        var r = report(start, full: false)
        r.phases = clock.phases
        r.pagesWritten = pass.dirty.count
        r.filesWritten = pass.filesWritten
        r.removed = pass.gone.count
        r.bodiesOnly = change.keepsPlan
        // A stylesheet, script, image or search index may change how any page looks.
        r.changedPages = pass.otherFilesWritten > 0 ? nil : (pass.dirty.map(\.path) + pass.removedPages).sorted()
        return r
    }

    /// The model of `inputs` and its plan: this model with the `edited` notes' bodies when that
    /// is all that changed, else made again (reusing the collections that did not change).
    private func remodel(
        _ inputs: SiteInputs, images: ImageStep.Result, edited: [Int], changes: ChangeSet, clock: inout PhaseClock
    ) throws(Diagnostics) -> (SiteModel, ModelChange, SitePlan) {
        if let (kept, change) = try model.withBodies(of: edited, from: inputs) {
            clock.lap("sort")
            return (kept, change, plan)
        }
        let reusable = Set(
            inputs.config.collections.filter { c in
                !changes.collections.contains(c.name)
                    && !c.related.contains { changes.collections.contains($0.collection) }
            }.map(\.name))
        let newModel = try SiteModel.make(inputs, images: images, reusing: model, reusable: reusable)
        clock.lap("sort")
        return (newModel, .remade, try SitePlan.checked(newModel, since: written))
    }

    private func report(_ start: DispatchTime, full: Bool) -> UpdateReport {
        UpdateReport(
            full: full, pagesWritten: 0, filesWritten: 0, removed: 0, changedPages: [], seconds: seconds(since: start))
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
