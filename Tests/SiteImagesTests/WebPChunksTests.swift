import Foundation
import Testing
@testable import SiteImages

/// Metadata chunks are dropped from a RIFF WebP; everything else is kept byte for byte.
@Suite struct WebPChunksTests {
    private func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }

    /// A chunk: type, little-endian size, payload, and a pad byte when the size is odd.
    private func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        Array(type.utf8) + le32(payload.count) + payload + (payload.count % 2 == 1 ? [0] : [])
    }

    private func riff(_ chunks: [[UInt8]], form: String = "WEBP") -> Data {
        let body = Array(form.utf8) + chunks.joined()
        return Data(Array("RIFF".utf8) + le32(body.count) + body)
    }

    @Test func metadataChunksAndTheirFlagsAreDropped() {
        let vp8x = chunk("VP8X", [0x3C, 0, 0, 0, 9, 0, 0, 9, 0, 0])
        let image = chunk("VP8 ", [1, 2, 3])  // odd: padded
        let input = riff([vp8x, chunk("ICCP", [7, 7, 7]), chunk("EXIF", [1, 2, 3, 4, 5]), image, chunk("XMP ", [9])])
        var flagsCleared = vp8x
        flagsCleared[8] = 0x10  // alpha stays; ICC, EXIF and XMP go
        #expect(WebPChunks.strippingMetadata(input) == riff([flagsCleared, image]))
    }

    @Test func aWebPWithoutMetadataIsUnchanged() {
        let input = riff([chunk("VP8L", [0x2F, 1, 2, 3, 4])])
        #expect(WebPChunks.strippingMetadata(input) == input)
    }

    /// A VP8X chunk cut after its header has no flags to clear.
    @Test func aTruncatedExtendedHeaderIsKept() {
        let input = Data(Array("RIFF".utf8) + le32(12) + Array("WEBPVP8X".utf8) + le32(10))
        #expect(WebPChunks.strippingMetadata(input) == input)
    }

    @Test func otherFilesAreLeftAlone() {
        let avi = riff([chunk("EXIF", [1, 2])], form: "AVI ")
        #expect(WebPChunks.strippingMetadata(avi) == avi)
        #expect(WebPChunks.strippingMetadata(Data("RIFF".utf8)) == Data("RIFF".utf8))
    }
}
