import Foundation
import SiteCore
import SiteWrite
import Testing
@testable import SiteBuild

/// Pages rendered and written in parallel: a page that cannot be written is an error naming it,
/// and the other pages are written all the same.
@Suite struct PageRendererTests {
    @Test func aPageThatCannotBeWrittenIsAnError() throws {
        let site = try Fixture.exampleSite()
        defer { site.remove() }
        let (config, content, templates) = try SiteInputs.loadConfiguration(
            BuildOptions(source: site.root, output: site.output))
        let inputs = try SiteInputs.loadData(
            source: site.root, config: config, content: content, templates: templates, includeDrafts: false, threads: 2)
        let model = try SiteModel.make(inputs)
        let plan = SitePlan(model)
        let renderer = PageRenderer(model: model, plan: plan)
        let home = try #require(plan.pages.first { $0.path == model.urls.home })
        let item = try #require(plan.pages.first { if case .item = $0.id { true } else { false } })
        // A file where the item page's folder would be.
        let out = site.root.appendingPathComponent("out")
        let folder = model.urls.file(ofPagePath: item.path).split(separator: "/").first.map(String.init) ?? ""
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: out.appendingPathComponent(folder))
        do {
            try renderer.render([home, item], to: LiveOutput(folder: out))
            Issue.record("no error")
        } catch {
            #expect(error.items.map(\.location.file) == [item.source], "\(error)")
            // The item page is named by its dataset and the item's place in it.
            #expect(
                item.source.range(of: #"^content/\S+\.(json|plist) \[\d+\]$"#, options: .regularExpression) != nil,
                "\(item.source)")
        }
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("index.html").path))
    }
}
