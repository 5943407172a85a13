import CVips
import CVipsLoader
import Foundation
@testable import SiteImages

/// Source pictures made in the test with libvips' own writer (the reader that checks the
/// outputs is ImageMagick, an independent decoder).
enum TestPictures {
    /// Upright, the picture's quadrants are red (top left), green (top right), blue (bottom left)
    /// and white (bottom right).
    static let quadrantColors: [(x: Double, y: Double, rgb: (Int, Int, Int))] = [
        (0.25, 0.25, (255, 0, 0)), (0.75, 0.25, (0, 255, 0)), (0.25, 0.75, (0, 0, 255)), (0.75, 0.75, (255, 255, 255))
    ]

    static func uprightPixel(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> (UInt8, UInt8, UInt8) {
        switch (x < width / 2, y < height / 2) {
        case (true, true): (255, 0, 0)
        case (false, true): (0, 255, 0)
        case (true, false): (0, 0, 255)
        case (false, false): (255, 255, 255)
        }
    }

    /// Where the upright pixel (x, y) is stored in a file with EXIF orientation `n` (the stored
    /// picture is the upright one turned back by the inverse of the tag's transform).
    static func storedPosition(x: Int, y: Int, width w: Int, height h: Int, orientation n: Int) -> (Int, Int) {
        switch n {
        case 2: (w - 1 - x, y)
        case 3: (w - 1 - x, h - 1 - y)
        case 4: (x, h - 1 - y)
        case 5: (y, x)
        case 6: (y, w - 1 - x)
        case 7: (h - 1 - y, w - 1 - x)
        case 8: (h - 1 - y, x)
        default: (x, y)
        }
    }

    /// A JPEG whose upright picture is `width`×`height` quadrants, stored turned for EXIF
    /// orientation `orientation`, with a camera make and GPS position in its EXIF.
    static func jpeg(
        width: Int, height: Int, orientation: Int = 1, quality: Int32 = 95,
        pixel: (_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> (UInt8, UInt8, UInt8) = uprightPixel
    ) throws -> Data {
        let swapped = orientation >= 5
        let sw = swapped ? height : width, sh = swapped ? width : height
        var pixels = [UInt8](repeating: 0, count: sw * sh * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (sx, sy) = storedPosition(x: x, y: y, width: width, height: height, orientation: orientation)
                let (r, g, b) = pixel(x, y, width, height)
                let i = (sy * sw + sx) * 3
                pixels[i] = r; pixels[i + 1] = g; pixels[i + 2] = b
            }
        }
        _ = Vips.startFailure
        let image = pixels.withUnsafeBytes {
            vips_image_new_from_memory_copy($0.baseAddress, $0.count, Int32(sw), Int32(sh), 3, VIPS_FORMAT_UCHAR)!
        }
        defer { g_object_unref(image) }
        vips_image_set_int(image, "orientation", Int32(orientation))
        vips_image_set_string(
            image, "exif-ifd0-Make", "SitegenTestCam (SitegenTestCam, ASCII, 15 components, 15 bytes)")
        vips_image_set_string(
            image, "exif-ifd0-Orientation", "\(orientation) (\(orientation), Short, 1 components, 2 bytes)")
        vips_image_set_string(image, "exif-ifd3-GPSLatitudeRef", "N (N, ASCII, 2 components, 2 bytes)")
        vips_image_set_string(
            image, "exif-ifd3-GPSLatitude", "37/1 33/1 59/1 (37, 33, 59, Rational, 3 components, 24 bytes)")
        var buffer: UnsafeMutableRawPointer? = nil
        var length = 0
        guard sgv_jpegsave(image, quality, 0, &buffer, &length) == 0, let buffer else {
            throw ImageFailure(Vips.takeError())
        }
        defer { g_free(buffer) }
        return Data(bytes: buffer, count: length)
    }

    /// An upright PNG of `width`×`height` quadrants, with an alpha channel.
    static func png(width: Int, height: Int) throws -> Data {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = uprightPixel(x, y, width, height)
                let i = (y * width + x) * 4
                pixels[i] = r; pixels[i + 1] = g; pixels[i + 2] = b; pixels[i + 3] = UInt8(128 + (x * 127) / width)
            }
        }
        _ = Vips.startFailure
        let image = pixels.withUnsafeBytes {
            vips_image_new_from_memory_copy(
                $0.baseAddress, $0.count, Int32(width), Int32(height), 4, VIPS_FORMAT_UCHAR)!
        }
        defer { g_object_unref(image) }
        var buffer: UnsafeMutableRawPointer? = nil
        var length = 0
        guard sgv_pngsave(image, 1, &buffer, &length) == 0, let buffer else { throw ImageFailure(Vips.takeError()) }
        defer { g_free(buffer) }
        return Data(bytes: buffer, count: length)
    }
}

/// ImageMagick's `identify` (scripts/setup.sh test installs it), on bytes written to a temporary file.
enum Identify {
    static func run(_ data: Data, ext: String, format: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "siteimages-\(UUID().uuidString).\(ext)")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/identify")
        process.arguments = ["-format", format, file.path]
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ImageFailure("identify failed on a .\(ext) file") }
        return String(decoding: out, as: UTF8.self)
    }

    /// An AVIF decoded by libavif's `avifdec` (not libheif, which libvips encodes with) as a PNG:
    /// ImageMagick 6 reads AVIF through libheif and gets its colours wrong.
    static func readable(_ data: Data, ext: String) throws -> (Data, String) {
        guard ext == "avif" else { return (data, ext) }
        let dir = FileManager.default.temporaryDirectory
        let id = UUID().uuidString
        let input = dir.appendingPathComponent("siteimages-\(id).avif"),
            output = dir.appendingPathComponent("siteimages-\(id).png")
        try data.write(to: input)
        defer { try? FileManager.default.removeItem(at: input); try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/avifdec")
        process.arguments = [input.path, output.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ImageFailure("avifdec could not decode an AVIF") }
        return (try Data(contentsOf: output), "png")
    }

    /// Format name, width and height, e.g. ("JPEG", 400, 300); "AVIF" for an AV1 HEIF file
    /// that avifdec decodes.
    static func header(_ data: Data, ext: String) throws -> (String, Int, Int) {
        if ext == "avif" {
            guard data.count > 12, String(decoding: data[4..<12], as: UTF8.self) == "ftypavif" else {
                return ("not AVIF", 0, 0)
            }
            let (png, _) = try readable(data, ext: ext)
            let (_, w, h) = try header(png, ext: "png")
            return ("AVIF", w, h)
        }
        let parts = try run(data, ext: ext, format: "%m %w %h").split(separator: " ")
        return (String(parts[0]), Int(parts[1]) ?? -1, Int(parts[2]) ?? -1)
    }

    /// The 8-bit colour at a fraction of the picture's width and height.
    static func pixel(_ data: Data, ext: String, x: Double, y: Double) throws -> (Int, Int, Int) {
        let (data, ext) = try readable(data, ext: ext)
        let at = "p{\(x)*w,\(y)*h}"
        let text = try run(
            data, ext: ext, format: "%[fx:int(255*\(at).r+0.5)] %[fx:int(255*\(at).g+0.5)] %[fx:int(255*\(at).b+0.5)]")
        let v = text.split(separator: " ").map { Int($0) ?? -1 }
        return (v[0], v[1], v[2])
    }
}
