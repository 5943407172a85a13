import CVipsLoader
import Foundation

extension ImageProcessor {
    /// The preview shown until the image loads: the picture at 16 px on its longer side,
    /// slightly blurred (the browser's upscaling smooths the rest), as a WebP `data:` URI.
    static func preview(_ image: VipsHandle) throws(ImageFailure) -> String {
        let scale = Double(previewSide) / Double(max(image.width, image.height))
        let width = max(1, Int((Double(image.width) * scale).rounded()))
        let tiny = try resized(image, width: width)
        let blurred = try VipsHandle.make("cannot blur") { sgv_gaussblur(tiny.pointer, 0.5, $0) }
        let data = try blurred.save("cannot encode the preview") { sgv_webpsave(blurred.pointer, 30, 1, $0, $1) }
        return "data:image/webp;base64," + WebPChunks.strippingMetadata(data).base64EncodedString()
    }

    /// The most common colour: pixels of a 32 px copy counted in 512 buckets (3 bits a channel),
    /// the mean of the fullest bucket (ties: the lower bucket), `#rrggbb`.
    static func dominantColor(_ image: VipsHandle) throws(ImageFailure) -> String {
        let small = try resized(image, width: min(32, image.width))
        let flat = small.hasAlpha ? try VipsHandle.make("cannot flatten") { sgv_flatten(small.pointer, $0) } : small
        let rgb = try VipsHandle.make("cannot convert to 8 bits") { sgv_cast_uchar(flat.pointer, $0) }
        var length = 0
        guard let memory = sgv_write_to_memory(rgb.pointer, &length) else {
            throw ImageFailure("cannot read pixels: \(Vips.takeError())")
        }
        defer { sgv_free(memory) }
        let bands = rgb.bands
        let pixels = UnsafeRawBufferPointer(start: memory, count: length)
        var counts = [Int](repeating: 0, count: 512)
        var sums = [(Int, Int, Int)](repeating: (0, 0, 0), count: 512)
        var i = 0
        while i + bands <= pixels.count {
            let r = Int(pixels[i]), g = Int(pixels[i + min(1, bands - 1)]), b = Int(pixels[i + min(2, bands - 1)])
            let bucket = (r >> 5) << 6 | (g >> 5) << 3 | (b >> 5)
            counts[bucket] += 1
            sums[bucket] = (sums[bucket].0 + r, sums[bucket].1 + g, sums[bucket].2 + b)
            i += bands
        }
        guard let best = counts.indices.max(by: { counts[$0] < counts[$1] || (counts[$0] == counts[$1] && $0 > $1) }),
            counts[best] > 0
        else { return "#808080" }
        let n = counts[best]
        return String(format: "#%02x%02x%02x", sums[best].0 / n, sums[best].1 / n, sums[best].2 / n)
    }
}
