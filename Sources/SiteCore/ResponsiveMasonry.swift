/// Text boxes under a masonry card's media, in px: a one-line title, then a text of as many
/// lines as `TextMeasure` estimates (at most `maxLines`), with `padding` above and below.
/// The defaults are the Pinterest app's: 4 + 17 + comment + 4, comment at 10 pt.
public struct CardTextMetrics: Sendable, Hashable {
    public var padding: Double = 4
    public var titleSize: Double = 12
    public var titleLineHeight: Double = 17
    public var size: Double = 10
    public var lineHeight: Double = 14
    public var maxLines: Int = 6
    /// Horizontal padding inside the card around the text (px each side).
    public var inset: Double = 8

    public init() {}

    /// Photo-only cards: no text box under the media (`text: false` in site.yml).
    public static let none: CardTextMetrics = {
        var m = CardTextMetrics()
        (m.padding, m.titleLineHeight, m.lineHeight, m.inset) = (0, 0, 0, 0)
        return m
    }()

    /// Height of the text area for a text of `lines` lines.
    public func height(lines: Int) -> Double {
        2 * padding + titleLineHeight + Double(lines) * lineHeight
    }

    /// Lines the text gets in a card `cardWidth` wide: 0 for no text, else 1 … maxLines.
    public func lines(for text: MeasuredText, cardWidth: Double) -> Int {
        guard !text.isEmpty else { return 0 }
        let n = text.lineCount(width: cardWidth - 2 * inset, fontSize: size)
        return min(max(n, 1), max(maxLines, 1))
    }
}

/// What a masonry needs of one item: its media's height ÷ width and its text.
public struct MasonryCard: Sendable, Hashable {
    public var aspect: Double
    public var text: String
    public init(aspect: Double, text: String) {
        self.aspect = aspect
        self.text = text
    }
}

/// A masonry whose column count changes with the viewport width (CSS `min-width` media queries).
///
/// Each breakpoint gets one placement, valid for every width in its range because tops are kept
/// as functions of the card width. Text lines and the shortest-column choice are decided at the
/// range's narrowest container, so text never gets less room than it was measured for.
public struct ResponsiveMasonry: Sendable, Hashable {
    public var policy: MasonryPolicy
    /// Ascending by `minWidth`; the first applies below all others.
    public var breakpoints: [ColumnBreakpoint]
    public var gap: Double
    public var insets: EdgeInsets
    public var text: CardTextMetrics
    /// The container's largest width (a theme's page width), nil: the viewport.
    public var maxWidth: Double?
    /// The narrowest viewport designed for.
    public var minimumViewport: Double = 320
    /// Room taken from the viewport by a desktop scrollbar, so the container can be narrower.
    public static let scrollbarAllowance = 20.0

    public init(
        policy: MasonryPolicy, breakpoints: [ColumnBreakpoint], gap: Double, insets: EdgeInsets,
        text: CardTextMetrics = CardTextMetrics(), maxWidth: Double? = nil
    ) {
        self.policy = policy
        self.breakpoints =
            breakpoints.isEmpty
            ? [ColumnBreakpoint(minWidth: 0, columns: 2)] : breakpoints.sorted { $0.minWidth < $1.minWidth }
        self.gap = gap
        self.insets = insets
        self.text = text
        self.maxWidth = maxWidth
    }

    /// One breakpoint's placement and each item's text lines there.
    public struct Arrangement: Sendable, Hashable {
        public var breakpoint: ColumnBreakpoint
        public var placement: MasonryPlacement
        public var lines: [Int]
        /// The card width the text and the shortest-column choice were measured at.
        public var measuredCardWidth: Double
    }

    public func geometry(columns: Int) -> MasonryGeometry {
        MasonryGeometry(columns: columns, gap: gap, insets: insets)
    }

    /// The narrowest container breakpoint `index`'s range can give (the first range starts at
    /// `minimumViewport`, as it also applies below its own minimum width).
    public func narrowestContainer(breakpoint index: Int) -> Double {
        let start = index == 0 ? minimumViewport : max(Double(breakpoints[index].minWidth), minimumViewport)
        let viewport = start - Self.scrollbarAllowance
        return min(viewport, maxWidth ?? viewport)
    }

    /// Places `cards` (in their order) for every breakpoint.
    public func arrange(_ cards: [MasonryCard]) -> [Arrangement] {
        let texts = cards.map { MeasuredText($0.text) }
        return breakpoints.indices.map { index in
            let bp = breakpoints[index]
            let geometry = geometry(columns: bp.columns)
            let width = geometry.cardWidth(containerWidth: narrowestContainer(breakpoint: index))
            let lines = texts.map { text.lines(for: $0, cardWidth: width) }
            let items = zip(cards, lines).map { card, n in
                MasonryItem(fixedHeight: text.height(lines: n), aspect: card.aspect)
            }
            let placement = Masonry.place(items, geometry: geometry, policy: policy, referenceCardWidth: width)
            return Arrangement(breakpoint: bp, placement: placement, lines: lines, measuredCardWidth: width)
        }
    }
}
