import Foundation
import MustacheReference
import Testing
@testable import SiteBuild
@testable import SiteRender

/// sitegen's compiled Mustache engine renders the same bytes as swift-mustache, the engine it
/// replaces: every page of the example site and of the bench site with its own template, and
/// every template (built-in and the site's) with a context of each page kind.
@Suite struct CompiledTemplatesTests {
    /// The renderer of a site folder, as a build makes it.
    static func renderer(_ source: URL) throws -> PageRenderer {
        let options = BuildOptions(source: source, output: FileManager.default.temporaryDirectory.appendingPathComponent("unused"))
        let (config, content, templates) = try SiteInputs.loadConfiguration(options)
        var inputs = try SiteInputs.loadData(config: config, content: content, templates: templates, includeDrafts: false)
        inputs.assetNames = try SiteFiles.fingerprintedAssets(options.source)
        return PageRenderer(model: try SiteModel.make(inputs))
    }

    /// Renders `jobs` with both engines; the differing pages (at most a few) and how many matched.
    static func compare(_ r: PageRenderer, jobs: [PageRenderer.Job], templates: (PageRenderer.Job) -> [String]) throws -> (diffs: [String], same: Int) {
        let reference = try SwiftMustacheReference(r.templates.texts)
        var diffs: [String] = [], same = 0
        for job in jobs {
            let context = r.context(job)
            for name in templates(job) {
                let old = reference.render(name, context)
                let new = r.templates.render(name, context)
                if old == new { same += 1; continue }
                let at = zip(old.utf8, new.utf8).prefix { $0 == $1 }.count
                if diffs.count < 5 {
                    diffs.append("\(name) for \(r.source(of: job)) differs at byte \(at): swift-mustache …\(old.utf8.dropFirst(max(0, at - 40)).prefix(120).map { Character(Unicode.Scalar($0)) }) vs compiled …\(new.utf8.dropFirst(max(0, at - 40)).prefix(120).map { Character(Unicode.Scalar($0)) })")
                }
            }
        }
        return (diffs, same)
    }

    @Test func everyExamplePageRendersTheSameBytes() throws {
        let r = try Self.renderer(Fixture.repository)
        let jobs = r.jobs()
        let (diffs, same) = try Self.compare(r, jobs: jobs) { [r.template(of: $0)] }
        #expect(diffs.isEmpty, "\(diffs.joined(separator: "\n"))")
        #expect(same == jobs.count && same > 100)
    }

    /// Every template the example site can use (its own and the built-in theme) over a context
    /// of each kind of page: names a template does not expect render as missing in both.
    @Test func everyTemplateOverEveryPageKindRendersTheSameBytes() throws {
        let r = try Self.renderer(Fixture.repository)
        var firstOfKind: [String: PageRenderer.Job] = [:]
        for job in r.jobs() {
            let kind = "\(job)".prefix { $0 != "(" }
            if firstOfKind[String(kind)] == nil { firstOfKind[String(kind)] = job }
        }
        let names = r.templates.compiled.index.keys.sorted()
        #expect(names.count >= 25)
        let (diffs, same) = try Self.compare(r, jobs: firstOfKind.values.sorted { "\($0)" < "\($1)" }) { _ in names }
        #expect(diffs.isEmpty, "\(diffs.joined(separator: "\n"))")
        #expect(same == names.count * firstOfKind.count && firstOfKind.count >= 7)
    }
}
