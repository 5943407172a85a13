import PropertyBased
import Testing
@testable import SiteCore

/// The Pinterest app's layout at W = 375, computed by hand from `PinterestLayout.prepare()`:
/// 2 columns of (375 − 5 − 5) / 2 = 182.5; cells inset by the 6-pt padding, so cards are 170.5 wide;
/// photo = 170.5 × h / w; annotation = 4 + 17 + comment + 4; cell = 6 + photo + annotation + 6.
@Suite struct MasonryAppLayoutTests {
    let app = MasonryGeometry(columns: 2, gap: 12, insets: EdgeInsets(top: 23, left: 5, bottom: 10, right: 5))

    /// Photos 400×300, 300×450, 500×500 with comments 28, 14 and 42 pt tall.
    var items: [MasonryItem] {
        [(400.0, 300.0, 28.0), (300, 450, 14), (500, 500, 42)].map { w, h, comment in
            MasonryItem(fixedHeight: 4 + 17 + comment + 4, aspect: h / w)
        }
    }

    @Test func roundRobinMatchesTheAppAt375() {
        let placement = Masonry.place(items, geometry: app, policy: .roundRobin)
        #expect(app.columnWidth(containerWidth: 375) == 182.5)
        #expect(app.cardWidth(containerWidth: 375) == 170.5)
        let frames = placement.frames(containerWidth: 375)
        // Cell A: (5, 23) 182.5 × 192.875 → card (11, 29) 170.5 × 180.875.
        let expected1 = Frame(x: 11, y: 29, width: 170.5, height: 180.875)
        #expect(frames[0] == expected1)
        // Cell B: (187.5, 23) 182.5 × 306.75 → card (193.5, 29) 170.5 × 294.75.
        let expected2 = Frame(x: 193.5, y: 29, width: 170.5, height: 294.75)
        #expect(frames[1] == expected2)
        // Cell C: column 0 again, under A: (5, 215.875) 182.5 × 249.5 → card (11, 221.875) 170.5 × 237.5.
        let expected3 = Frame(x: 11, y: 221.875, width: 170.5, height: 237.5)
        #expect(frames[2] == expected3)
        #expect(placement.columns == [0, 1, 0])
        // contentHeight = 23 + max(192.875 + 249.5, 306.75) + 10.
        #expect(placement.contentHeight(atCardWidth: 170.5) == 475.375)
    }

    @Test func theSamePlacementServesAnotherWidth() {
        // At W = 414: columns 202, cards 190; A's photo 142.5, so C starts at 29 + 142.5 + 53 + 12.
        let frames = Masonry.place(items, geometry: app, policy: .roundRobin).frames(containerWidth: 414)
        let cHeight: Double = 190 + 67
        let expected4 = Frame(x: 11, y: 236.5, width: 190, height: cHeight)
        #expect(frames[2] == expected4)
        #expect(frames[1].x == 5 + 202 + 6)
    }

    @Test func shortestColumnDiffersFromRoundRobinWhenAColumnRunsLong() {
        // A tall photo first: round-robin puts the third item under it, Masonry.js beside it.
        let tall = [
            MasonryItem(fixedHeight: 25, aspect: 3), MasonryItem(fixedHeight: 25, aspect: 0.5),
            MasonryItem(fixedHeight: 25, aspect: 1)
        ]
        let rr = Masonry.place(tall, geometry: app, policy: .roundRobin)
        let shortest = Masonry.place(tall, geometry: app, policy: .shortestColumn, referenceCardWidth: 170.5)
        #expect(rr.columns == [0, 1, 0])
        #expect(shortest.columns == [0, 1, 1])
        // Under item 1: 29 + 170.5 × 0.5 + 25 + 12.
        let expected: Double = 29 + 85.25 + 25 + 12
        #expect(shortest.frames(containerWidth: 375)[2].y == expected)
    }

