/// Which column each masonry item goes to.
public enum MasonryPolicy: String, Sendable, Hashable, CaseIterable {
    /// Item k goes to column k mod N: the Pinterest app's `PinterestLayout`.
    case roundRobin = "round-robin"
    /// Each item goes to the column whose bottom is highest up, the leftmost on ties: Masonry.js.
    case shortestColumn = "shortest"
}

/// Space kept free around the cards, in px (the app's section insets).
public struct EdgeInsets: Sendable, Hashable {
    public var top: Double, left: Double, bottom: Double, right: Double
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
}

/// A length that grows linearly with the card width: `constant + perWidth × cardWidth`.
///
/// A masonry card is text of fixed height plus media whose height is proportional to the card
/// width, so every top and bottom in a column is such a length; keeping it symbolic lets one
/// build-time placement serve every width in a breakpoint's range exactly (CSS `calc()`).
public struct LinearLength: Sendable, Hashable {
    public var constant: Double
    public var perWidth: Double
    public init(constant: Double = 0, perWidth: Double = 0) {
        self.constant = constant
        self.perWidth = perWidth
    }
    public func value(atCardWidth w: Double) -> Double { constant + perWidth * w }
    public static func + (lhs: LinearLength, rhs: LinearLength) -> LinearLength {
        LinearLength(constant: lhs.constant + rhs.constant, perWidth: lhs.perWidth + rhs.perWidth)
    }
}

/// One item's height as a function of the card width.
public struct MasonryItem: Sendable, Hashable {
    /// Height that does not scale with the width: text boxes and paddings.
    public var fixedHeight: Double
    /// Media height per px of card width (the image's height ÷ width; 0 without media).
    public var aspect: Double
    public init(fixedHeight: Double, aspect: Double) {
        self.fixedHeight = fixedHeight
        self.aspect = aspect
    }
    public var height: LinearLength { LinearLength(constant: fixedHeight, perWidth: aspect) }
}

/// Columns, the gap between cards and the insets around them, for one column count.
///
/// Matches `PinterestLayout` with `gap = 2 × cellPadding`: column width = (W − left − right) / N,
/// each card inset by gap / 2 inside its cell, so cards are gap apart and gap / 2 from the insets.
public struct MasonryGeometry: Sendable, Hashable {
    public var columns: Int
    public var gap: Double
    public var insets: EdgeInsets

    public init(columns: Int, gap: Double, insets: EdgeInsets = EdgeInsets()) {
        self.columns = max(1, columns)
        self.gap = gap
        self.insets = insets
    }

    public func columnWidth(containerWidth: Double) -> Double {
        max(0, (containerWidth - insets.left - insets.right) / Double(columns))
    }

    public func cardWidth(containerWidth: Double) -> Double {
        max(0, columnWidth(containerWidth: containerWidth) - gap)
    }

    public func cardLeft(column: Int, containerWidth: Double) -> Double {
        insets.left + Double(column) * columnWidth(containerWidth: containerWidth) + gap / 2
    }
}

/// A rectangle in px, origin top left.
public struct Frame: Sendable, Hashable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
}

/// Where each item went: its column and its card's top, both valid for every container width.
public struct MasonryPlacement: Sendable, Hashable {
    public var geometry: MasonryGeometry
    /// Column per item, in item order.
    public var columns: [Int]
    /// Top of each item's card, as a function of the card width.
    public var tops: [LinearLength]
    /// Heights of the items' cards, as given.
    public var heights: [LinearLength]
    /// Bottom of each column's last cell (card + gap / 2), from the top inset on; the bottom inset
    /// is not included.
    public var columnBottoms: [LinearLength]

    /// The height of the whole masonry, insets included, at one card width: the tallest column.
    public func contentHeight(atCardWidth w: Double) -> Double {
        let tallest = columnBottoms.map { $0.value(atCardWidth: w) }.max() ?? geometry.insets.top
        return tallest + geometry.insets.bottom
    }

    /// Every card's rectangle in a container `width` px wide.
    public func frames(containerWidth width: Double) -> [Frame] {
        let w = geometry.cardWidth(containerWidth: width)
        return columns.indices.map { i in
            Frame(
                x: geometry.cardLeft(column: columns[i], containerWidth: width), y: tops[i].value(atCardWidth: w),
                width: w, height: heights[i].value(atCardWidth: w))
        }
    }
}

/// Build-time masonry placement: pure, deterministic, linear in the number of items.
public enum Masonry {
    /// Places `items` in order. Round-robin ignores the widths; shortest-column compares column
    /// bottoms at `referenceCardWidth` (placement is decided once, for that width).
    public static func place(
        _ items: [MasonryItem], geometry: MasonryGeometry, policy: MasonryPolicy,
        referenceCardWidth: Double = 0
    ) -> MasonryPlacement {
        let n = geometry.columns
        let firstTop = LinearLength(constant: geometry.insets.top + geometry.gap / 2)
        // Running top of the next card in each column.
        var next = [LinearLength](repeating: firstTop, count: n)
        var nextValue = [Double](repeating: firstTop.constant, count: n)
        var columns = [Int](repeating: 0, count: items.count)
        var tops = [LinearLength](repeating: LinearLength(), count: items.count)
        var heights = [LinearLength](repeating: LinearLength(), count: items.count)
        let step = LinearLength(constant: geometry.gap)
        for (k, item) in items.enumerated() {
            let column: Int
            switch policy {
            case .roundRobin:
                column = k % n
            case .shortestColumn:
                var best = 0
                for c in 1..<n where nextValue[c] < nextValue[best] { best = c }
                column = best
            }
            let height = item.height
            columns[k] = column
            tops[k] = next[column]
            heights[k] = height
            next[column] = next[column] + height + step
            nextValue[column] = next[column].value(atCardWidth: referenceCardWidth)
        }
        // A column's bottom is its next top less the half gap that would start the next cell.
        let bottoms = next.map { $0 + LinearLength(constant: -geometry.gap / 2) }
        return MasonryPlacement(
            geometry: geometry, columns: columns, tops: tops, heights: heights, columnBottoms: bottoms)
    }
}
