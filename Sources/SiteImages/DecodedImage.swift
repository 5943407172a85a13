import Foundation
import SiteCore
import Synchronization

/// A source decoded at every output width, its placeholder made, its files not encoded yet:
/// what a page shows of it (`processed`) is known while the encodes still run, so a build with
/// a changed photo renders and writes its pages meanwhile. Its files are encoded once: each
/// picture is dropped as soon as its last file is made.
public struct DecodedImage: Sendable {
    let pictures: DecodedPictures
    /// Each picture's width × height (they outlive the pictures: they order the encodes).
    let pixels: [Int]
    let recipe: ImageRecipe
    /// The variants' sizes and the placeholder, the same as `ImageProcessor.process` gives.
    public let processed: ProcessedImage

    init(pictures: [VipsHandle], recipe: ImageRecipe, processed: ProcessedImage) {
        self.pictures = DecodedPictures(pictures, usesEach: recipe.formats.count)
        pixels = pictures.map { $0.width * $0.height }
        self.recipe = recipe
        self.processed = processed
    }

    /// Every file in `processed.variants`' order (format by format, widths ascending), encoded on
    /// `threads` threads; the bytes do not depend on it.
    public func encode(threads: Int = 1) throws(ImageFailure) -> [Data] {
        let made = try Vips.shared { () throws(ImageFailure) in encodeParts(threads: threads) }
        var files: [Data] = []
        for (i, result) in made.enumerated() {
            do throws(ImageFailure) { files.append(try result.get()) } catch {
                // As in `ImageProcessor.decode`: the reason read again from a run of its own, if
                // the failed part's picture is still held (only a use that succeeds drops it).
                guard pictures.holds(parts[i].picture) else { throw error }
                files.append(try Vips.alone { () throws(ImageFailure) in try encode(part: i) })
            }
        }
        return files
    }

    /// `encode` without the second run: the first failure as it was read.
    func encodeOnce(threads: Int = 1) throws(ImageFailure) -> [Data] {
        var files: [Data] = []
        for result in encodeParts(threads: threads) { files.append(try result.get()) }
        return files
    }

    func encodeParts(threads: Int) -> [Result<Data, ImageFailure>] {
        let order = startOrder(threads: threads)
        return Array(parts.indices).parallelMap(threads: threads, minimumCount: 2, startingWith: order) { i in
            Result { () throws(ImageFailure) in try encode(part: i) }
        }
    }

    /// Part `i`'s file. AVIF's pixels are copied out for the AV1 encoder, and the picture dropped
    /// if this was its last use, before the encode runs: the encoder's buffers are the largest.
    func encode(part i: Int) throws(ImageFailure) -> Data {
        let (format, picture) = parts[i]
        guard format == .avif, !recipe.keepMetadata else {
            return try pictures.use(picture) { image throws(ImageFailure) in
                try ImageProcessor.encode(image, format: format, recipe: recipe)
            }
        }
        let prepared = try pictures.use(picture) { image throws(ImageFailure) in try AVIFPixels(image) }
        return try prepared.encode(quality: recipe.quality)
    }

    /// The files to encode, in `processed.variants`' order.
    var parts: [(format: ImageFormat, picture: Int)] {
        recipe.formats.flatMap { f in pixels.indices.map { (f, $0) } }
    }

    /// The order `parts` start in, a picture's AVIF after its other formats (see `encode(part:)`).
    /// On several threads the most pixels first (`ImageProcessor.largestFirst`). On one the order
    /// costs no time: the fewest first, so each picture is dropped before a wider one's encodes and
    /// the widest picture's AVIF encode, a build's peak of memory, runs with no picture held.
    func startOrder(threads: Int) -> [Int] {
        let byPixels = ImageProcessor.largestFirst(threads > 1 ? pixels : pixels.map { -$0 })
        var rank = [Int](repeating: 0, count: pixels.count)
        for (r, picture) in byPixels.enumerated() { rank[picture] = r }
        let parts = parts
        func key(_ i: Int) -> (Int, Int, Int) { (rank[parts[i].picture], parts[i].format == .avif ? 1 : 0, i) }
        return parts.indices.sorted { key($0) < key($1) }
    }
}

/// A decoded source's pictures, each held until its last file is made (`use` counts them): a
/// photo's encodes then hold only the pictures still to be encoded.
final class DecodedPictures: Sendable {
    private let state: Mutex<[(picture: VipsHandle?, uses: Int)]>

    init(_ pictures: [VipsHandle], usesEach: Int) {
        state = Mutex(pictures.map { ($0, usesEach) })
    }

    /// `body` on picture `i`; once it succeeds, one use fewer, and the picture dropped after its
    /// last. A failed use keeps it (its failure may be read again alone).
    func use<T: ~Copyable>(_ i: Int, _ body: (VipsHandle) throws(ImageFailure) -> T) throws(ImageFailure) -> T {
        guard let picture = state.withLock({ $0[i].picture }) else {
            throw ImageFailure("cannot encode: the picture was dropped after its last use")
        }
        let result = try body(picture)
        state.withLock {
            $0[i].uses -= 1
            if $0[i].uses == 0 { $0[i].picture = nil }
        }
        return result
    }

    /// Whether picture `i` is still held.
    func holds(_ i: Int) -> Bool { state.withLock { $0[i].picture != nil } }

    /// How many pictures are still held.
    var held: Int { state.withLock { $0.count { $0.picture != nil } } }
}
