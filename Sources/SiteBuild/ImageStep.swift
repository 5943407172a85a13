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

    /// Output path of a variant, under the site's root.
    func path(_ v: ImageVariant) -> String { "assets/img/\(key)-\(v.width).\(v.format.fileExtension)" }

    /// `src`, `width`, `height` (the widest fallback), `srcset` (fallback), `sizes`, `sources`
    /// (`type` and `srcset` per modern format, most preferred first), `avif`/`webp` srcsets, and
    /// `placeholder` (`color`, `preview`, `style`).
    func view(root: String) -> ImageView {
        let fallback = formats.last ?? .jpeg
        let main = processed.variants(fallback).last ?? processed.variants[0]
        func srcset(_ f: ImageFormat) -> String {
            processed.variants(f).map { "\(root)\(path($0)) \($0.width)w" }.joined(separator: ", ")
        }
        return ImageView(src: root + path(main), width: main.width, height: main.height,
                         resized: ImageView.Resized(srcset: srcset(fallback), sizes: sizes,
                                                    sources: formats.dropLast().map { ($0.rawValue, $0.mimeType, srcset($0)) },
                                                    color: processed.color, preview: processed.preview))
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
        var recipe: ImageRecipe
        var sizes: String
        /// The first item that points at the source, for messages.
        var at: SourceLocation
        var uses: [ImageUse]
    }

    struct Result: Sendable {
        var images: [ImageUse: PublishedImage] = [:]
        /// Sources decoded this build (not found in the cache).
        var processed = 0
        var cached = 0
        /// Source files (relative to content/) published only through their resized copies.
        var sources: Set<String> = []
    }

    static func run(_ collections: [LoadedCollection], content: ContentTree, cache: ImageCache, threads: Int,
                    progress: (@Sendable (Int, Int) -> Void)? = nil) throws(Diagnostics) -> Result {
        let jobs = plan(collections)
        let done = Counter()
        let outcomes = jobs.parallelMap(threads: threads, minimumCount: 2) { job -> Swift.Result<(PublishedImage, Bool), Diagnostic> in
            defer { progress?(done.increment(), jobs.count) }
            return Swift.Result { () throws(Diagnostic) in try process(job, content: content, cache: cache) }
        }
        var result = Result()
        var problems: [Diagnostic] = []
        for (job, outcome) in zip(jobs, outcomes) {
            switch outcome {
            case .success(let (image, fresh)):
                for use in job.uses { result.images[use] = image }
                if fresh { result.processed += 1 } else { result.cached += 1 }
                result.sources.insert(job.source)
            case .failure(let d): problems.append(d)
            }
        }
        if !problems.isEmpty { throw Diagnostics(problems) }
        // A file also shown as it is (a field that is not resized, an icon) stays published.
        for c in collections {
            if let icon = c.icon, !icon.isExternal { result.sources.remove(icon.source) }
            guard let rule = c.config.images, !rule.resize else { continue }
            for item in c.items { for info in item.images.values where !info.isExternal { result.sources.remove(info.source) } }
        }
        return result
    }

    /// One job per (source, recipe), in a stable order, naming the first item that uses it.
    static func plan(_ collections: [LoadedCollection]) -> [Job] {
        var jobs: [Job] = []
        var index: [String: Int] = [:]
        for c in collections {
            guard let rule = c.config.images, rule.resize, !rule.external else { continue }
            for field in rule.fields {
                let output = rule.output(field)
                let defaults = ImageDefaults.outputs(c.config, field: field)
                for item in c.items {
                    guard let info = item.images[field], !info.isExternal, ImageInfo.isResizable(info.source), let width = info.width else { continue }
                    let formats = output.formats?.compactMap(ImageFormat.init(rawValue:)) ?? ImageDefaults.formats(source: info.source)
                    let recipe = ImageRecipe(widths: output.widths ?? defaults.widths, formats: formats, quality: output.quality, keepMetadata: rule.keepMetadata)
                    let use = ImageUse(collection: c.config.name, field: field, source: info.source)
                    let id = "\(info.source)\u{0}\(recipe.fingerprint)\u{0}\(output.sizes ?? defaults.sizes)"
                    if let k = index[id] { jobs[k].uses.append(use); continue }
                    var at = item.source
                    at.path = "\(item.source.path ?? "").\(field)"
                    index[id] = jobs.count
                    jobs.append(Job(source: info.source, sourceWidth: width, recipe: recipe, sizes: output.sizes ?? defaults.sizes, at: at, uses: [use]))
                }
            }
        }
        return jobs
    }

    /// The job's entry from the cache, else processed and stored; true when it was processed.
    static func process(_ job: Job, content: ContentTree, cache: ImageCache) throws(Diagnostic) -> (PublishedImage, Bool) {
        let data: Data
        do { data = try content.read(job.source) } catch { throw Diagnostic(job.at, "image 'content/\(job.source)': \(error.message)") }
        let key = ImageCache.key(source: data, recipe: job.recipe)
        func published(_ p: ProcessedImage) -> PublishedImage {
            PublishedImage(key: key, processed: p, formats: job.recipe.formats, sizes: job.sizes)
        }
        if let hit = cache.lookup(key) { return (published(hit), false) }
        do throws(ImageFailure) {
            let (processed, files) = try ImageProcessor.process(data, sourceWidth: job.sourceWidth, recipe: job.recipe)
            try cache.store(key, processed, files: files)
            return (published(processed), true)
        } catch {
            throw Diagnostic(job.at, "image 'content/\(job.source)': \(error.message)")
        }
    }
}

/// Counts finished jobs across threads (for the progress line).
final class Counter: Sendable {
    private let value = Mutex(0)
    func increment() -> Int { value.withLock { $0 += 1; return $0 } }
}
