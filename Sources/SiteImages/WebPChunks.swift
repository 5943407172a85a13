import Foundation

/// libvips 8.14's WebP saver writes an EXIF chunk even when told to strip metadata; this drops
/// the EXIF, XMP and ICC chunks of a RIFF WebP (and their flags in its VP8X header).
enum WebPChunks {
    static let metadata: Set<String> = ["EXIF", "XMP ", "ICCP"]

    static func strippingMetadata(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        guard bytes.count >= 12, ascii(bytes, 0) == "RIFF", ascii(bytes, 8) == "WEBP" else { return data }
        var out: [UInt8] = Array(bytes[0..<12])
        var i = 12
        while i + 8 <= bytes.count {
            let size = Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]) << 16 | Int(bytes[i + 7]) << 24
            let end = min(bytes.count, i + 8 + size + (size & 1))
            let type = ascii(bytes, i)
            if !metadata.contains(type) {
                var chunk = Array(bytes[i..<end])
                // VP8X flags: ICC 0x20, EXIF 0x08, XMP 0x04.
                if type == "VP8X", chunk.count > 8 { chunk[8] &= ~UInt8(0x20 | 0x08 | 0x04) }
                out += chunk
            }
            i = end
        }
        let riffSize = UInt32(out.count - 8)
        for k in 0..<4 { out[4 + k] = UInt8((riffSize >> (8 * UInt32(k))) & 0xFF) }
        return Data(out)
    }

    private static func ascii(_ bytes: [UInt8], _ at: Int) -> String {
        String(decoding: bytes[at..<min(bytes.count, at + 4)], as: UTF8.self)
    }
}
