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
    public static func process(_ source: Data, sourceWidth: Int, recipe: ImageRecipe, threads: Int = 1) throws(ImageFailure) -> (ProcessedImage, [Data]) {
        // libvips keeps one error text for the whole process, where every thread's warnings
        // accumulate: a failure's reason is read again from a run of its own, alone.
        do {
            return try Vips.shared { () throws(ImageFailure) in try processOnce(source, sourceWidth: sourceWidth, recipe: recipe, threads: threads) }
        } catch {
            // The first run's error text took the warnings with it: the second's is its own
            // (on one thread, or its own parts would mix their texts).
            return try Vips.alone { () throws(ImageFailure) in try processOnce(source, sourceWidth: sourceWidth, recipe: recipe) }
        }
    }

    /// One part of processing a decoded source, and what it makes.
    private enum Part: Sendable {
        case encode(ImageFormat, Int)
        case placeholder
    }

    private enum Made: Sendable {
        case file(Data)
        case placeholder(color: String, preview: String)
    }

    static func processOnce(_ source: Data, sourceWidth: Int, recipe: ImageRecipe, threads: Int = 1) throws(ImageFailure) -> (ProcessedImage, [Data]) {
        // libvips picks its loader from the bytes: a GIF under a .png name would reach gifload,
        // which sizes the picture by its largest frame, not by the header the pixel limit read
        // (a 98-byte GIF declaring a 65530×57825 frame took 15 GB). Only these three are decoded.
        guard isResizable(source) else {
            throw ImageFailure("is not a JPEG, PNG or WebP file whatever its name says; only those are resized")
        }
        let widths = recipe.outputWidths(sourceWidth: sourceWidth)
        let pictures = try decoded(source, widths: widths, keepMetadata: recipe.keepMetadata, threads: threads)
        // Every encode, then the placeholder (made from the narrowest picture).
        let parts = recipe.formats.flatMap { f in pictures.indices.map { Part.encode(f, $0) } } + [.placeholder]
        let made = parts.parallelMap(threads: threads, minimumCount: 2) { part -> Result<Made, ImageFailure> in
            Result { () throws(ImageFailure) in
                switch part {
                case .encode(let format, let i): return .file(try encode(pictures[i], format: format, recipe: recipe))
                case .placeholder: return .placeholder(color: try dominantColor(pictures[0]), preview: try preview(pictures[0]))
                }
            }
        }
        var files: [Data] = []
        var placeholder = (color: "", preview: "")
        for result in made {
            switch try result.get() {
            case .file(let data): files.append(data)
            case .placeholder(let c, let p): placeholder = (c, p)
            }
        }
        let variants = recipe.formats.flatMap { f in pictures.map { ImageVariant(format: f, width: $0.width, height: $0.height) } }
        return (ProcessedImage(variants: variants, color: placeholder.color, preview: placeholder.preview), files)
    }

    /// The picture at each of `widths` (ascending), upright, 8-bit sRGB. JPEG and WebP sources are
    /// decoded once per width (shrunk on load: the parts are independent, so they run on
    /// `threads` threads); PNG has no shrink on load: decoded once at the widest, the others
    /// resized from that.
    static func decoded(_ source: Data, widths: [Int], keepMetadata: Bool, threads: Int) throws(ImageFailure) -> [VipsHandle] {
        let isPNG = source.starts(with: [0x89, 0x50, 0x4E, 0x47])
        let widest = isPNG ? try decode(source, width: widths.last ?? 1, keepMetadata: keepMetadata) : nil
        let made = Array(widths.indices).parallelMap(threads: threads, minimumCount: 2) { i -> Result<VipsHandle, ImageFailure> in
            Result { () throws(ImageFailure) in
                guard let widest else { return try decode(source, width: widths[i], keepMetadata: keepMetadata) }
                return i == widths.count - 1 ? widest : try memoryCopy(resized(widest, width: widths[i]))
            }
        }
        var result: [VipsHandle] = []
        for picture in made { result.append(try picture.get()) }
        return result
    }

    /// Whether the bytes start as a JPEG, a PNG or a WebP file.
    static func isResizable(_ data: Data) -> Bool {
        let b = [UInt8](data.prefix(12))
        if b.starts(with: [0xFF, 0xD8, 0xFF]) || b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return true }
        return b.count == 12 && b.starts(with: Array("RIFF".utf8)) && Array(b[8..<12]) == Array("WEBP".utf8)
    }

    /// The source decoded at most `width` wide, upright, 8-bit sRGB, held in memory (its
    /// encodes read it): one copy of the pixels, with no metadata unless it is kept.
    static func decode(_ source: Data, width: Int, keepMetadata: Bool) throws(ImageFailure) -> VipsHandle {
        let thumb = try thumbnail(source, width: width)
        let srgb = try VipsHandle.make("cannot convert to sRGB") { sgv_srgb(thumb.pointer, $0) }
        let bytes = try VipsHandle.make("cannot convert to 8 bits") { sgv_cast_uchar(srgb.pointer, $0) }
        // Pixels are computed here, so a truncated file fails now, not in an encoder.
        if keepMetadata { return try memoryCopy(bytes) }
        var length = 0
        guard let pixels = sgv_write_to_memory(bytes.pointer, &length) else { throw ImageFailure("cannot decode: \(Vips.takeError())") }
        defer { sgv_free(pixels) }
        // A new image of the bare pixels: no EXIF, XMP, IPTC or ICC can reach an encoder.
        return try VipsHandle.make("cannot decode") { out in
            out.pointee = sgv_new_from_memory_copy(pixels, length, Int32(bytes.width), Int32(bytes.height), Int32(bytes.bands), sgv_format(bytes.pointer))
            return out.pointee == nil ? -1 : 0
        }
    }

    static func thumbnail(_ source: Data, width: Int) throws(ImageFailure) -> VipsHandle {
        let result = source.withUnsafeBytes { raw in
            Result { () throws(ImageFailure) in
                try VipsHandle.make("cannot decode") { sgv_thumbnail_buffer(raw.baseAddress, raw.count, Int32(width), $0) }
            }
        }
        return try result.get()
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
            defer { FreedMemory.release() }
            return try image.save("cannot encode AVIF") { sgv_avifsave(image.pointer, q, strip, $0, $1) }
        }
    }
}