    @Test func shortestColumnTakesTheLeftmostOnTies() {
        let same = Array(repeating: MasonryItem(fixedHeight: 10, aspect: 1), count: 7)
        let p = Masonry.place(
            same, geometry: MasonryGeometry(columns: 3, gap: 4), policy: .shortestColumn, referenceCardWidth: 100)
        #expect(p.columns == [0, 1, 2, 0, 1, 2, 0])
    }

    @Test func emptyInputHasOnlyInsets() {
        let p = Masonry.place([], geometry: app, policy: .shortestColumn)
        #expect(p.columns.isEmpty)
        #expect(p.contentHeight(atCardWidth: 170.5) == 33)
    }
}

/// Invariants of any placement, checked on random items, column counts, gaps, insets and widths.
@Suite struct MasonryPropertyTests {
    static let items = zip(Gen.double(in: 0...300), Gen.double(in: 0...4))
        .map { MasonryItem(fixedHeight: $0, aspect: $1) }
        .array(of: 0...80)
    static let insets = zip(
        Gen.double(in: 0...40), Gen.double(in: 0...40), Gen.double(in: 0...40), Gen.double(in: 0...40)
    )
    .map { EdgeInsets(top: $0, left: $1, bottom: $2, right: $3) }
    static let policy = Gen.element(of: MasonryPolicy.allCases).map { $0 ?? .roundRobin }

    static let tolerance = 1e-6

    /// Places and returns the frames at `width`, with the reference width the shortest policy used.
    static func place(
        _ items: [MasonryItem], _ columns: Int, _ gap: Double, _ insets: EdgeInsets, _ policy: MasonryPolicy,
        width: Double
    )
        -> (MasonryPlacement, [Frame], Double)
    {
        let g = MasonryGeometry(columns: columns, gap: gap, insets: insets)
        let w = g.cardWidth(containerWidth: width)
        let p = Masonry.place(items, geometry: g, policy: policy, referenceCardWidth: w)
        return (p, p.frames(containerWidth: width), w)
    }

    @Test func noTwoCardsOverlap() async {
        await propertyCheck(
            input: Self.items, Gen.int(in: 1...6), Gen.double(in: 0...30), Self.insets, Self.policy,
            Gen.double(in: 100...2000)
        ) { items, n, gap, insets, policy, width in
            let (_, frames, _) = Self.place(items, n, gap, insets, policy, width: width)
            for i in frames.indices {
                for j in frames.indices where j > i {
                    let a = frames[i], b = frames[j]
                    let overlap =
                        a.x < b.maxX - Self.tolerance && b.x < a.maxX - Self.tolerance
                        && a.y < b.maxY - Self.tolerance && b.y < a.maxY - Self.tolerance
                    // (A compiler crash in Swift 6.3.1 forbids `||` chains inside #expect here.)
                    let degenerate = a.width == 0 || a.height == 0 || b.height == 0
                    let fine = !overlap || degenerate
                    #expect(fine, "cards \(i) \(a) and \(j) \(b) overlap")
                }
            }
        }
    }

