import Testing
@testable import SiteCore

@Suite struct SpellingTests {
    @Test func theNearestCloseNameIsSuggested() {
        #expect(Spelling.nearest(to: "pagesize", among: ["pageSize", "slug", "sort"]) == "pageSize")
        #expect(Spelling.nearest(to: "biuld", among: ["build", "serve", "check", "init", "eject"]) == "build")
        #expect(Spelling.nearest(to: "widht", among: ["width", "widths"]) == "width")
        #expect(Spelling.nearest(to: "colections", among: ["collections", "notes"]) == "collections")
    }

    @Test func aFarNameGetsNoSuggestion() {
        // Three edits from "sort" in a name of 7: more than a third of it.
        #expect(Spelling.nearest(to: "sorting", among: ["sort", "slug"]) == nil)
        #expect(Spelling.nearest(to: "theme", among: ["title", "notes"]) == nil)
        // A one-letter name may still be one edit away.
        #expect(Spelling.nearest(to: "x", among: ["y"]) == "y")
        // The name itself is not a suggestion.
        #expect(Spelling.nearest(to: "build", among: ["build"]) == nil)
    }

    @Test func distanceCountsASwapAsOneEdit() {
        func d(_ a: String, _ b: String) -> Int { Spelling.distance(Array(a), Array(b)) }
        #expect(d("ab", "ba") == 1)
        #expect(d("biuld", "build") == 1)
        #expect(d("", "abc") == 3)
        #expect(d("kitten", "sitting") == 3)
        #expect(d("abc", "abc") == 0)
    }
}

@Suite struct CommonAspectTests {
    @Test func theMostCommonAspectInItsSmallestTerms() throws {
        let a = try #require(GridGeometry.commonAspect([(600, 900), (1000, 1500), (800, 600), (400, 600)]))
        #expect(a.width == 2 && a.height == 3)
        let b = try #require(GridGeometry.commonAspect([(1200, 800)]))
        #expect(b.width == 3 && b.height == 2)
    }

    @Test func tiesGoToTheFirstAndNothingGivesNil() throws {
        let a = try #require(GridGeometry.commonAspect([(100, 100), (600, 900)]))
        #expect(a.width == 1 && a.height == 1)
        #expect(GridGeometry.commonAspect([]) == nil)
        #expect(GridGeometry.commonAspect([(0, 10)]) == nil)
    }
}
