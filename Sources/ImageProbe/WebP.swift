/// WebP: a RIFF container whose first chunk is `VP8 ` (lossy), `VP8L` (lossless) or `VP8X` (extended).
enum WebP {
    static func size(_ bytes: ByteView) throws(ProbeFailure) -> ImageSize {
        guard let form = bytes.ascii(8, count: 4) else { throw ProbeFailure("WebP ends inside its RIFF header") }
        guard form == "WEBP" else { throw ProbeFailure("not a WebP file: the RIFF container holds \"\(form)\"") }
        guard let chunk = bytes.ascii(12, count: 4) else { throw ProbeFailure("WebP ends before its first chunk") }
        let payload = 20
        switch chunk {
        case "VP8 ":
            // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height (top 2 bits: scale).
            guard let width = bytes.le16(payload + 6), let height = bytes.le16(payload + 8) else {
                throw ProbeFailure("WebP (lossy) ends before its frame header")
            }
            guard bytes.starts(with: [0x9D, 0x01, 0x2A], at: payload + 3) else {
                throw ProbeFailure("WebP (lossy) frame has a bad start code")
            }
            return ImageSize(width: width & 0x3FFF, height: height & 0x3FFF)
        case "VP8L":
            // Signature 0x2F, then width−1 and height−1 packed as two 14-bit fields, least significant bit first.
            guard let signature = bytes.u8(payload), let b0 = bytes.u8(payload + 1), let b1 = bytes.u8(payload + 2),
                let b2 = bytes.u8(payload + 3), let b3 = bytes.u8(payload + 4)
            else {
                throw ProbeFailure("WebP (lossless) ends before its header")
            }
            guard signature == 0x2F else { throw ProbeFailure("WebP (lossless) has a bad signature") }
            let width = 1 + (Int(b0) | Int(b1 & 0x3F) << 8)
            let height = 1 + (Int(b1 >> 6) | Int(b2) << 2 | Int(b3 & 0x0F) << 10)
            return ImageSize(width: width, height: height)
        case "VP8X":
            // Flags (1), reserved (3), then canvas width−1 and height−1 as 24-bit little-endian values.
            guard let width = bytes.le24(payload + 4), let height = bytes.le24(payload + 7) else {
                throw ProbeFailure("WebP (extended) ends before its canvas size")
            }
            return ImageSize(width: width + 1, height: height + 1)
        default:
            throw ProbeFailure("WebP starts with an unknown chunk \"\(chunk)\"")
        }
    }
}