    @Test func eachColumnIsFilledTopToBottomWithoutHolesInItemOrder() async {
        await propertyCheck(
            input: Self.items, Gen.int(in: 1...6), Gen.double(in: 0...30), Self.insets, Self.policy,
            Gen.double(in: 100...2000)
        ) { items, n, gap, insets, policy, width in
            let (p, frames, _) = Self.place(items, n, gap, insets, policy, width: width)
            let g = p.geometry
            for column in 0..<n {
                let members = p.columns.indices.filter { p.columns[$0] == column }
                var expectedTop = insets.top + gap / 2
                for k in members {
                    #expect(
                        abs(frames[k].y - expectedTop) < 1e-6 * max(1, expectedTop), "item \(k) in column \(column)")
                    #expect(abs(frames[k].x - g.cardLeft(column: column, containerWidth: width)) < Self.tolerance)
                    expectedTop = frames[k].maxY + gap
                }
                let bottom = p.columnBottoms[column].value(atCardWidth: g.cardWidth(containerWidth: width))
                #expect(abs(bottom - (expectedTop - gap / 2)) < 1e-6 * max(1, bottom))
            }
        }
    }

    @Test func roundRobinPutsItemKInColumnKModN() async {
        await propertyCheck(input: Self.items, Gen.int(in: 1...6)) { items, n in
            let p = Masonry.place(items, geometry: MasonryGeometry(columns: n, gap: 12), policy: .roundRobin)
            #expect(p.columns == items.indices.map { $0 % n })
        }
    }

    @Test func shortestColumnAlwaysPicksALowestColumnLeftmostOnTies() async {
        await propertyCheck(
            input: Self.items, Gen.int(in: 1...6), Gen.double(in: 0...30), Self.insets, Gen.double(in: 100...2000)
        ) { items, n, gap, insets, width in
            let (p, frames, _) = Self.place(items, n, gap, insets, .shortestColumn, width: width)
            // Replay: the bottoms of the columns just before each item is placed.
            var next = [Double](repeating: insets.top + gap / 2, count: n)
            for k in items.indices {
                let lowest = next.min()!
                let chosen = p.columns[k]
                #expect(
                    next[chosen] == lowest, "item \(k) went to column \(chosen) at \(next[chosen]), lowest is \(lowest)"
                )
                #expect(next.firstIndex(of: lowest) == chosen, "ties go to the leftmost column")
                next[chosen] = frames[k].maxY + gap
            }
        }
    }

    @Test func theSameInputGivesTheSamePlacement() async {
        await propertyCheck(
            input: Self.items, Gen.int(in: 1...6), Gen.double(in: 0...30), Self.insets, Self.policy,
            Gen.double(in: 100...2000)
        ) { items, n, gap, insets, policy, width in
            let a = Self.place(items, n, gap, insets, policy, width: width)
            let b = Self.place(items, n, gap, insets, policy, width: width)
            #expect(a.0 == b.0)
            #expect(a.1 == b.1)
        }
    }

    @Test func contentHeightCoversEveryCardAndTheBottomInset() async {
        await propertyCheck(
            input: Self.items, Gen.int(in: 1...6), Gen.double(in: 0...30), Self.insets, Self.policy,
            Gen.double(in: 100...2000)
        ) { items, n, gap, insets, policy, width in
            let (p, frames, w) = Self.place(items, n, gap, insets, policy, width: width)
            let height = p.contentHeight(atCardWidth: w)
            let lowest = frames.map(\.maxY).max() ?? insets.top - gap / 2
            #expect(abs(height - (lowest + gap / 2 + insets.bottom)) < 1e-6 * max(1, height))
        }
    }
}

@Suite struct ResponsiveMasonryTests {
    let masonry = ResponsiveMasonry(
        policy: .roundRobin,
        breakpoints: [
            ColumnBreakpoint(minWidth: 1280, columns: 4), ColumnBreakpoint(minWidth: 0, columns: 2),
            ColumnBreakpoint(minWidth: 768, columns: 3)
        ],
        gap: 12, insets: EdgeInsets(top: 23, left: 5, bottom: 10, right: 5), maxWidth: 1240)

    @Test func breakpointsAreSortedAndMeasuredAtTheirNarrowestContainer() {
        #expect(masonry.breakpoints.map(\.columns) == [2, 3, 4])
        // The first range starts at the minimum viewport (320), less a scrollbar; the last is capped.
        #expect(masonry.narrowestContainer(breakpoint: 0) == 300)
        #expect(masonry.narrowestContainer(breakpoint: 1) == 748)
        #expect(masonry.narrowestContainer(breakpoint: 2) == 1240)
    }

    @Test func everyBreakpointGetsAPlacementAndTextLines() {
        let long = String(repeating: "사진 설명 ", count: 12)
        let cards = [
            MasonryCard(aspect: 1, text: ""), MasonryCard(aspect: 0.5, text: "짧다"), MasonryCard(aspect: 1.5, text: long)
        ]
        let arranged = masonry.arrange(cards)
        #expect(arranged.count == 3)
        #expect(arranged.map { $0.placement.geometry.columns } == [2, 3, 4])
        for a in arranged {
            #expect(a.lines[0] == 0)
            #expect(a.lines[1] == 1)
            #expect(a.lines[2] > 1 && a.lines[2] <= masonry.text.maxLines)
            // The text box is part of the item's fixed height.
            #expect(a.placement.heights[2].constant == masonry.text.height(lines: a.lines[2]))
        }
        // Narrower cards need at least as many lines.
        #expect(arranged[0].lines[2] >= arranged[2].lines[2])
    }
}

