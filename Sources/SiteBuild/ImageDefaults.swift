import SiteCore
import SiteImages
import SiteLoad

/// The widths and `sizes` an image field gets when site.yml does not say: for the card image of
/// a grid or masonry, the card's widest width in each breakpoint's range at 1× and 2×, and a
/// `sizes` with the card width per breakpoint, worked from the core's geometry; for other
/// fields, the detail page's 760 px column at 1× and 2×.
enum ImageDefaults {
    /// The widest page the built-in theme lays a list out in (`main`'s max-width).
    static let pageWidth = 1240.0
    static let detailWidths = [760, 1520]
    static let detailSizes = "(min-width: 760px) 760px, 100vw"
    /// The built-in detail page's column: 760 px less its 16 px padding each side.
    static let detailColumnSizes = "(min-width: 760px) 728px, calc(100vw - 32px)"
    /// A note's images: its text column (760 px less 16 px either side) at 1× and 2×.
    static let noteWidths = [730, 1460]
    static let noteSizes = "(min-width: 760px) 728px, calc(100vw - 32px)"

    /// (widths, sizes) of `field` in `collection`.
    static func outputs(_ collection: CollectionConfig, field: String) -> (widths: [Int], sizes: String) {
        guard field == collection.cardImageField else { return (detailWidths, detailSizes) }
        switch collection.layout {
        case .grid(let g):
            let n = { (bp: ColumnBreakpoint) in Double(max(1, bp.columns)) }
            // The grid is `inset` in from each side of the screen.
            return cards(
                g.breakpoints, cap: pageWidth,
                width: { bp, w in g.cell(gridWidth: w - 2 * g.inset, columns: bp.columns).width },
                css: { bp in "calc((100vw - \(LayoutStyles.px(2 * g.inset + g.spacing * (n(bp) - 1)))) / \(bp.columns))"
                })
        case .masonry(let m):
            let sides = m.insets.left + m.insets.right
            return cards(
                m.breakpoints, cap: m.maxWidth ?? pageWidth,
                width: { bp, w in m.geometry(columns: bp.columns).cardWidth(containerWidth: w) },
                css: { bp in "calc((100vw - \(LayoutStyles.px(sides))) / \(bp.columns) - \(LayoutStyles.px(m.gap)))" })
        case .list:
            return (detailWidths, detailSizes)
        }
    }

    /// Widths and `sizes` from each breakpoint's widest card (`width` of a breakpoint at a
    /// container width; the container stops growing at `cap`).
    static func cards(
        _ bps: [ColumnBreakpoint], cap: Double, width: (ColumnBreakpoint, Double) -> Double,
        css: (ColumnBreakpoint) -> String
    ) -> (widths: [Int], sizes: String) {
        var widest: [Int] = []
        var sizes: [String] = []
        for (i, bp) in bps.enumerated() {
            let end = i + 1 < bps.count ? Double(bps[i + 1].minWidth - 1) : cap
            widest.append(Int(width(bp, min(end, cap)).rounded(.up)))
            let query = bp.minWidth > 0 ? "(min-width: \(bp.minWidth)px) " : ""
            if Double(bp.minWidth) < cap { sizes.append(query + css(bp)) }
        }
        // Past the cap the card stops growing: one fixed width.
        if let last = bps.last { sizes.append("(min-width: \(Int(cap))px) \(Int(width(last, cap).rounded(.up)))px") }
        let widths = merged(widest.flatMap { [$0, $0 * 2] })
        return (widths, sizes.reversed().joined(separator: ", "))
    }

    /// Sorted, rounded up to 10 px, and a width within 10 % above a kept one dropped (its
    /// neighbour serves it at no visible cost).
    static func merged(_ widths: [Int]) -> [Int] {
        var kept: [Int] = []
        for w in Set(widths.map { ($0 + 9) / 10 * 10 }).sorted()
        where kept.last.map({ Double(w) > Double($0) * 1.1 }) ?? true {
            kept.append(w)
        }
        return kept
    }

    /// The formats of a source when site.yml does not say: AVIF, WebP and its own family.
    static func formats(source: String) -> [ImageFormat] {
        [.avif, .webp, source.lowercased().hasSuffix(".png") ? .png : .jpeg]
    }
}
