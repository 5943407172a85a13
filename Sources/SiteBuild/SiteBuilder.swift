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
    /// Where to list the files the build added, changed and removed (`--changes`), written only
    /// when it succeeds.
    public var changesFile: URL?
    /// Keep a record of what each page read and the notes loaded in the cache, and start from
    /// the last build's (`--incremental`): only the pages whose parts changed are made.
    public var incremental = false
    /// `serve`'s rebuilds: cached answers only (fetched in the background instead).
    var cacheOnly = false

    public init(
        source: URL, output: URL? = nil, baseURL: String? = nil, includeDrafts: Bool = false, cacheDir: URL? = nil
    ) {
        self.source = source.standardizedFileURL
        self.output = (output ?? source.appendingPathComponent(SourceLayout.defaultOutput)).standardizedFileURL
        self.baseURL = baseURL
        self.includeDrafts = includeDrafts
        self.cacheDir = (cacheDir ?? source.appendingPathComponent(SourceLayout.defaultCache)).standardizedFileURL
    }

    /// The options of a build of `source` into `output` and with the cache in `cacheDir`, as the
    /// command line gives them (nil: the defaults); refused when they overlap the sources, the
    /// cache or a folder sitegen did not write (`OutputTarget`). The build then uses the resolved
    /// paths: what was checked is what is written.
    public static func checked(
        source: URL, output: String?, cacheDir: String?, changes: String? = nil, force: Bool
    ) throws(OutputTarget.Refusal) -> BuildOptions {
        let target = try OutputTarget.check(
            source: source, output: output, cache: cacheDir, changes: changes, force: force)
        var options = BuildOptions(source: source, output: target.output, cacheDir: target.cache)
        options.force = force
        options.changesFile = target.changes
        return options
    }

    /// The image cache of this build.
    var imageCache: ImageCache { ImageCache(folder: cacheDir.appendingPathComponent("images")) }
    /// Where answers of HTTP APIs are kept.
    var dataCache: URL { cacheDir.appendingPathComponent("data") }
    /// Where the notes loaded are kept (`NoteCache`).
    var noteCache: URL { cacheDir.appendingPathComponent("notes") }
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
    /// Notes rendered from Markdown in this build, and those taken from the note cache.
    public var notesRendered = 0
    public var notesCached = 0
    /// Answers of HTTP APIs fetched, and taken from the cache.
    public var dataFetched = 0
    public var dataCached = 0
    /// Problems that did not fail the build (`<where>: warning: …`): stale answers used.
    public var fetchWarnings: [String] = []
    /// What the build tells the user about no file (code left plain for want of the highlighter).
    public var notices: [String] = []
    /// Files with the bytes the previous output had, kept as they were (same inode and time).
    public var filesKept = 0
    /// When the build found nothing to do (`UnchangedBuild`): how many source files it found as
    /// the last build read them.
    public var unchanged: Int?
    /// The files added, changed and removed (with `changesFile`), and the problem when their list
    /// could not be put in place after the output was replaced.
    public var changes: OutputChanges?
    public var changesProblem: Diagnostic?
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
        if options.incremental, let report = UnchangedBuild.check(options) { return report }
        return try FullBuild.run(options).report
    }
}

extension SiteBuilder {
    /// No build of this process starts an output folder from now on (the process is exiting and
    /// removes what it wrote).
    public static func stopWritingForExit() { StagingGate.process.seal() }
}
