import Foundation
import SiteCore
import Testing
@testable import SiteBuild

/// The masonry reaches the page exactly as the core placed it: per card and breakpoint the column
/// (--cN), the top (--aN px + --bN × card width) and the text lines (--lN).
@Suite struct MasonryPageTests {
    /// One card's numbered custom properties, from its `style` attribute.
    static func properties(_ style: Substring) -> [String: Double] {
        var out: [String: Double] = [:]
        for part in style.split(separator: ";") {
            let kv = part.split(separator: ":", maxSplits: 1)
            if kv.count == 2, let v = Double(kv[1]) { out[String(kv[0])] = v }
        }
        return out
    }

    static func cards(_ html: String) -> [(slug: String, props: [String: Double])] {
        html.matches(of: /<li class="card" data-item="([^"]+)" style="([^"]+)">/).map {
            (String($0.1), properties($0.2))
        }
    }

    @Test func shortestColumnPlacementAndPaginationReachThePage() throws {
        // Remote images with declared sizes: aspect ratios 1.5, 0.5, 1, 2, 0.75, 1.
        let sizes = [(400, 600), (600, 300), (500, 500), (300, 600), (800, 600), (100, 100)]
        let rows = sizes.enumerated().map { i, s in
            "{\"id\": \"p\(i)\", \"caption\": \"Photo \(i)\", \"comment\": \"\(String(repeating: "word ", count: i * 7))\", \"url\": \"https://img.example/\(i).jpg\", \"w\": \(s.0), \"h\": \(s.1)}"
        }
        let site = try Fixture(files: [
            "site.yml": """
            title: T
            baseURL: https://example.org/
            collections:
              pins:
                data: pins.json
                slug: id
                pageSize: 4
                images: { fields: url, external: true, width: w, height: h }
                card: { title: caption, subtitle: comment, image: url }
                layout:
                  kind: masonry
                  policy: shortest
                  columns: { 0: 2, 900: 3 }
                  gap: 10
                  insets: { top: 20, left: 4, bottom: 8, right: 4 }
                  text: { maxLines: 4 }
                detail: false
            """,
            "content/pins.json": "[\(rows.joined(separator: ","))]"
        ])
        defer { site.remove() }
        _ = try site.build().get()

        var expectedMasonry = ResponsiveMasonry(
            policy: .shortestColumn, breakpoints: [.init(minWidth: 0, columns: 2), .init(minWidth: 900, columns: 3)],
            gap: 10, insets: EdgeInsets(top: 20, left: 4, bottom: 8, right: 4), maxWidth: 1240)
        expectedMasonry.text.maxLines = 4
        for (page, range) in [("public/pins/index.html", 0..<4), ("public/pins/page/2/index.html", 4..<6)] {
            let html = try site.read(page)
            let cards = Self.cards(html)
            #expect(cards.map(\.slug) == range.map { "p\($0)" }, "data order on \(page)")
            // Each page is its own masonry, placed from its own items.
            let arranged = expectedMasonry.arrange(
                range.map { i in
                    MasonryCard(
                        aspect: Double(sizes[i].1) / Double(sizes[i].0), text: String(repeating: "word ", count: i * 7))
                })
            for (k, card) in cards.enumerated() {
                #expect(
                    card.props["--r"] == Double(sizes[range.lowerBound + k].1) / Double(sizes[range.lowerBound + k].0))
                for (b, a) in arranged.enumerated() {
                    #expect(
                        card.props["--c\(b)"] == Double(a.placement.columns[k]),
                        "\(card.slug) column at breakpoint \(b)")
                    let top = try #require(card.props["--a\(b)"])
                    let perWidth = try #require(card.props["--b\(b)"])
                    #expect(abs(top - a.placement.tops[k].constant) < 1e-4)
                    #expect(abs(perWidth - a.placement.tops[k].perWidth) < 1e-6)
                    #expect(card.props["--l\(b)"] == Double(a.lines[k]))
                }
            }
            // Cards without item pages are not links.
            #expect(!html.contains("<a class=\"card-link\""))
            #expect(html.contains("<div class=\"card-link\">"))
        }
        // The shortest policy leaves round-robin on the first page: p2 goes beside the short p1.
        let first = Self.cards(try site.read("public/pins/index.html"))
        #expect(first.map { $0.props["--c0"] } == [0, 1, 1, 0])
        // Remote images keep their URL and declared size.
        #expect(
            try site.read("public/pins/index.html").contains(
                "<img src=\"https://img.example/0.jpg\" width=\"400\" height=\"600\""))
    }

    /// Worked by hand, not by the core: picture-only cards in two columns, 10 px apart. As in the
    /// app's collection view, each cell is inset half a gap, so the first top is 20 + 5 px; below
    /// it a card's top is the heights above it in its column plus one gap each.
    /// Remote sizes outside 1 to 999,999 px are unknown, written as text as well as numbers: a width
    /// of Int64's maximum once made the aspect arithmetic trap. The page is the one without sizes.
    @Test func implausibleRemoteSizesAreUnknown() throws {
        func page(_ size: String) throws -> String {
            let site = try Fixture(files: [
                "site.yml": """
                title: T
                baseURL: https://example.org/
                collections:
                  pins:
                    data: pins.json
                    slug: id
                    images: { fields: url, external: true, width: w, height: h }
                    card: { title: id, image: url }
                    layout: { kind: grid, columns: { 0: 2 } }
                    detail: false
                """,
                "content/pins.json": "[{\"id\": \"a\", \"url\": \"https://img.example/a.jpg\"\(size)}]"
            ])
            defer { site.remove() }
            _ = try site.build().get()
            return try site.read("public/pins/index.html")
        }
        let unknown = try page("")
        for size in [", \"w\": \"9223372036854775807\", \"h\": \"1\"", ", \"w\": \"1000000\", \"h\": 2"] {
            #expect(try page(size) == unknown, "\(size)")
        }
        #expect(try page(", \"w\": \"999999\", \"h\": \"2\"") != unknown)
    }

    @Test func cardsInAColumnAreOneGapApart() throws {
        let ratios = [1.5, 0.5, 1.0, 2.0, 0.75]
        let rows = ratios.enumerated().map { i, r in
            "{\"id\": \"p\(i)\", \"url\": \"https://img.example/\(i).jpg\", \"w\": 100, \"h\": \(Int(r * 100))}"
        }
        let site = try Fixture(files: [
            "site.yml": """
            title: T
            baseURL: https://example.org/
            collections:
              pins:
                data: pins.json
                slug: id
                images: { fields: url, external: true, width: w, height: h }
                card: { image: url }
                layout: { kind: masonry, columns: { 0: 2 }, gap: 10, insets: { top: 20, left: 0, bottom: 0, right: 0 }, text: false }
                detail: false
            """,
            "content/pins.json": "[\(rows.joined(separator: ","))]"
        ])
        defer { site.remove() }
        _ = try site.build().get()
        let cards = Self.cards(try site.read("public/pins/index.html"))
        #expect(cards.map { $0.props["--c0"] } == [0, 1, 0, 1, 0])
        // (constant px, × card width): p2 under p0, p3 under p1, p4 under p0 and p2.
        let expected: [(Double, Double)] = [(25, 0), (25, 0), (35, 1.5), (35, 0.5), (45, 2.5)]
        #expect(cards.count == expected.count)
        for (card, (a, b)) in zip(cards, expected) {
            #expect(card.props["--a0"] == a, "\(card.slug) top")
            #expect(card.props["--b0"] == b, "\(card.slug) top per card width")
        }
    }

    @Test func cssNumbersHaveNoExponentAndNoTrailingZeros() {
        #expect(LayoutStyles.number(29) == "29")
        #expect(LayoutStyles.number(127.875) == "127.875")
        #expect(LayoutStyles.number(0.1 + 0.2) == "0.3")
        #expect(LayoutStyles.number(1e-7, decimals: 6) == "0")
        #expect(LayoutStyles.number(0.0000125, decimals: 6) == "0.000013")
        #expect(LayoutStyles.number(-6.5) == "-6.5")
        #expect(LayoutStyles.number(-0.00001) == "0")
        #expect(LayoutStyles.number(.nan) == "0")
        #expect(LayoutStyles.number(-.infinity) == "0")
        #expect(LayoutStyles.number(1e16) == "10000000000000000")
        // Past 2^53 units a double holds no exact fraction digits: the number is rounded whole.
        #expect(LayoutStyles.number(1e12 + 0.5) == "1000000000001")
        #expect(LayoutStyles.number(-2.5e17) == "-250000000000000000")
        #expect(LayoutStyles.px(12) == "12px")
    }

    @Test func exampleStreamIsRoundRobinInDataOrder() throws {
        let site = try Fixture.exampleSite()
        defer { site.remove() }
        _ = try site.build().get()
        let cards = Self.cards(try site.read("public/pinterest/index.html"))
        #expect(cards.count >= 30)
        #expect(cards.map(\.slug) == (1...cards.count).map { String(format: "%02d", $0) })
        for (k, card) in cards.enumerated() {
            #expect(card.props["--c0"] == Double(k % 2))
            #expect(card.props["--c1"] == Double(k % 3))
            #expect(card.props["--c2"] == Double(k % 4))
        }
        // The first row sits at the app's inset: 23 + 6.
        #expect(cards.prefix(2).allSatisfy { $0.props["--a0"] == 29 && $0.props["--b0"] == 0 })
    }
}
