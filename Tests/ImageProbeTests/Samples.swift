import Foundation

/// Minimal valid headers, built byte by byte so each test states exactly what the reader sees.
enum Samples {
    static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    static func be32(_ v: Int) -> [UInt8] { be16(v >> 16) + be16(v & 0xFFFF) }
    static func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
    static func le24(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }
    static func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }

    static func png(width: Int, height: Int) -> Data {
        let ihdr = be32(width) + be32(height) + [8, 2, 0, 0, 0]  // depth 8, RGB, default methods
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + ascii("IHDR") + ihdr + [0, 0, 0, 0])
    }

    enum ByteOrder { case intel, motorola }

    /// An APP1 Exif segment whose IFD0 holds a decoy tag and then the orientation.
    static func exif(orientation: Int, order: ByteOrder) -> [UInt8] {
        let u16 = order == .intel ? le16 : be16
        let u32 = order == .intel ? le32 : be32
        var tiff: [UInt8] = order == .intel ? [0x49, 0x49, 0x2A, 0x00] : [0x4D, 0x4D, 0x00, 0x2A]
        tiff += u32(8)  // IFD0 right after the header
        tiff += u16(2)  // two entries
        tiff += u16(0x010F) + u16(2) + u32(4) + ascii("ACME")  // Make: ASCII, 4 bytes inline
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
        tiff += u32(0)  // no next IFD
        let payload = ascii("Exif") + [0, 0] + tiff
        return [0xFF, 0xE1] + be16(payload.count + 2) + payload
    }

    /// SOI, optional Exif, a Huffman table whose bytes would read as a bogus size, then the frame.
    static func jpeg(width: Int, height: Int, sof: UInt8 = 0xC0, exif: [UInt8] = []) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8]
        let jfif = ascii("JFIF") + [0, 1, 1, 0] + be16(1) + be16(1) + [0, 0]
        bytes += [0xFF, 0xE0] + be16(jfif.count + 2) + jfif
        bytes += exif
        bytes += [0xFF, 0xC4] + be16(2 + 7) + [0x00, 0x08, 0x07, 0x77, 0x01, 0x11, 0x22]
        bytes += [0xFF, 0xFF]  // fill bytes before the next marker
        let frame: [UInt8] = [8] + be16(height) + be16(width) + [1, 0x01, 0x11, 0x00]
        bytes += [0xFF, sof] + be16(frame.count + 2) + frame
        bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x12, 0x34, 0xFF, 0xD9]
        return Data(bytes)
    }

    static func gif(width: Int, height: Int, version: String = "GIF89a") -> Data {
        Data(ascii(version) + le16(width) + le16(height) + [0x00, 0x00, 0x00, 0x3B])
    }

    static func riff(_ chunk: String, _ payload: [UInt8]) -> Data {
        let body = ascii("WEBP") + ascii(chunk) + le32(payload.count) + payload
        return Data(ascii("RIFF") + le32(body.count) + body)
    }

    static func webpLossy(width: Int, height: Int) -> Data {
        riff("VP8 ", [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A] + le16(width) + le16(height) + [0, 0, 0, 0])
    }

    static func webpLossless(width: Int, height: Int) -> Data {
        let bits = (width - 1) | (height - 1) << 14  // alpha and version bits left zero
        return riff("VP8L", [0x2F] + le32(bits) + [0, 0, 0])
    }

    static func webpExtended(width: Int, height: Int) -> Data {
        riff("VP8X", [0x10, 0, 0, 0] + le24(width - 1) + le24(height - 1))
    }

    static func svg(_ text: String) -> Data { Data(text.utf8) }
}