@Suite struct TextMeasureTests {
    @Test func emptyTextTakesNoLine() {
        #expect(TextMeasure.lineCount("", width: 200, fontSize: 10) == 0)
    }

    @Test func shortTextTakesOneLine() {
        #expect(TextMeasure.lineCount("Tea time", width: 200, fontSize: 10) == 1)
        #expect(TextMeasure.lineCount("오늘의 사진", width: 200, fontSize: 10) == 1)
    }

    @Test func hangulTakesAFullEmAndBreaksBetweenSyllables() {
        // 20 syllables at 10 px in a 100 px box: 10 per line, no spaces needed.
        #expect(TextMeasure.lineCount(String(repeating: "가", count: 20), width: 100, fontSize: 10) == 2)
        #expect(TextMeasure.lineCount(String(repeating: "가", count: 21), width: 100, fontSize: 10) == 3)
    }

    @Test func wordsWrapAtSpacesAndTrailingSpacesHang() {
        let word = "mmmmm"  // 5 × 0.974 × 1.04 ≈ 5.06 em
        #expect(TextMeasure.lineCount("\(word) \(word)", width: 110, fontSize: 10) == 1)
        #expect(TextMeasure.lineCount("\(word) \(word) \(word)", width: 110, fontSize: 10) == 2)
        #expect(TextMeasure.lineCount("\(word)     ", width: 51, fontSize: 10) == 1)
        #expect(TextMeasure.lineCount("\(word)     ", width: 50, fontSize: 10) == 2)
    }

    @Test func aWordLongerThanALineBreaksAnywhere() {
        let long = String(repeating: "m", count: 25)  // ≈ 25.3 em
        #expect(TextMeasure.lineCount(long, width: 100, fontSize: 10) == 3)
    }

    @Test func newlinesStartLines() {
        #expect(TextMeasure.lineCount("a\nb\n\nc", width: 200, fontSize: 10) == 4)
    }

    @Test func widthsAreDejaVuSansWidthsWidened() {
        #expect(abs(TextMeasure.width(of: "0") - 0.636 * TextMeasure.safetyFactor) < 1e-12)
        #expect(TextMeasure.width(of: "한") == 1)
        #expect(TextMeasure.width(of: "e\u{301}") == TextMeasure.width(of: "e"))
    }

    @Test func cardLinesAreClampedToTheMaximum() {
        var metrics = CardTextMetrics()
        metrics.maxLines = 3
        #expect(metrics.lines(for: MeasuredText(String(repeating: "긴 설명 ", count: 100)), cardWidth: 150) == 3)
        #expect(metrics.lines(for: MeasuredText(""), cardWidth: 150) == 0)
        let expected: Double = 4 + 17 + 28 + 4
        #expect(metrics.height(lines: 2) == expected)
    }

    /// The text is measured inside the card's horizontal padding, on both sides.
    @Test func cardTextIsMeasuredInsideTheInsets() {
        let metrics = CardTextMetrics()
        let text = MeasuredText("mmmmm     ")  // 1 line in 51 px at 10 px, 2 in 50 (TextMeasureTests)
        #expect(metrics.lines(for: text, cardWidth: 51 + 2 * metrics.inset) == 1)
        #expect(metrics.lines(for: text, cardWidth: 50 + 2 * metrics.inset) == 2)
    }

    /// A text always gets a line, whatever the maximum says.
    @Test func aTextGetsALineEvenWithNoMaximum() {
        var metrics = CardTextMetrics()
        metrics.maxLines = 0
        #expect(metrics.lines(for: MeasuredText("Tea"), cardWidth: 150) == 1)
    }
}
