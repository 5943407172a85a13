import Foundation
import Synchronization
import SiteCore
import SiteImages
import SiteLoad

/// One image field's source as the site publishes it: its processed files and attributes.
struct PublishedImage: Sendable, Hashable {
    var key: String
    var processed: ProcessedImage
    var formats: [ImageFormat]
    var sizes: String
    /// The widths of the field's own files (`processed` may hold the detail variant's too).
    var widths: [Int]
    /// The variant for a detail page's column, when the site's item templates use one.
    var detail: DetailVariant? = nil
    /// The source as it is (content-relative), shown while it waits to be processed: `serve`
    /// never holds a page back for a photo being resized.
    var original: String? = nil

    /// The widths and `sizes` of an image's variant for the detail column.
    struct DetailVariant: Sendable, Hashable {
        var widths: [Int]
        var sizes: String
    }

    /// Output path of a variant, under the site's root.
    func path(_ variant: ImageVariant) -> String {
        original ?? URLScheme.imageFile(key: key, width: variant.width, fileExtension: variant.format.fileExtension)
    }

    /// A source not processed yet, published as it is at its own size.
    static func waiting(_ job: ImageStep.Job) -> PublishedImage {
        let format = ImageFormat(sourcePath: job.source)
        let variant = ImageVariant(format: format, width: job.sourceWidth, height: job.sourceHeight)
        return PublishedImage(
            key: "", processed: ProcessedImage(variants: [variant], color: "transparent", preview: "data:,"),
            formats: [format], sizes: job.sizes, widths: [job.sourceWidth],
            detail: job.detail.map { DetailVariant(widths: [job.sourceWidth], sizes: $0.sizes) }, original: job.source)
    }

    /// `src`, `width`, `height` (the widest fallback), `srcset` (fallback), `sizes`, `sources`
    /// (`type` and `srcset` per modern format, most preferred first), `avif`/`webp` srcsets,
    /// `placeholder` (`color`, `preview`, `style`) and `detail` (the same for the detail column).
    func view(root: String) -> ImageView {
        let own = variant(root: root, widths: widths, sizes: sizes)
        var view = ImageView(
            src: own.src, width: own.width, height: own.height,
            resized: ImageView.Resized(
                srcset: own.srcset, sizes: sizes, sources: own.sources,
                color: processed.color, preview: processed.preview))
        view.detail = detail.map { variant(root: root, widths: $0.widths, sizes: $0.sizes) } ?? own
        return view
    }

    /// The files of `widths` as one `srcset` per format, the widest fallback as `src`.
    func variant(root: String, widths: [Int], sizes: String) -> ImageView.Variant {
        let fallback = formats.last ?? .jpeg
        let wanted = Set(widths)
        func files(_ format: ImageFormat) -> [ImageVariant] {
            processed.variants(format).filter { wanted.contains($0.width) }
        }
        func srcset(_ format: ImageFormat) -> String {
            files(format).map { "\(root)\(path($0)) \($0.width)w" }.joined(separator: ", ")
        }
        let main = files(fallback).last ?? processed.variants(fallback).last ?? processed.variants[0]
        return ImageView.Variant(
            src: root + path(main), width: main.width, height: main.height, srcset: srcset(fallback), sizes: sizes,
            sources: formats.dropLast().map {
                ImageView.Source(format: ImageView.Key(format: $0).rawValue, type: $0.mimeType, srcset: srcset($0))
            })
    }
}

/// Identifies an image field's use of a source: the same file in two fields may be made differently.
struct ImageUse: Sendable, Hashable {
    var collection: String
    var field: String
    var source: String
}

/// The image phase: every resized image field of every item processed (or found in the cache),
/// in parallel, each source once per recipe.
enum ImageStep {
    struct Job: Sendable {
        var source: String
        var sourceWidth: Int
        var sourceHeight: Int
        var recipe: ImageRecipe
        var sizes: String
        /// The field's own widths (`recipe` adds the detail variant's).
        var widths: [Int]
        var detail: PublishedImage.DetailVariant?
        /// The first item that points at the source, for messages.
        var at: SourceLocation
        var uses: [ImageUse]

