import CVipsLoader
import Foundation
import SiteCore

/// Resizes one source image with libvips: each output width decoded from the source on its own
/// (JPEG and WebP shrink on load, so a narrow decode costs little), turned upright by its EXIF
/// orientation, in 8-bit sRGB; every format encoded from that, metadata stripped unless kept;
/// plus its dominant colour and a blurred preview.
public enum ImageProcessor {
    /// Side of the preview's longer edge in pixels: a WebP of a few hundred bytes.
    static let previewSide = 16

    /// The outputs of `source` (the whole file) by `recipe`, the data in `variants`' order.
    /// `sourceWidth` is the upright width read from the header (it picks the output widths).
    /// `threads` share this one source's decodes and encodes (a build with one photo changed
    /// uses every core on it); the bytes do not depend on it.
    public static func process(_ source: Data, sourceWidth: Int, recipe: ImageRecipe, threads: Int = 1)
        throws(ImageFailure) -> (ProcessedImage, [Data])
    {
        let decoded = try decode(source, sourceWidth: sourceWidth, recipe: recipe, threads: threads)
        return (decoded.processed, try decoded.encode(threads: threads))
    }

    /// The first half of `process`: every output width decoded and the placeholder made, so
    /// `processed` (all a page shows) is known before the files are encoded.
    public static func decode(_ source: Data, sourceWidth: Int, recipe: ImageRecipe, threads: Int = 1)
        throws(ImageFailure) -> DecodedImage
    {
        // libvips keeps one error text for the whole process, where every thread's warnings
        // accumulate: a failure's reason is read again from a run of its own, alone.
        do {
            return try Vips.shared { () throws(ImageFailure) in
                try decodeOnce(source, sourceWidth: sourceWidth, recipe: recipe, threads: threads)
            }
        } catch {
            // The first run's error text took the warnings with it: the second's is its own
            // (on one thread, or its own parts would mix their texts).
            return try Vips.alone { () throws(ImageFailure) in
                try decodeOnce(source, sourceWidth: sourceWidth, recipe: recipe)
            }
        }
    }

    static func processOnce(_ source: Data, sourceWidth: Int, recipe: ImageRecipe, threads: Int = 1)
        throws(ImageFailure) -> (ProcessedImage, [Data])
    {
        let decoded = try decodeOnce(source, sourceWidth: sourceWidth, recipe: recipe, threads: threads)
        return (decoded.processed, try decoded.encodeOnce(threads: threads))
    }

    static func decodeOnce(_ source: Data, sourceWidth: Int, recipe: ImageRecipe, threads: Int = 1) throws(ImageFailure)
        -> DecodedImage
    {
        // libvips picks its loader from the bytes: a GIF under a .png name would reach gifload,
        // which sizes the picture by its largest frame, not by the header the pixel limit read
        // (a 98-byte GIF declaring a 65530×57825 frame took 15 GB). Only these three are decoded.
        guard isResizable(source) else {
            throw ImageFailure("is not a JPEG, PNG or WebP file whatever its name says; only those are resized")
        }
        let widths = recipe.outputWidths(sourceWidth: sourceWidth)
        let (pictures, color, preview) = try decoded(
            source, sourceWidth: sourceWidth, widths: widths, keepMetadata: recipe.keepMetadata, threads: threads)
        let variants = recipe.formats.flatMap { f in
            pictures.map { ImageVariant(format: f, width: $0.width, height: $0.height) }
        }
        return DecodedImage(
            pictures: pictures, recipe: recipe,
            processed: ProcessedImage(variants: variants, color: color, preview: preview))
    }

    /// The picture at each of `widths` (ascending), upright, 8-bit sRGB, and the placeholder
    /// (made from the narrowest, by the part that decodes it). JPEG and WebP sources are decoded
    /// once per width (shrunk on load: the parts are independent, so they run on `threads`
    /// threads); PNG has no shrink on load: decoded once at the widest, the others resized from
    /// that.
    static func decoded(_ source: Data, sourceWidth: Int, widths: [Int], keepMetadata: Bool, threads: Int)
        throws(ImageFailure)
        -> (pictures: [VipsHandle], color: String, preview: String)
    {
        let isPNG = source.starts(with: [0x89, 0x50, 0x4E, 0x47])
        let widest =
            isPNG
            ? try decode(source, width: widths.last ?? 1, sourceWidth: sourceWidth, keepMetadata: keepMetadata) : nil
        let made = Array(widths.indices).parallelMap(
            threads: threads, minimumCount: 2, startingWith: largestFirst(widths)
        ) { i -> Result<(VipsHandle, String, String), ImageFailure> in
            Result { () throws(ImageFailure) in
                let picture: VipsHandle
                if let widest {
                    picture = i == widths.count - 1 ? widest : try memoryCopy(resized(widest, width: widths[i]))
                } else {
                    picture = try decode(source, width: widths[i], sourceWidth: sourceWidth, keepMetadata: keepMetadata)
                }
                guard i == 0 else { return (picture, "", "") }
                return (picture, try dominantColor(picture), try preview(picture))
            }
        }
        var parts: [(VipsHandle, String, String)] = []
        for part in made { parts.append(try part.get()) }
        return (parts.map(\.0), parts[0].1, parts[0].2)
    }

