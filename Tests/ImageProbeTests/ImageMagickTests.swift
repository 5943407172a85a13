import Foundation
import Testing
@testable import ImageProbe

/// `/usr/bin/convert` only: a stand-in elsewhere on PATH may not write images at all.
private let realConvert: String? =
    FileManager.default.isExecutableFile(atPath: "/usr/bin/convert") ? "/usr/bin/convert" : nil

/// Cross-checks against files written by a real ImageMagick (scripts/setup.sh test installs it). The main tests
/// never depend on it; this only catches a misreading of the specs the hand-built headers share.
@Suite
struct ImageMagickTests {
    /// The bytes ImageMagick writes for a red canvas of `size` ("WxH") saved as `file`.
    private func render(_ file: String, size: String, fill: String = "xc:red", options: [String] = []) throws -> Data {
        let convert = try #require(realConvert)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "imageprobe-\(UUID().uuidString)-\(file)")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: convert)
        process.arguments = ["-size", size, fill] + options + [output.path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return try Data(contentsOf: output)
    }

    @Test(arguments: [
        ("a.png", [String]()), ("a.gif", []), ("a.jpg", []), ("b.jpg", ["-interlace", "JPEG"]),
        ("a.webp", []), ("b.webp", ["-define", "webp:lossless=true"])
    ])
    func agreesWithImageMagick(file: String, options: [String]) throws {
        let data = try render(file, size: "123x45", options: options)
        #expect(try ImageProbe.size(of: data, file: file) == ImageSize(width: 123, height: 45))
    }

    @Test func agreesOnExtendedWebP() throws {
        // A translucent canvas makes ImageMagick write VP8X with an alpha chunk.
        let data = try render("c.webp", size: "77x300", fill: "xc:rgba(255,0,0,0.5)")
        #expect(data.count > 16 && String(decoding: data.dropFirst(12).prefix(4), as: UTF8.self) == "VP8X")
        #expect(try ImageProbe.size(of: data, file: "c.webp") == ImageSize(width: 77, height: 300))
    }
}
