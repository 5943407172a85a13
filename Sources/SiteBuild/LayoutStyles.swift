import SiteCore

/// CSS for a collection's list layout, from the core's geometry: the theme's stylesheet holds the
/// rules, these custom properties hold the numbers (per collection in the page head, per page and
/// per card in `style` attributes).
enum LayoutStyles {
    /// A CSS number: at most `decimals` decimals, no exponent, no trailing zeros.
    static func number(_ value: Double, decimals: Int = 4) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return String(Int64(value.rounded())) }
        let units = Int64(scaled)
        let whole = units / Int64(scale)
        var fraction = String(units % Int64(scale))
        fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        let sign = value < 0 && units != 0 ? "-" : ""
        return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }

    static func px(_ length: Double) -> String { number(length) + "px" }

    static func selector(_ collection: String) -> String { "[data-collection=\"\(collection)\"]" }

    /// Media queries for breakpoints after the first (the first applies at every width below).
    static func forEachBreakpoint(_ bps: [ColumnBreakpoint], _ rules: (Int, ColumnBreakpoint) -> String) -> String {
        var css = ""
        for (i, bp) in bps.enumerated() {
            let r = rules(i, bp)
            css += i == 0 ? r : "@media (min-width:\(bp.minWidth)px){\(r)}"
        }
        return css
    }

    static func grid(_ grid: GridGeometry, collection: String) -> String {
        let sel = selector(collection)
        var css =
            "\(sel){--gap:\(px(grid.spacing));"
            + "--media-aspect:\(number(grid.mediaAspect.width))/\(number(grid.mediaAspect.height));"
            + "--text-height:\(px(grid.textHeight));--inset:\(px(grid.inset));--cols:\(grid.columns(atViewport: 0))}"
        for bp in grid.breakpoints where bp.minWidth > 0 {
            css += "@media (min-width:\(bp.minWidth)px){\(sel){--cols:\(bp.columns)}}"
        }
        return css
    }

    /// The card width at breakpoint `columns` as a CSS length, `100%` being the list's width.
    static func cardWidth(_ masonry: ResponsiveMasonry, columns: Int) -> String {
        "(100% - \(px(masonry.insets.left + masonry.insets.right))) / \(columns) - \(px(masonry.gap))"
    }

    /// The collection-wide part of a masonry: geometry and text metrics, and per breakpoint the
    /// column and card widths and which of each card's numbered properties apply.
    ///
    /// Percentages resolve against the list's width everywhere they are used (a card's `left`,
    /// `width` and `margin-top`, the list's `padding-bottom`), so no container query is needed.
    static func masonry(_ layout: ResponsiveMasonry, collection: String) -> String {
        let sel = selector(collection)
        let t = layout.text
        let sides = px(layout.insets.left + layout.insets.right)
        var css =
            "\(sel){--gap:\(px(layout.gap));--inset-left:\(px(layout.insets.left));"
            + "--text-pad:\(px(t.padding));--text-inset:\(px(t.inset));"
            + "--title-size:\(px(t.titleSize));--title-line:\(px(t.titleLineHeight));"
            + "--text-size:\(px(t.size));--text-line:\(px(t.lineHeight))"
            + (layout.maxWidth.map { ";max-width:\(px($0))" } ?? "") + "}"
        css += forEachBreakpoint(layout.breakpoints) { i, bp in
            "\(sel){--colw:calc((100% - \(sides)) / \(bp.columns));--w:calc(\(cardWidth(layout, columns: bp.columns)))}"
                + "\(sel) .cards-masonry{--h:var(--h\(i))}"
                + "\(sel) .cards-masonry>.card{--c:var(--c\(i));--a:var(--a\(i));--b:var(--b\(i));--l:var(--l\(i))}"
        }
        return css
    }

    /// One page of a masonry: the list's height per breakpoint and each card's column, top and
    /// text lines per breakpoint, from the core's placement.
    static func masonryPage(_ masonry: ResponsiveMasonry, cards: [MasonryCard]) -> (list: String, cards: [String]) {
        let arrangements = masonry.arrange(cards)
        var list: [String] = []
        for (i, a) in arrangements.enumerated() {
            // Written out rather than through var(--w), so validators can type-check it.
            let w = cardWidth(masonry, columns: a.breakpoint.columns)
            let terms = a.placement.columnBottoms.map { b in
                "calc(\(px(b.constant + masonry.insets.bottom)) + \(number(b.perWidth, decimals: 6)) * (\(w)))"
            }
            list.append("--h\(i):max(\(terms.joined(separator: ",")))")
        }
        let styles = cards.indices.map { k in
            var s = "--r:\(number(cards[k].aspect, decimals: 6))"
            for (i, a) in arrangements.enumerated() {
                let top = a.placement.tops[k]
                s +=
                    ";--c\(i):\(a.placement.columns[k]);--a\(i):\(number(top.constant));"
                    + "--b\(i):\(number(top.perWidth, decimals: 6));--l\(i):\(a.lines[k])"
            }
            return s
        }
        return (list.joined(separator: ";"), styles)
    }
}
