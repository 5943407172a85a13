/// A number of columns from a minimum viewport width on (CSS `min-width` media queries).
public struct ColumnBreakpoint: Sendable, Hashable {
    public var minWidth: Int
    public var columns: Int
    public init(minWidth: Int, columns: Int) {
        self.minWidth = minWidth
        self.columns = columns
    }
}

/// The bounty app's grid: equal columns with fixed spacing, a media box of fixed aspect ratio
/// and a fixed-height text area under it.
public struct GridGeometry: Sendable, Hashable {
    /// Columns per viewport width, ascending by `minWidth`; the first applies below all others.
    public var breakpoints: [ColumnBreakpoint]
    public var spacing: Double
    /// Media box width : height, e.g. 7 : 10.
    public var mediaAspect: (width: Double, height: Double)
    public var textHeight: Double
    /// Px between the grid and the screen's sides below 1,024 px (the theme's page gutter above).
    public var inset: Double
    /// The configuration named no `mediaAspect`: the images' most common one is taken once they
    /// are sized (`mediaAspect` holds 1:1 until then).
    public var aspectFromImages: Bool

    public init(
        breakpoints: [ColumnBreakpoint], spacing: Double, mediaAspect: (width: Double, height: Double),
        textHeight: Double,
        inset: Double = 0, aspectFromImages: Bool = false
    ) {
        self.breakpoints = breakpoints.sorted { $0.minWidth < $1.minWidth }
        self.spacing = spacing
        self.mediaAspect = mediaAspect
        self.textHeight = textHeight
        self.inset = inset
        self.aspectFromImages = aspectFromImages
    }

    /// Columns when the configuration names none: the bounty app's, growing with the width.
    public static let defaultBreakpoints = [
        ColumnBreakpoint(minWidth: 0, columns: 2), ColumnBreakpoint(minWidth: 640, columns: 3),
        ColumnBreakpoint(minWidth: 1024, columns: 4)
    ]

    /// The theme's page gutter, which the headings keep from the screen's sides.
    public static let defaultInset = 16.0

    public static func == (lhs: GridGeometry, rhs: GridGeometry) -> Bool {
        lhs.breakpoints == rhs.breakpoints && lhs.spacing == rhs.spacing && lhs.mediaAspect == rhs.mediaAspect
            && lhs.textHeight == rhs.textHeight && lhs.inset == rhs.inset
            && lhs.aspectFromImages == rhs.aspectFromImages
    }

    public func hash(into h: inout Hasher) {
        h.combine(breakpoints); h.combine(spacing); h.combine(mediaAspect.width); h.combine(mediaAspect.height);
        h.combine(textHeight)
        h.combine(inset); h.combine(aspectFromImages)
    }

    /// The aspect most of `sizes` (width, height) have, as the smallest whole ratio (600×900 →
    /// 2:3); ratios equal to two decimals count as one, the first met of equally common ones wins. nil
    /// without sizes.
    public static func commonAspect(_ sizes: [(width: Int, height: Int)]) -> (width: Double, height: Double)? {
        var counts: [(key: Int, size: (width: Int, height: Int), count: Int)] = []
        for s in sizes where s.width > 0 && s.height > 0 {
            let key = Int((Double(s.width) / Double(s.height) * 100).rounded())
            if let i = counts.firstIndex(where: { $0.key == key }) {
                counts[i].count += 1
            } else {
                counts.append((key, s, 1))
            }
        }
        guard let best = counts.max(by: { $0.count < $1.count }) else { return nil }
        var (a, b) = (best.size.width, best.size.height)
        while b != 0 { (a, b) = (b, a % b) }
        return (Double(best.size.width / a), Double(best.size.height / a))
    }

    /// The text area a grid card needs when `textHeight` is not configured: a title line and, when
    /// the card has one, a subtitle line (the built-in theme's 16 px/24 px and 14 px/21 px), with
    /// 8 px above and below. Zero would hide every card that has no image.
    public static func defaultTextHeight(subtitle: Bool) -> Double {
        8 + 24 + (subtitle ? 21 : 0) + 8
    }

    /// The column count at a viewport width.
    public func columns(atViewport width: Double) -> Int {
        var columns = breakpoints.first?.columns ?? 1
        for bp in breakpoints where Double(bp.minWidth) <= width { columns = bp.columns }
        return max(1, columns)
    }

    /// Cell size for a grid `width` wide with `columns` columns: (W − spacing × (n − 1)) / n wide,
    /// media height = width × aspect, cell height = media + text area.
    public func cell(gridWidth width: Double, columns: Int) -> (width: Double, mediaHeight: Double, height: Double) {
        let n = Double(max(1, columns))
        let w = max(0, (width - spacing * (n - 1)) / n)
        let media = w * mediaAspect.height / mediaAspect.width
        return (w, media, media + textHeight)
    }
}
