import Foundation
/// The formats sitegen writes images in.
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case avif, webp, jpeg, png

    /// The file extension of outputs.
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    /// The `type` of a `<source>` element.
    public var mimeType: String { "image/\(rawValue)" }

    /// The format a `<picture>`'s `<img>` falls back to: one every browser shows.
    public var isFallback: Bool { self == .jpeg || self == .png }

    /// The format a source file's name says (a resizable source is a JPEG, PNG or WebP file).
    public init(sourcePath: String) {
        switch (sourcePath as NSString).pathExtension.lowercased() {
        case "png": self = .png
        case "webp": self = .webp
        default: self = .jpeg
        }
    }
}

/// What to make of one source image.
public struct ImageRecipe: Sendable, Hashable {
    /// Output widths in pixels; those wider than the source are left out (never enlarged), and a
    /// source narrower than all of them is written once at its own width.
    public var widths: [Int]
    /// Formats, most preferred first; the last is the `<img>` fallback.
    public var formats: [ImageFormat]
    /// Encoder quality, 1–100 (PNG is lossless and ignores it).
    public var quality: Int
    /// Keep EXIF/XMP/ICC metadata (default: stripped, so no GPS or camera serial is published).
    public var keepMetadata: Bool

    public init(widths: [Int], formats: [ImageFormat], quality: Int, keepMetadata: Bool = false) {
        self.widths = widths
        self.formats = formats
        self.quality = quality
        self.keepMetadata = keepMetadata
    }

    /// The widths to write for a source `sourceWidth` pixels wide (upright), ascending: those
    /// it can give, and its own width in place of those it cannot (never enlarged).
    public func outputWidths(sourceWidth: Int) -> [Int] {
        var fitting = Set(widths.filter { $0 > 0 && $0 <= sourceWidth })
        if fitting.isEmpty || widths.contains(where: { $0 > sourceWidth }) { fitting.insert(sourceWidth) }
        return fitting.sorted()
    }

    /// Text that changes whenever the output would: part of the cache key.
    public var fingerprint: String {
        "v4 w=\(widths.map(String.init).joined(separator: ",")) "
            + "f=\(formats.map(\.rawValue).joined(separator: ",")) q=\(quality) keep=\(keepMetadata)"
    }
}
