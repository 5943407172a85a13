import Foundation
import MustacheReference
import SiteCore
import Testing
@testable import SiteBuild
@testable import SiteRender

/// sitegen's compiled Mustache engine renders the same bytes as swift-mustache, the engine it
/// replaces: every page of the example site and of the bench site with its own template, and
/// every template (built-in and the site's) with a context of each page kind.
@Suite struct CompiledTemplatesTests {
    /// The renderer of a site folder, as a build makes it, and one whose objects keep every
    /// entry's name (turned back into Swift values for swift-mustache).
    static func renderers(_ source: URL) throws -> (PageRenderer, plain: PageRenderer) {
        let options = BuildOptions(
            source: source, output: FileManager.default.temporaryDirectory.appendingPathComponent("unused"))
        let (config, content, templates) = try SiteInputs.loadConfiguration(options)
        let inputs = try SiteInputs.loadData(
            source: options.source, config: config, content: content, templates: templates, includeDrafts: false,
            threads: Parallelism.cores)
        let model = try SiteModel.make(inputs)
        let plan = SitePlan(model)
        return (PageRenderer(model: model, plan: plan), PageRenderer(model: model, plan: plan, sharesItemValues: false))
    }

    /// Renders `pages` with both engines; the differing pages (at most a few) and how many matched.
    static func compare(
        _ r: (PageRenderer, plain: PageRenderer), pages: [PlannedPage], templates: (PlannedPage) -> [String]
    ) throws -> (diffs: [String], same: Int) {
        let reference = try SwiftMustacheReference(r.plain.templates.texts)
        var diffs: [String] = [], same = 0
        for page in pages {
            let value = r.0.templateValue(page)
            let plain = try #require(r.plain.encoding.names.plain(r.plain.templateValue(page)) as? [String: Any])
            if case .item = page.id {
                #expect(
                    r.0.encoding.shared != nil && r.plain.encoding.shared == nil,
                    "the build shares converted items; swift-mustache gets them whole")
                #expect(plain["item"] is [String: Any])
            }
            for name in templates(page) {
                let old = reference.render(name, plain)
                let new = r.0.templates.compiled.render(name, value) ?? ""
                if old == new { same += 1; continue }
                let at = zip(old.utf8, new.utf8).prefix { $0 == $1 }.count
                if diffs.count < 5 {
                    diffs.append(
                        "\(name) for \(page.source) differs at byte \(at): swift-mustache …\(old.utf8.dropFirst(max(0, at - 40)).prefix(120).map { Character(Unicode.Scalar($0)) }) vs compiled …\(new.utf8.dropFirst(max(0, at - 40)).prefix(120).map { Character(Unicode.Scalar($0)) })"
                    )
                }
            }
        }
        return (diffs, same)
    }

    @Test func everyExamplePageRendersTheSameBytes() throws {
        let r = try Self.renderers(Fixture.repository)
        let pages = r.0.plan.pages
        let (diffs, same) = try Self.compare(r, pages: pages) { [$0.template] }
        #expect(diffs.isEmpty, "\(diffs.joined(separator: "\n"))")
        #expect(same == pages.count && same > 100)
    }

    /// Every template the example site can use (its own and the built-in theme) over a context
    /// of each kind of page: names a template does not expect render as missing in both.
    @Test func everyTemplateOverEveryPageKindRendersTheSameBytes() throws {
        let r = try Self.renderers(Fixture.repository)
        var firstOfKind: [String: PlannedPage] = [:]
        for page in r.0.plan.pages {
            let kind = "\(page.id)".prefix { $0 != "(" }
            if firstOfKind[String(kind)] == nil { firstOfKind[String(kind)] = page }
        }
        let names = r.0.templates.compiled.index.keys.sorted()
        #expect(names.count >= 25)
        let (diffs, same) = try Self.compare(r, pages: firstOfKind.values.sorted { "\($0.id)" < "\($1.id)" }) { _ in
            names
        }
        #expect(diffs.isEmpty, "\(diffs.joined(separator: "\n"))")
        #expect(same == names.count * firstOfKind.count && firstOfKind.count >= 7)
    }
}
