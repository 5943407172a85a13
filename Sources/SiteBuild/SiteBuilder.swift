import Foundation
import SiteCore
import SiteFetch
import SiteImages
import SiteLoad
import SiteRender
import SiteWrite

/// What `sitegen build` is asked to do.
public struct BuildOptions: Sendable {
    public var source: URL
    public var output: URL
    public var baseURL: String?
    public var includeDrafts: Bool
    /// Where processed images are kept between builds (default `<source>/.sitegen-cache`).
    public var cacheDir: URL
    /// Cache entries this build does not use are pruned once nothing touched them for this long
    /// (another build sharing the cache may be about to copy them).
    public var cacheGrace: TimeInterval = 300
    /// Threads for parallel work (loading, images, rendering); the output is the same bytes whatever it is.
    public var threads: Int = Parallelism.cores
    /// Called as the image phase advances: (done, total), from any thread.
    public var imageProgress: (@Sendable (Int, Int) -> Void)?
    /// Leave images not in the cache for later (`SiteSession.waitingImages`) and publish their
    /// sources as they are meanwhile: `serve` shows a page without waiting for photos.
    public var deferImages = false
    /// Replace the output folder even if sitegen did not write it (`--force`).
    public var force = false
    /// Use the answers of HTTP APIs kept in the cache, of any age, and never the network (`--offline`).
    public var offline = false
    /// `serve`'s rebuilds: cached answers only (fetched in the background instead).
    var cacheOnly = false

    public init(source: URL, output: URL? = nil, baseURL: String? = nil, includeDrafts: Bool = false, cacheDir: URL? = nil) {
        self.source = source.standardizedFileURL
        self.output = (output ?? source.appendingPathComponent("public")).standardizedFileURL
        self.baseURL = baseURL
        self.includeDrafts = includeDrafts
        self.cacheDir = (cacheDir ?? source.appendingPathComponent(".sitegen-cache")).standardizedFileURL
    }

    /// The options of a build of `source` into `output` and with the cache in `cacheDir`, as the
    /// command line gives them (nil: the defaults); refused when they overlap the sources, the
    /// cache or a folder sitegen did not write (`OutputTarget`). The build then uses the resolved
    /// paths: what was checked is what is written.
    public static func checked(source: URL, output: String?, cacheDir: String?, force: Bool) throws(OutputTarget.Refusal) -> BuildOptions {
        let target = try OutputTarget.check(source: source, output: output, cache: cacheDir, force: force)
        var options = BuildOptions(source: source, output: target.output, cacheDir: target.cache)
        options.force = force
        return options
    }

    /// The image cache of this build.
    var imageCache: ImageCache { ImageCache(folder: cacheDir.appendingPathComponent("images")) }
    /// Where answers of HTTP APIs are kept.
    var dataCache: URL { cacheDir.appendingPathComponent("data") }
    var network: FetchSession.Network { offline ? .offline : cacheOnly ? .cacheOnly : .online }
}

/// What a build did, for the summary line.
public struct BuildReport: Sendable {
    public var pages: Int
    public var files: Int
    /// Phase name and seconds, in order.
    public var phases: [(name: String, seconds: Double)]
    public var output: URL
    /// Problems that did not stop the build (raw HTML a note lost to the allowlist), by file.
    public var warnings: [Diagnostic] = []
    /// Image sources decoded and resized in this build, and those found in the cache.
    public var imagesProcessed = 0
    public var imagesCached = 0
    /// Image sources read and hashed (those unchanged since an earlier build are not read).
    public var imagesRead = 0
    /// Answers of HTTP APIs fetched, and taken from the cache.
    public var dataFetched = 0
    public var dataCached = 0
    /// Problems that did not fail the build (`<where>: warning: …`): stale answers used.
    public var fetchWarnings: [String] = []
    /// What the build tells the user about no file (code left plain for want of the highlighter).
    public var notices: [String] = []
}

/// The pipeline: load → normalise → images → sort/lay out → plan → render → write
/// (docs/ARCHITECTURE.md).
public enum SiteBuilder {
    /// The base URL the site is built for (`baseURL` of `site.yml`, or the override), read
    /// without building: `sitegen check` checks the output against it.
    public static func baseURL(_ options: BuildOptions) throws(Diagnostics) -> String {
        try SiteInputs.readConfiguration(options).baseURL.description
    }