        /// The job's image as the cache entry `key` holds it.
        func published(_ processed: ProcessedImage, _ key: String) -> PublishedImage {
            PublishedImage(
                key: key, processed: processed, formats: recipe.formats, sizes: sizes,
                widths: ImageRecipe(widths: widths, formats: [], quality: 0).outputWidths(sourceWidth: sourceWidth),
                detail: detail.map {
                    .init(
                        widths: ImageRecipe(widths: $0.widths, formats: [], quality: 0).outputWidths(
                            sourceWidth: sourceWidth),
                        sizes: $0.sizes)
                })
        }
    }

    struct Result: Sendable {
        var images: [ImageUse: PublishedImage] = [:]
        /// Sources decoded this build (not found in the cache).
        var processed = 0
        var cached = 0
        /// Sources read and hashed (a source unchanged since an earlier build is not read).
        var read = 0
        /// Source files (relative to content/) not published: their resized copies replace them.
        var replacedSources: Set<String> = []
        /// Sources not in the cache, left for later (`deferring`): published as they are meanwhile.
        var waiting: [Job] = []
        /// The collections whose images got a detail variant.
        var detailed: Set<String> = []
        /// Where the resized images are (nil: no image phase ran, and there are none).
        var cache: ImageCache?
    }

    /// With `deferring`, nothing is decoded: sources not in the cache are left in `waiting`.
    /// `detailed`: the collections whose item templates show an image's `detail` variant.
    /// The files of the sources decoded are encoded on `encodes`, still running when `run` returns;
    /// the caller owns them (waits for them before it returns, whatever happened).
    static func run(
        _ collections: [LoadedCollection], notes: [Note] = [], content: ContentTree, cache: ImageCache,
        threads: Int, encodes: PendingEncodes, deferring: Bool = false, detailed: Set<String> = [],
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws(Diagnostics) -> Result {
        let jobs = plan(collections, notes: notes, detailed: detailed)
        if !jobs.isEmpty { cache.removeLeftovers() }
        let digests = cache.digests()
        // First what the cache has for sources unchanged since they were hashed (none is read) …
        var outcomes: [Swift.Result<Outcome, Diagnostic>?] = jobs.parallelMap(threads: threads) { job in
            cached(job, content: content, cache: cache, digests: digests).map { .success($0) }
        }
        // … then the rest, read, hashed and decoded unless the cache has them; their encodes go on
        // while the pages are made (the write phase waits for them before copying their files).
        let rest = outcomes.indices.filter { outcomes[$0] == nil }
        let made = decode(
            rest.map { jobs[$0] }, content: content, cache: cache, encodes: encodes,
            deferring: deferring, threads: threads, progress: progress)
        for (i, outcome) in zip(rest, made) { outcomes[i] = outcome }
        var result = Result()
        result.detailed = detailed
        result.cache = cache
        var problems: [Diagnostic] = []
        var fresh: [String: SourceDigests.Entry] = [:]
        for (job, outcome) in zip(jobs, outcomes) {
            switch outcome! {  // every job has its outcome: from the cache or from `process`
            case .success(let o):
                for use in job.uses { result.images[use] = o.image }
                if o.image.original != nil {
                    result.waiting.append(job)
                } else if o.processed {
                    result.processed += 1
                } else {
                    result.cached += 1
                }
                if o.image.original == nil { result.replacedSources.insert(job.source) }
                if let d = o.digest { fresh[sourcePath(job.source, content)] = d }
                if o.read { result.read += 1 }
            case .failure(let d): problems.append(d)
            }
        }
        if !problems.isEmpty {
            // With the encodes' own failures, once they end.
            if let more = encodes.wait() { problems += more.items }
            throw Diagnostics(problems)
        }
        let used = Set(jobs.map { sourcePath($0.source, content) })
        let kept = digests.updated(with: fresh, root: content.root.path, keeping: used)
        if kept != digests { try? cache.save(kept) }  // a shortcut only: without it sources are hashed again
        // A file also shown as it is (a field that is not resized, an icon) stays published.
        for c in collections {
            if let icon = c.icon, !icon.isExternal { result.replacedSources.remove(icon.source) }
            guard let rule = c.config.images, !rule.resize else { continue }
            for item in c.items {
                for info in item.images.values where !info.isExternal { result.replacedSources.remove(info.source) }
            }
        }
        return result
    }

    /// The collections with item pages whose template (with its partials) names `detail`
    /// (`{{#item.poster.detail}}`): their image fields get the detail column's variant.
    static func detailed(_ inputs: SiteInputs) -> Set<String> {
        Set(
            inputs.config.collections.filter { c in
                c.detailURL != nil
                    && inputs.templates.usesName("detail", from: c.detailTemplate ?? ItemPage.builtinName)
            }.map(\.name))
    }

    static func sourcePath(_ source: String, _ content: ContentTree) -> String {
        content.root.appendingPathComponent(source).path
    }

    /// Where a note's image is found among the results: no collection has an empty name.
    static func noteUse(_ source: String) -> ImageUse { ImageUse(collection: "", field: "note", source: source) }

    /// One job per (source, recipe), in a stable order, naming the first item (or note) that uses it.
    static func plan(_ collections: [LoadedCollection], notes: [Note] = [], detailed: Set<String> = []) -> [Job] {
        var jobs: [Job] = []
        var index: [String: Int] = [:]
        for c in collections {
            guard let rule = c.config.images, rule.resize, !rule.external else { continue }
            for field in rule.fields {
                let output = rule.output(field)
                let defaults = ImageDefaults.outputs(c.config, field: field)
                let detail =
                    detailed.contains(c.config.name)
                    ? PublishedImage.DetailVariant(
                        widths: ImageDefaults.detailWidths, sizes: ImageDefaults.detailColumnSizes) : nil
                for item in c.items {
                    guard let info = item.images[field], !info.isExternal, ImageInfo.isResizable(info.source),
                        let width = info.width, let height = info.height
                    else { continue }
                    let formats =
                        output.formats?.compactMap(ImageFormat.init(rawValue:))
                        ?? ImageDefaults.formats(source: info.source)
                    let own = output.widths ?? defaults.widths
                    let recipe = ImageRecipe(
                        widths: detail.map { Array(Set(own + $0.widths)).sorted() } ?? own, formats: formats,
                        quality: output.quality,
                        keepMetadata: rule.keepMetadata)
                    let use = ImageUse(collection: c.config.name, field: field, source: info.source)
                    let id = "\(info.source)\u{0}\(recipe.fingerprint)\u{0}\(output.sizes ?? defaults.sizes)"
                    if let k = index[id] { jobs[k].uses.append(use); continue }
                    var at = item.source
                    at.path = "\(item.source.path ?? "").\(field)"
                    index[id] = jobs.count
                    jobs.append(
                        Job(
                            source: info.source, sourceWidth: width, sourceHeight: height, recipe: recipe,
                            sizes: output.sizes ?? defaults.sizes,
                            widths: own, detail: detail, at: at, uses: [use]))
                }
            }
        }
        addNoteJobs(notes, to: &jobs, index: &index)
        return jobs
    }

    /// Notes' images, resized like dataset images, for the note column.
    static func addNoteJobs(_ notes: [Note], to jobs: inout [Job], index: inout [String: Int]) {
        let recipe = ImageRecipe(widths: ImageDefaults.noteWidths, formats: [], quality: ImageOutput.defaultQuality)
        for note in notes {
            for i in note.images where ImageInfo.isResizable(i.info.source) {
                guard let width = i.info.width, let height = i.info.height else { continue }
                var r = recipe
                r.formats = ImageDefaults.formats(source: i.info.source)
                let id = "\(i.info.source)\u{0}\(r.fingerprint)\u{0}\(ImageDefaults.noteSizes)"
                if let k = index[id] {
                    if !jobs[k].uses.contains(noteUse(i.info.source)) { jobs[k].uses.append(noteUse(i.info.source)) }
                    continue
                }
                index[id] = jobs.count
                jobs.append(
                    Job(
                        source: i.info.source, sourceWidth: width, sourceHeight: height, recipe: r,
                        sizes: ImageDefaults.noteSizes,
                        widths: ImageDefaults.noteWidths, detail: nil,
                        at: SourceLocation(file: note.file, line: i.line), uses: [noteUse(i.info.source)]))
            }
        }
    }

    /// A job's image, whether it was processed (not found in the cache), and the digest of its
    /// source when the source was read and hashed.
    struct Outcome: Sendable {
        var image: PublishedImage
        var processed: Bool
        var read = true
        var digest: SourceDigests.Entry? = nil
    }

    /// The job's entry from the cache when its source's remembered digest is current (the source
    /// is not read), else nil.
    static func cached(_ job: Job, content: ContentTree, cache: ImageCache, digests: SourceDigests) -> Outcome? {
        guard let hash = digests.hash(of: sourcePath(job.source, content)) else { return nil }
        let key = ImageCache.key(sourceHash: hash, recipe: job.recipe)
        guard let hit = cache.lookup(key) else { return nil }
        return Outcome(image: job.published(hit, key), processed: false, read: false)
    }

    /// The job's entry from the cache, else processed (on `threads` threads) and stored. The
    /// source is read only when its remembered digest is stale or its entry is missing.
    static func process(_ job: Job, content: ContentTree, cache: ImageCache, digests: SourceDigests, threads: Int = 1)
        throws(Diagnostic) -> Outcome
    {
        if let hit = cached(job, content: content, cache: cache, digests: digests) { return hit }
        let (outcome, decoded) = try decodeSource(job, content: content, cache: cache, threads: threads)
        if let decoded { try encode(job, decoded, key: outcome.image.key, cache: cache, threads: threads) }
        return outcome
    }

    /// `jobs` read, hashed and, unless the cache has them (or `deferring`), decoded, on a thread of
    /// their own; returns once every one is decoded (or failed), their encodes still running on
    /// `encodes`. Fewer jobs than threads share the threads: one photo changed is resized on every core.
    static func decode(
        _ jobs: [Job], content: ContentTree, cache: ImageCache, encodes: PendingEncodes,
        deferring: Bool, threads: Int,
        progress: (@Sendable (Int, Int) -> Void)?
    ) -> [Swift.Result<Outcome, Diagnostic>] {
        guard !jobs.isEmpty else { return [] }
        let each = max(1, threads / jobs.count)
        let decoded = Arrivals<Swift.Result<Outcome, Diagnostic>>(count: jobs.count)
        let done = Counter()
        encodes.start {
            _ = Array(jobs.indices).parallelMap(threads: threads, minimumCount: 2) { i in
                defer { progress?(done.increment(), jobs.count) }
                let result = Swift.Result { () throws(Diagnostic) in
                    try decodeSource(jobs[i], content: content, cache: cache, deferring: deferring, threads: each)
                }
                guard case .success(let (outcome, picture)) = result, let picture else {
                    decoded.set(i, result.map(\.0))
                    return
                }
                let key = outcome.image.key
                encodes.add(picture.processed.variants.map { cache.path(key, $0) })
                decoded.set(i, .success(outcome))
                do throws(Diagnostic) { try encode(jobs[i], picture, key: key, cache: cache, threads: each) } catch {
                    encodes.failed(i, error)
                }
            }
        }
        return decoded.waitForAll()
    }

    /// The job's source read and hashed: its entry from the cache under that hash, else (unless
    /// `deferring`) decoded on `threads` threads, its files left to `encode`.
    static func decodeSource(
        _ job: Job, content: ContentTree, cache: ImageCache, deferring: Bool = false,
        threads: Int = 1
    ) throws(Diagnostic) -> (Outcome, DecodedImage?) {
        let path = sourcePath(job.source, content)
        let readAt = SourceDigests.now
        let data: Data
        do { data = try content.read(job.source) } catch {
            throw Diagnostic(job.at, "image '\(SourceLayout.contentFile(job.source))': \(error.message)")
        }
        let hash = ImageCache.hash(data)
        let digest = SourceDigests.entry(path, hash: hash, readAt: readAt)
        let key = ImageCache.key(sourceHash: hash, recipe: job.recipe)
        if let hit = cache.lookup(key) {
            return (Outcome(image: job.published(hit, key), processed: false, digest: digest), nil)
        }
        if deferring { return (Outcome(image: .waiting(job), processed: false, digest: digest), nil) }
        do throws(ImageFailure) {
            let decoded = try ImageProcessor.decode(
                data, sourceWidth: job.sourceWidth, recipe: job.recipe, threads: threads)
            return (Outcome(image: job.published(decoded.processed, key), processed: true, digest: digest), decoded)
        } catch {
            throw Diagnostic(job.at, "image '\(SourceLayout.contentFile(job.source))': \(error.message)")
        }
    }

    /// A decoded source's files encoded on `threads` threads and stored under `key`.
    static func encode(_ job: Job, _ decoded: DecodedImage, key: String, cache: ImageCache, threads: Int)
        throws(Diagnostic)
    {
        do throws(ImageFailure) {
            try cache.store(key, decoded.processed, files: try decoded.encode(threads: threads))
        } catch {
            throw Diagnostic(job.at, "image '\(SourceLayout.contentFile(job.source))': \(error.message)")
        }
    }
}

/// Counts finished jobs across threads (for the progress line).
final class Counter: Sendable {
    private let value = Mutex(0)
    func increment() -> Int {
        value.withLock {
            $0 += 1; return $0
        }
    }
}

/// Images a build left for later, to process away from the build (on any thread); the next
/// update of the session finds them in the cache.
public struct WaitingImages: Sendable {
    var jobs: [ImageStep.Job]
    let content: ContentTree
    let cache: ImageCache
    let threads: Int
    let progress: (@Sendable (Int, Int) -> Void)?

