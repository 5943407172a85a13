import Foundation
import SiteCore
import SiteLoad
import Testing
@testable import SiteBuild

/// `LoadedDigests`: what a collection or a note loaded is digested whole.
@Suite struct LoadedDigestsTests {
    /// `LoadedData` names what a collection loaded by hand (its configuration is left out: the
    /// record's settings cover it). A property added to `LoadedCollection` must be added there
    /// too, or a change to it would leave pages stale; this fails until it is.
    /// `ViewMaker.versions` digests a tag link's fields by name.
    @Test func aTagLinkIsDigestedWhole() {
        let labels = Mirror(reflecting: TagLink(name: "n", url: "u")).children.compactMap(\.label)
        #expect(labels == ["name", "url"])
    }

    /// And a tag's.
    @Test func aTagIsDigestedWhole() {
        let labels = Mirror(reflecting: SitePlan.Tag(name: "n", slug: "s", notes: [])).children.compactMap(\.label)
        #expect(labels == ["name", "slug", "notes"])
    }

    @Test func aCollectionsDataIsDigestedWhole() throws {
        let site = try Fixture.exampleSite()
        defer { site.remove() }
        let loaded = try FullBuild.run(BuildOptions(source: site.root, output: site.output)).inputs.collections[0]
        let properties = Mirror(reflecting: loaded).children.compactMap(\.label)
        let digested = Mirror(reflecting: LoadedDigests.LoadedData(loaded)).children.compactMap(\.label)
        #expect(properties == ["config"] + digested)
    }
}
