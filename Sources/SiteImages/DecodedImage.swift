import Foundation
import SiteCore

/// A source decoded at every output width, its placeholder made, its files not encoded yet:
/// what a page shows of it (`processed`) is known while the encodes still run, so a build with
/// a changed photo renders and writes its pages meanwhile.
public struct DecodedImage: Sendable {
    let pictures: [VipsHandle]
    let recipe: ImageRecipe
    /// The variants' sizes and the placeholder, the same as `ImageProcessor.process` gives.
    public let processed: ProcessedImage

    /// Every file in `processed.variants`' order (format by format, widths ascending), encoded on
    /// `threads` threads; the bytes do not depend on it.
    public func encode(threads: Int = 1) throws(ImageFailure) -> [Data] {
        do {
            return try Vips.shared { () throws(ImageFailure) in try encodeOnce(threads: threads) }
        } catch {
            // As in `ImageProcessor.decode`: the reason read again from a run of its own.
            return try Vips.alone { () throws(ImageFailure) in try encodeOnce() }
        }
    }

    func encodeOnce(threads: Int = 1) throws(ImageFailure) -> [Data] {
        let made = parts.parallelMap(threads: threads, minimumCount: 2, startingWith: startOrder) {
            part -> Result<Data, ImageFailure> in
            Result { () throws(ImageFailure) in
                try ImageProcessor.encode(pictures[part.picture], format: part.format, recipe: recipe)
            }
        }
        var files: [Data] = []
        for result in made { files.append(try result.get()) }
        return files
    }

    /// The files to encode, in `processed.variants`' order.
    var parts: [(format: ImageFormat, picture: Int)] {
        recipe.formats.flatMap { f in pictures.indices.map { (f, $0) } }
    }

    /// The order `parts` start in: the most pixels first (`ImageProcessor.largestFirst`).
    var startOrder: [Int] {
        ImageProcessor.largestFirst(parts.map { pictures[$0.picture].width * pictures[$0.picture].height })
    }
}
