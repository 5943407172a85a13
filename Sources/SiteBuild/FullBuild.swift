import Foundation
import SiteCore
import SiteImages
import SiteFetch
import SiteLoad
import SiteWrite

/// A whole build: the phases that load everything (configuration, data and notes, images),
/// the model, then `BuildPass` over an output where nothing was written. `sitegen build` is one
/// (`SiteBuilder`), and so are `serve`'s first build and its rebuilds after `site.yml` changed
/// (`SiteSession`).
enum FullBuild {
    /// What a whole build made: its report, and for a session that rebuilds from them, the inputs
    /// it loaded, the model made of them and what was written.
    struct Built {
        var report: BuildReport
        var inputs: SiteInputs
        var model: SiteModel
        var plan: SitePlan
        var written: BuildPass.Written
        var sources: BuildPass.SourceVersions
    }

    /// Builds into `options.output` (swapped in only when it succeeded); `session`: `serve`'s
    /// build, which neither reads nor keeps a build record (its passes compare with each other).
    static func run(_ options: BuildOptions, generation: Int = 0, session: Bool = false) throws(Diagnostics)
        -> Built
    {
        var clock = PhaseClock()
        OutputStage.recover(output: options.output)
        // What the sources are before they are read, for the record (`UnchangedBuild`).
        let sources = options.incremental && !session ? BuildRecord.sourceCensus(options) : nil
        let (config, content, templates) = try SiteInputs.loadConfiguration(options)
        clock.lap("config")
        let loadStarted = Date()
        let fetch = try SiteInputs.fetchSession(config, options: options)
        defer { fetch?.close() }
        // `serve` starts from the notes it loaded last time; `sitegen build` when incremental.
        let noteCache = session || options.incremental ? NoteCache(folder: options.noteCache) : nil
        let inputs = try SiteInputs.loadData(
            source: options.source, config: config, content: content, templates: templates,
            includeDrafts: options.includeDrafts,
            threads: options.threads, fetch: fetch, noteCache: noteCache)
        clock.lap("load")
        let imagesStarted = Date()
        // The image phase's encodes run on while the pages are made; the build owns them and
        // returns only once they ended, whether it succeeded or failed.
        let encodes = PendingEncodes()
        defer { _ = encodes.wait() }
        let images = try ImageStep.run(
            inputs.collections, notes: inputs.notes, content: content,
            cache: options.imageCache, threads: options.threads, encodes: encodes,
            deferring: options.deferImages,
            detailed: ImageStep.detailed(inputs), progress: options.imageProgress)
        clock.lap("images")
        var built = try writeSite(
            inputs, images: images, encodes: encodes, options: options,
            generation: generation, session: session, sources: repeatable(inputs, fetch: fetch) ? sources : nil,
            imagesStarted: imagesStarted, clock: &clock)
        // The notes this build loaded, for the next one (once the output is in place).
        if let noteCache {
            noteCache.save(threads: options.threads)
            built.report.warnings += noteCache.warnings
            (built.report.notesRendered, built.report.notesCached) = noteCache.counts
        }
        if let fetch {
            (built.report.dataFetched, built.report.dataCached) = fetch.counts
            built.report.fetchWarnings = fetch.warnings
            if options.network == .online {
                let since = min(loadStarted, Date().addingTimeInterval(-options.cacheGrace))
                fetch.cache.prune(keeping: fetch.usedKeys, untouchedSince: since)
            }
        }
        return built
    }

    /// Whether a build of `inputs` may be skipped while its sources stay as they are: not when
    /// its data is fetched (the answers may change), nor when it warned or noted something (a
    /// skipped build would not say it again).
    private static func repeatable(_ inputs: SiteInputs, fetch: FetchSession?) -> Bool {
        fetch == nil && inputs.notices.isEmpty && inputs.notes.allSatisfy(\.warnings.isEmpty)
    }

    /// The phases from the model on, into a staging folder swapped in when they succeed;
    /// `sources`: their census, for the record, when the build keeps one and its data is not
    /// fetched.
    private static func writeSite(
        _ inputs: SiteInputs, images: ImageStep.Result, encodes: PendingEncodes,
        options: BuildOptions, generation: Int,
        session: Bool, sources: FileCensus?, imagesStarted: Date, clock: inout PhaseClock
    ) throws(Diagnostics)
        -> Built
    {
        let model = try SiteModel.make(inputs, images: images)
        clock.lap("sort")

        let plan = try SitePlan.checked(model)
        let stage: OutputStage
        do {
            stage = try OutputStage(
                output: options.output,
                force: options.force)
        } catch { throw Diagnostics([error]) }
        // An incremental build starts from the last build's record, when it can use it; a
        // session from nothing (its passes compare with each other); a plain build records
        // nothing (every page is made once, and compared with nothing).
        let keepsRecord = options.incremental && !session
        let header = keepsRecord ? BuildRecord.header(options, inputs.config) : nil
        let (record, recordNotice) = header.map { BuildRecord.load(options, header: $0) } ?? (nil, nil)
        do throws(Diagnostics) {
            var written = BuildPass.Written.nothing(
                generation: generation, fingerprinted: session || options.incremental)
            var sourceVersions = BuildPass.SourceVersions(inputs.content)
            record?.seed(&written)
            let pass = try BuildPass.run(
                model, plan: plan, options: options, changes: ChangeSet(),
                encodes: encodes, sources: &sourceVersions, written: &written,
                to: stage, clock: &clock)
            clock.lap("write")
            let listed: OutputStage.Listed?
            do { listed = try stage.commit(listingChangesIn: options.changesFile?.path) } catch {
                throw Diagnostics([error])
            }
            let recordProblem = header.flatMap { header in
                var record = BuildRecord.made(header, written, urls: model.urls, threads: options.threads)
                if let sources, let output = BuildRecord.outputCensus(stage.writtenPaths, options: options) {
                    record.census = BuildRecord.Census(
                        sources: sources, output: output, context: BuildRecord.context(inputs.config))
                }
                return record.save(options)
            }
            options.imageCache.prune(
                keeping: Set(images.images.values.map(\.key)),
                untouchedSince: min(imagesStarted, Date().addingTimeInterval(-options.cacheGrace)))
            var report = BuildReport(
                pages: pass.dirty.count, files: pass.filesWritten, phases: clock.phases,
                output: options.output)
            report.imagesProcessed = images.processed
            report.imagesCached = images.cached
            report.imagesRead = images.read
            report.warnings = inputs.notes.flatMap(\.warnings)
            report.notices = inputs.notices + [recordNotice, recordProblem].compactMap { $0 }
            report.filesKept = stage.keptFiles
            report.changes = listed?.changes
            report.changesProblem = listed?.problem
            return Built(
                report: report, inputs: inputs, model: model, plan: plan, written: written, sources: sourceVersions)
        } catch {
            stage.discard()
            throw error
        }
    }
}
