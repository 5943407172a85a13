import Foundation
import SiteCore
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

    public init(source: URL, output: URL? = nil, baseURL: String? = nil, includeDrafts: Bool = false, cacheDir: URL? = nil) {
        self.source = source.standardizedFileURL
        self.output = (output ?? source.appendingPathComponent("public")).standardizedFileURL
        self.baseURL = baseURL
        self.includeDrafts = includeDrafts
        self.cacheDir = (cacheDir ?? source.appendingPathComponent(".sitegen-cache")).standardizedFileURL
    }

    /// The image cache of this build.
    var imageCache: ImageCache { ImageCache(folder: cacheDir.appendingPathComponent("images")) }
}

/// What a build did, for the summary line.
public struct BuildReport: Sendable {
    public var pages: Int
    public var files: Int
    /// Phase name and seconds, in order.
    public var phases: [(name: String, seconds: Double)]
    public var output: URL
    /// Image sources decoded and resized in this build, and those found in the cache.
    public var imagesProcessed = 0
    public var imagesCached = 0
    /// Image sources read and hashed (those unchanged since an earlier build are not read).
    public var imagesRead = 0
    /// What the build tells the user besides errors (code left plain for want of the highlighter).
    public var warnings: [String] = []
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
        let (config, content, templates) = try SiteInputs.loadConfiguration(options)
        clock.lap("config")
        var inputs = try SiteInputs.loadData(config: config, content: content, templates: templates, includeDrafts: options.includeDrafts, threads: options.threads)
        try inputs.loadAssets(options.source)
        clock.lap("load")
        let imagesStarted = Date()
        inputs.imageCache = options.imageCache
        inputs.images = try ImageStep.run(inputs.collections, content: content, cache: inputs.imageCache, threads: options.threads,
                                          deferring: options.deferImages, progress: options.imageProgress)
        clock.lap("images")
        do throws(Diagnostics) {
            return try writeSite(inputs, options: options, generation: generation, imagesStarted: imagesStarted, clock: &clock)
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

        let stage: OutputStage
        do { stage = try OutputStage(output: options.output) } catch { throw Diagnostics([error]) }
        do throws(Diagnostics) {
            var written = SiteSession.Written.nothing(generation: generation, content: inputs.content)
            let pass = try SiteSession.planRenderWrite(model, options: options, changes: SiteSession.Changes(), written: &written, to: stage, clock: &clock)
            clock.lap("write")
            do { try stage.commit() } catch { throw Diagnostics([error]) }
            inputs.imageCache.prune(keeping: Set(inputs.images.images.values.map(\.key)), untouchedSince: min(imagesStarted, Date().addingTimeInterval(-options.cacheGrace)))
            var report = BuildReport(pages: pass.dirty.count, files: pass.filesWritten, phases: clock.phases, output: options.output)
            report.imagesProcessed = inputs.images.processed
            report.imagesCached = inputs.images.cached
            report.imagesRead = inputs.images.read
            report.warnings = inputs.warnings
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
