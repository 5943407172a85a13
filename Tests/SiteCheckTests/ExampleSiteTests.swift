import Foundation
import SiteBuild
import SiteCore
import Testing
@testable import SiteCheck

/// The repository's example site, built by the real pipeline, passes its own check: at the
/// configuration's base URL and under a sub-path.
@Suite struct ExampleSiteCheckTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func buildAndCheck(baseURL: String?) throws -> CheckReport {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sitegen-check-example-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let options = BuildOptions(source: Self.repository, output: output, baseURL: baseURL)
        let built = try Result { () throws(Diagnostics) in try SiteBuilder.build(options) }.get()
        let site = try #require(
            SiteAddress(baseURL: try Result { () throws(Diagnostics) in try SiteBuilder.baseURL(options) }.get()))
        let report = try SiteChecker.check(output: output, display: "public", site: site)
        #expect(report.pages == built.pages, "every page the build wrote (404.html included)")
        // Every page links to the style sheet, the home page and each section: a check that
        // resolves nothing cannot pass this.
        #expect(report.links > 10 * report.pages && report.images > 100)
        return report
    }

    @Test func theExampleSiteHasNoProblem() throws {
        let report = try buildAndCheck(baseURL: nil)
        #expect(report.problems.map(\.description) == [])
    }

    @Test func theExampleSiteUnderASubPathHasNoProblem() throws {
        let report = try buildAndCheck(baseURL: "https://example.org/apps/")
        #expect(report.problems.map(\.description) == [])
    }
}