    /// The order to start a photo's parts in: the largest (by `sizes`, pixels or widths) first, in
    /// their own order where equal. The widest decode and its encodes take longest; started last,
    /// one ends alone while the other cores idle (a changed photo's build waits for it).
    static func largestFirst(_ sizes: [Int]) -> [Int] {
        sizes.indices.sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }
    }

    /// Whether the bytes start as a JPEG, a PNG or a WebP file.
    static func isResizable(_ data: Data) -> Bool {
        let b = [UInt8](data.prefix(12))
        if b.starts(with: [0xFF, 0xD8, 0xFF]) || b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return true
        }
        return b.count == 12 && b.starts(with: Array("RIFF".utf8)) && Array(b[8..<12]) == Array("WEBP".utf8)
    }

    /// The source decoded at most `width` wide, upright, 8-bit sRGB, held in memory (its
    /// encodes read it): one copy of the pixels, with no metadata unless it is kept.
    static func decode(_ source: Data, width: Int, sourceWidth: Int, keepMetadata: Bool) throws(ImageFailure)
        -> VipsHandle
    {
        let thumb = try thumbnail(source, width: width, sourceWidth: sourceWidth)
        let srgb = try VipsHandle.make("cannot convert to sRGB") { sgv_srgb(thumb.pointer, $0) }
        let bytes = try VipsHandle.make("cannot convert to 8 bits") { sgv_cast_uchar(srgb.pointer, $0) }
        // Pixels are computed here, so a truncated file fails now, not in an encoder.
        if keepMetadata { return try memoryCopy(bytes) }
        var length = 0
        guard let pixels = sgv_write_to_memory(bytes.pointer, &length) else {
            throw ImageFailure("cannot decode: \(Vips.takeError())")
        }
        defer { sgv_free(pixels) }
        // A new image of the bare pixels: no EXIF, XMP, IPTC or ICC can reach an encoder.
        return try VipsHandle.make("cannot decode") { out in
            out.pointee = sgv_new_from_memory_copy(
                pixels, length, Int32(bytes.width), Int32(bytes.height), Int32(bytes.bands), sgv_format(bytes.pointer))
            return out.pointee == nil ? -1 : 0
        }
    }

    static func thumbnail(_ source: Data, width: Int, sourceWidth: Int) throws(ImageFailure) -> VipsHandle {
        let shrink = source.starts(with: [0xFF, 0xD8, 0xFF]) ? jpegShrink(sourceWidth: sourceWidth, width: width) : 1
        let result = source.withUnsafeBytes { raw in
            Result { () throws(ImageFailure) in
                try VipsHandle.make("cannot decode") { out in
                    shrink > 1
                        ? sgv_thumbnail_jpeg(raw.baseAddress, raw.count, Int32(shrink), Int32(width), out)
                        : sgv_thumbnail_buffer(raw.baseAddress, raw.count, Int32(width), out)
                }
            }
        }
        return try result.get()
    }

    /// How many times smaller libjpeg decodes a JPEG `sourceWidth` wide (upright) for an output
    /// `width` wide: the largest of 8, 4 and 2 that leaves it at least that wide (libvips sizes it
    /// by whole division), as sharp's `fastShrinkOnLoad` does. libvips' thumbnail keeps a factor
    /// of two more for its own resize: a 4000 px photo was decoded whole for a 1920 px output,
    /// 60 % of its decode time.
    static func jpegShrink(sourceWidth: Int, width: Int) -> Int {
        [8, 4, 2].first { sourceWidth / $0 >= width } ?? 1
    }

    static func memoryCopy(_ image: VipsHandle) throws(ImageFailure) -> VipsHandle {
        try VipsHandle.make("cannot decode") { out in
            out.pointee = sgv_copy_memory(image.pointer)
            return out.pointee == nil ? -1 : 0
        }
    }

    static func resized(_ image: VipsHandle, width: Int) throws(ImageFailure) -> VipsHandle {
        try VipsHandle.make("cannot resize") { sgv_thumbnail_image(image.pointer, Int32(width), $0) }
    }

    static func encode(_ image: VipsHandle, format: ImageFormat, recipe: ImageRecipe) throws(ImageFailure) -> Data {
        let q = Int32(min(100, max(1, recipe.quality)))
        let strip: Int32 = recipe.keepMetadata ? 0 : 1
        switch format {
        case .jpeg:
            let flat = image.hasAlpha ? try VipsHandle.make("cannot flatten") { sgv_flatten(image.pointer, $0) } : image
            return try flat.save("cannot encode JPEG") { sgv_jpegsave(flat.pointer, q, strip, $0, $1) }
        case .png: return try image.save("cannot encode PNG") { sgv_pngsave(image.pointer, strip, $0, $1) }
        case .webp:
            let data = try image.save("cannot encode WebP") { sgv_webpsave(image.pointer, q, strip, $0, $1) }
            return recipe.keepMetadata ? data : WebPChunks.strippingMetadata(data)
        case .avif:
            return try image.save("cannot encode AVIF") { sgv_avifsave(image.pointer, q, strip, $0, $1) }
        }
    }
}