    public static func build(_ options: BuildOptions) throws(Diagnostics) -> BuildReport {
        try buildKeepingModel(options).report
    }

    /// A full build into `options.output` (swapped in only when it succeeded): the phases that
    /// load everything, then the phases every build shares (`SiteSession.planRenderWrite`) over
    /// an output where nothing was written. The model and what was written are returned for a
    /// session that rebuilds from them.
    static func buildKeepingModel(_ options: BuildOptions, generation: Int = 0) throws(Diagnostics)
        -> (report: BuildReport, model: SiteModel, written: SiteSession.Written) {
        var clock = PhaseClock()
        OutputStage.recover(output: options.output)
        let (config, content, templates) = try SiteInputs.loadConfiguration(options)
        clock.lap("config")
        let loadStarted = Date()
        let fetch = try SiteInputs.fetchSession(config, options: options)
        defer { fetch?.close() }
        var inputs = try SiteInputs.loadData(config: config, content: content, templates: templates, includeDrafts: options.includeDrafts,
                                             threads: options.threads, fetch: fetch)
        try inputs.loadAssets(options.source)
        clock.lap("load")
        let imagesStarted = Date()
        inputs.imageCache = options.imageCache
        inputs.images = try ImageStep.run(inputs.collections, notes: inputs.notes, content: content, cache: inputs.imageCache, threads: options.threads,
                                          deferring: options.deferImages, detailed: ImageStep.detailed(inputs),
                                          progress: options.imageProgress)
        clock.lap("images")
        do throws(Diagnostics) {
            var built = try writeSite(inputs, options: options, generation: generation, imagesStarted: imagesStarted, clock: &clock)
            if let fetch {
                (built.report.dataFetched, built.report.dataCached) = fetch.counts
                built.report.fetchWarnings = fetch.warnings
                if options.network == .online {
                    fetch.cache.prune(keeping: fetch.usedKeys, untouchedSince: min(loadStarted, Date().addingTimeInterval(-options.cacheGrace)))
                }
            }
            return built
        } catch {
            // A failed build leaves nothing running: the encodes under way end first.
            _ = inputs.images.encodes?.wait()
            throw error
        }
    }

    /// The phases from the model on, into a staging folder swapped in when they succeed.
    private static func writeSite(_ inputs: SiteInputs, options: BuildOptions, generation: Int, imagesStarted: Date, clock: inout PhaseClock) throws(Diagnostics)
        -> (report: BuildReport, model: SiteModel, written: SiteSession.Written) {
        let model = try SiteModel.make(inputs)
        clock.lap("sort")

        let plan = try SiteSession.checkedPlan(model)
        let stage: OutputStage
        do { stage = try OutputStage(output: options.output, force: options.force) } catch { throw Diagnostics([error]) }
        do throws(Diagnostics) {
            var written = SiteSession.Written.nothing(generation: generation, content: inputs.content)
            let pass = try SiteSession.planRenderWrite(model, plan: plan, options: options, changes: SiteSession.Changes(), written: &written, to: stage, clock: &clock)
            clock.lap("write")
            do { try stage.commit() } catch { throw Diagnostics([error]) }
            inputs.imageCache.prune(keeping: Set(inputs.images.images.values.map(\.key)), untouchedSince: min(imagesStarted, Date().addingTimeInterval(-options.cacheGrace)))
            var report = BuildReport(pages: pass.dirty.count, files: pass.filesWritten, phases: clock.phases, output: options.output)
            report.imagesProcessed = inputs.images.processed
            report.imagesCached = inputs.images.cached
            report.imagesRead = inputs.images.read
            report.warnings = inputs.notes.flatMap(\.warnings)
            report.notices = inputs.notices
            return (report, model, written)
        } catch {
            stage.discard()
            throw error
        }
    }
}

struct PhaseClock {
    private var last = DispatchTime.now()
    private(set) var phases: [(name: String, seconds: Double)] = []

    mutating func lap(_ name: String) {
        let now = DispatchTime.now()
        phases.append((name, Double(now.uptimeNanoseconds - last.uptimeNanoseconds) / 1e9))
        last = now
    }
}

extension SiteBuilder {
    /// No build of this process starts an output folder from now on (the process is exiting and
    /// removes what it wrote).
    public static func stopWritingForExit() { StagingGate.process.seal() }
}
