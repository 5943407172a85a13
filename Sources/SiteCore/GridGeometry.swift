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

    public init(breakpoints: [ColumnBreakpoint], spacing: Double, mediaAspect: (width: Double, height: Double), textHeight: Double) {
        self.breakpoints = breakpoints.sorted { $0.minWidth < $1.minWidth }
        self.spacing = spacing
        self.mediaAspect = mediaAspect
        self.textHeight = textHeight
    }

    public static func == (a: GridGeometry, b: GridGeometry) -> Bool {
        a.breakpoints == b.breakpoints && a.spacing == b.spacing && a.mediaAspect == b.mediaAspect && a.textHeight == b.textHeight
    }

    public func hash(into h: inout Hasher) {
        h.combine(breakpoints); h.combine(spacing); h.combine(mediaAspect.width); h.combine(mediaAspect.height); h.combine(textHeight)
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
