import CVipsLoader
import Foundation

/// Resizes one source image with libvips: decoded once, shrunk on load to the widest output,
/// turned upright by its EXIF orientation, in 8-bit sRGB; every width and format encoded from
/// that, metadata stripped unless kept; plus its dominant colour and a blurred preview.
public enum ImageProcessor {
    /// Side of the preview's longer edge in pixels: a WebP of a few hundred bytes.
    static let previewSide = 16

    /// The outputs of `source` (the whole file) by `recipe`, the data in `variants`' order.
    /// `sourceWidth` is the upright width read from the header (it picks the output widths).
    public static func process(_ source: Data, sourceWidth: Int, recipe: ImageRecipe) throws(ImageFailure) -> (ProcessedImage, [Data]) {
        // libvips keeps one error text for the whole process, where every thread's warnings
        // accumulate: a failure's reason is read again from a run of its own, alone.
        do {
            return try Vips.shared { () throws(ImageFailure) in try processOnce(source, sourceWidth: sourceWidth, recipe: recipe) }
        } catch {
            // The first run's error text took the warnings with it: the second's is its own.
            return try Vips.alone { () throws(ImageFailure) in try processOnce(source, sourceWidth: sourceWidth, recipe: recipe) }
        }
    }

    static func processOnce(_ source: Data, sourceWidth: Int, recipe: ImageRecipe) throws(ImageFailure) -> (ProcessedImage, [Data]) {
        // libvips picks its loader from the bytes: a GIF under a .png name would reach gifload,
        // which sizes the picture by its largest frame, not by the header the pixel limit read
        // (a 98-byte GIF declaring a 65530×57825 frame took 15 GB). Only these three are decoded.
        guard isResizable(source) else {
            throw ImageFailure("is not a JPEG, PNG or WebP file whatever its name says; only those are resized")
        }
        let widths = recipe.outputWidths(sourceWidth: sourceWidth)
        let widest = try decode(source, width: widths.last ?? sourceWidth, keepMetadata: recipe.keepMetadata)
        var variants: [ImageVariant] = []
        var files: [Data] = []
        for format in recipe.formats {
            for width in widths {
                let image = width >= widest.width ? widest : try resized(widest, width: width)
                files.append(try encode(image, format: format, recipe: recipe))
                variants.append(ImageVariant(format: format, width: image.width, height: image.height))
            }
        }
        let processed = ProcessedImage(variants: variants, color: try dominantColor(widest), preview: try preview(widest))
        return (processed, files)
    }

    /// Whether the bytes start as a JPEG, a PNG or a WebP file.
    static func isResizable(_ data: Data) -> Bool {
        let b = [UInt8](data.prefix(12))
        if b.starts(with: [0xFF, 0xD8, 0xFF]) || b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return true }
        return b.count == 12 && b.starts(with: Array("RIFF".utf8)) && Array(b[8..<12]) == Array("WEBP".utf8)
    }

    /// The source decoded at most `width` wide, upright, 8-bit sRGB, held in memory (every output
    /// is made from it, so the file is decoded once; twice when its metadata is kept).
    static func decode(_ source: Data, width: Int, keepMetadata: Bool) throws(ImageFailure) -> VipsHandle {
        let thumb = try thumbnail(source, width: width)
        // Pixels are computed here, so a truncated file fails now, not in an encoder.
        var length = 0
        guard let pixels = sgv_write_to_memory(thumb.pointer, &length) else { throw ImageFailure("cannot decode: \(Vips.takeError())") }
        defer { sgv_free(pixels) }
        let base: VipsHandle
        if keepMetadata {
            let again = try thumbnail(source, width: width)
            base = try memoryCopy(again)
        } else {
            // A new image of the bare pixels: no EXIF, XMP, IPTC or ICC can reach an encoder.
            base = try VipsHandle.make("cannot decode") { out in
                out.pointee = sgv_new_from_memory_copy(pixels, length, Int32(thumb.width), Int32(thumb.height), Int32(thumb.bands), sgv_format(thumb.pointer))
                return out.pointee == nil ? -1 : 0
            }
        }
        let srgb = try VipsHandle.make("cannot convert to sRGB") { sgv_srgb(base.pointer, $0) }
        let bytes = try VipsHandle.make("cannot convert to 8 bits") { sgv_cast_uchar(srgb.pointer, $0) }
        return try memoryCopy(bytes)
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
        case .avif: return try image.save("cannot encode AVIF") { sgv_avifsave(image.pointer, q, strip, $0, $1) }
        }
    }
}
