/// One written file of a processed image.
public struct ImageVariant: Sendable, Hashable, Codable {
    public var format: ImageFormat
    public var width: Int
    public var height: Int

    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }
}

/// What processing one source gave: its variants and its placeholder.
public struct ProcessedImage: Sendable, Hashable, Codable {
    /// Every output, by format in the recipe's order, then by ascending width.
    public var variants: [ImageVariant]
    /// The most common colour, `#rrggbb`.
    public var color: String
    /// A tiny blurred WebP preview as a `data:` URI (a few hundred bytes).
    public var preview: String

    public init(variants: [ImageVariant], color: String, preview: String) {
        self.variants = variants
        self.color = color
        self.preview = preview
    }

    /// The variants of one format, ascending by width.
    public func variants(_ format: ImageFormat) -> [ImageVariant] { variants.filter { $0.format == format } }
}
