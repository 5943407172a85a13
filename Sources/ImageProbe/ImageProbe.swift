import Foundation
import SiteCore

/// The pixel size an image is displayed at.
public struct ImageSize: Sendable, Hashable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// Reads an image's pixel size from its file header, so every `<img>` can carry `width` and `height`.
public enum ImageProbe {
    /// File extensions (lowercased, no dot) this reader understands: png, jpg, jpeg, gif, webp, svg.
    public static let supportedExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "svg"]

    /// Sides beyond this are taken for a corrupt header rather than a real picture.
    static let maximumSide = 100_000

    /// The display size of the image in `data` (JPEG EXIF orientations 5–8 swap width and height).
    ///
    /// The format is recognised from the bytes, not from the extension of `file`, which is only the
    /// path named in diagnostics. Throws a `Diagnostic` saying what is wrong with the header.
    public static func size(of data: Data, file: String) throws(Diagnostic) -> ImageSize {
        do throws(ProbeFailure) {
            let bytes = ByteView(data)
            let (format, size) = try probe(bytes, file: file)
            return try validated(size, format: format)
        } catch {
            throw Diagnostic(file: file, error.message)
        }
    }

    private static func probe(_ bytes: ByteView, file: String) throws(ProbeFailure) -> (String, ImageSize) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return ("PNG", try PNG.size(bytes)) }
        if bytes.starts(with: [0xFF, 0xD8]) { return ("JPEG", try JPEG.size(bytes)) }
        if bytes.starts(with: Array("GIF8".utf8)) { return ("GIF", try GIF.size(bytes)) }
        if bytes.starts(with: Array("RIFF".utf8)) { return ("WebP", try WebP.size(bytes)) }
        if SVG.looksLikeMarkup(bytes) {
            // An HTML page saved under an image's name is not an SVG the author got wrong.
            let named = (file as NSString).pathExtension.lowercased() == "svg"
            return ("SVG", try SVG.size(bytes, namedSVG: named))
        }
        throw unrecognised(bytes, file: file)
    }

    /// With no magic number to go on, the extension at least tells which format the author meant,
    /// which makes for a more useful message than a list of every format.
    private static func unrecognised(_ bytes: ByteView, file: String) -> ProbeFailure {
        if bytes.count == 0 { return ProbeFailure("image file is empty") }
        let ext = (file as NSString).pathExtension.lowercased()
        switch ext {
        case "png": return ProbeFailure("not a PNG file: bad signature")
        case "jpg", "jpeg": return ProbeFailure("not a JPEG file: bad signature")
        case "gif": return ProbeFailure("not a GIF file: bad signature")
        case "webp": return ProbeFailure("not a WebP file: bad signature")
        case "svg": return ProbeFailure("not an SVG file: it does not start with markup")
        default: return ProbeFailure("not a recognised image format (PNG, JPEG, GIF, WebP or SVG)")
        }
    }

    private static func validated(_ size: ImageSize, format: String) throws(ProbeFailure) -> ImageSize {
        guard size.width > 0, size.height > 0 else {
            throw ProbeFailure("\(format) has a zero size (\(size.width)×\(size.height) px)")
        }
        guard size.width <= maximumSide, size.height <= maximumSide else {
            throw ProbeFailure(
                "\(format) size \(size.width)×\(size.height) px is implausible (at most \(maximumSide) px a side)")
        }
        return size
    }
}

/// What is wrong with a header; becomes a `Diagnostic` once the file name is added.
struct ProbeFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

enum PNG {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func size(_ bytes: ByteView) throws(ProbeFailure) -> ImageSize {
        guard bytes.count >= signature.count else { throw ProbeFailure("PNG ends inside its signature") }
        guard bytes.starts(with: signature) else { throw ProbeFailure("not a PNG file: bad signature") }
        // The IHDR chunk must come first: length (4), type (4), width (4), height (4).
        guard let type = bytes.ascii(12, count: 4), let width = bytes.be32(16), let height = bytes.be32(20) else {
            throw ProbeFailure("PNG ends before its IHDR chunk")
        }
        guard type == "IHDR" else { throw ProbeFailure("PNG does not start with an IHDR chunk (found \"\(type)\")") }
        return ImageSize(width: width, height: height)
    }
}

enum GIF {
    static func size(_ bytes: ByteView) throws(ProbeFailure) -> ImageSize {
        guard let version = bytes.ascii(0, count: 6) else { throw ProbeFailure("GIF ends inside its signature") }
        guard version == "GIF87a" || version == "GIF89a" else { throw ProbeFailure("not a GIF file: bad signature") }
        guard let width = bytes.le16(6), let height = bytes.le16(8) else {
            throw ProbeFailure("GIF ends before its logical screen descriptor")
        }
        return ImageSize(width: width, height: height)
    }
}
