import Foundation
import Testing
@testable import SiteBuild

/// Legal settings that used to give a page without a word of warning nothing to show, or an
/// order that meant nothing (issue 16).
@Suite struct VisibleCardsTests {
    static let people =
        #"[{"name": "Luffy", "bounty": 300}, {"name": "Zoro", "bounty": 120}, {"name": "Nami", "rank": null}]"#

    func site(_ collection: String) throws -> Fixture {
        try Fixture(files: [
            "site.yml":
                "title: T\nbaseURL: https://x.org/\ncollections:\n  people:\n    data: people.json\n    slug: name\n\(collection)",
            "content/people.json": Self.people
        ])
    }

    @Test func aSortFieldNoItemHasIsAnErrorAtTheSortKey() throws {
        let f = try site(
            "    sort:\n      - { field: bounty, order: descending }\n      - { field: rank }\n      - { field: rnak }\n"
        )
        defer { f.remove() }
        // 'rank' is null wherever it is present: as absent as 'rnak', which no item has.
        #expect(
            f.errors() == [
                "site.yml:9:9: error: no item of collection 'people' has a value for the sort field 'rank', so it would not sort anything; check the field's name",
                "site.yml:10:9: error: no item of collection 'people' has a value for the sort field 'rnak', so it would not sort anything; check the field's name"
            ])
    }

    @Test func aSortFieldSomeItemsHaveSortsThoseFirst() throws {
        let f = try site("    sort: [ { field: bounty } ]\n    layout: { kind: grid }\n")
        defer { f.remove() }
        _ = try f.build().get()
        let list = try f.read("public/people/index.html")
        let order = ["Zoro", "Luffy", "Nami"].map { list.range(of: "data-item=\"\($0)\"")?.lowerBound }
        #expect(
            order.allSatisfy { $0 != nil } && order == order.sorted { $0! < $1! },
            "Zoro (120), Luffy (300), then Nami (no bounty)")
    }

    @Test func aMasonryOfImagesOfUnknownSizeIsAnErrorAtTheItem() throws {
        let f = try Fixture(files: [
            "site.yml":
                "title: T\nbaseURL: https://x.org/\ncollections:\n  pics:\n    data: pics.json\n    slug: name\n    images: { fields: url, external: true, width: w, height: h }\n    layout: { kind: masonry }\n",
            "content/pics.json":
                #"[{"name": "a", "url": "https://img.example/a.jpg", "w": 400, "h": 300}, {"name": "b", "url": "https://img.example/b.jpg", "w": 400}, {"name": "c"}]"#
        ])
        defer { f.remove() }
        // b's height is missing; c has no image at all (a text card, placed by its text).
        #expect(
            f.errors() == [
                "content/pics.json:1:73: error: at [1].url: collection 'pics' is a masonry, which places each card by its image's size, and the size of 'https://img.example/b.jpg' is unknown: name the fields holding it with images: { width: …, height: … }"
            ])
        try f.write(
            "content/pics.json",
            #"[{"name": "a", "url": "https://img.example/a.jpg", "w": 400, "h": 300}, {"name": "c"}]"#)
        _ = try f.build().get()
    }

    @Test func aTextOnlyGridGetsATextAreaItsTextFits() throws {
        let f = try site("    card: { title: name, subtitle: bounty }\n    layout: { kind: grid }\n")
        defer { f.remove() }
        _ = try f.build().get()
        let list = try f.read("public/people/index.html")
        #expect(list.contains("--text-height:61px"), "title 24 + subtitle 21 + 2 × 8 px")
        #expect(!list.contains("card-media"))
    }
}