    /// How many sources wait.
    public var count: Int { jobs.count }

    /// These less the sources at `paths` (relative to the site's folder); nil when none is left.
    public func excluding(_ paths: Set<String>) -> WaitingImages? {
        var rest = self
        rest.jobs = jobs.filter { !paths.contains(Self.path($0)) }
        return rest.jobs.isEmpty ? nil : rest
    }

    static func path(_ job: ImageStep.Job) -> String { SourceLayout.contentFile(job.source) }

    /// What processing them did: source paths (relative to the site's folder, for
    /// `SiteSession.update`) now in the cache, those that failed, and why.
    public struct Outcome: Sendable {
        public var done: Set<String> = []
        public var failed: Set<String> = []
        public var problems: Diagnostics?
    }

    /// Processes them into the cache, on `threads` threads.
    public func process() -> Outcome {
        let counter = Counter()
        let digests = cache.digests()
        let each = max(1, threads / jobs.count)
        let results = jobs.parallelMap(threads: threads, minimumCount: 2) { job -> Diagnostic? in
            defer { progress?(counter.increment(), jobs.count) }
            do throws(Diagnostic) {
                _ = try ImageStep.process(job, content: content, cache: cache, digests: digests, threads: each)
            } catch { return error }
            return nil
        }
        var outcome = Outcome()
        var problems: [Diagnostic] = []
        for (job, problem) in zip(jobs, results) {
            if let problem {
                problems.append(problem); outcome.failed.insert(Self.path(job))
            } else {
                outcome.done.insert(Self.path(job))
            }
        }
        outcome.problems = problems.isEmpty ? nil : Diagnostics(problems)
        return outcome
    }
}
