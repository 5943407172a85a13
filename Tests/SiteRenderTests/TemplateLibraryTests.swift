import Foundation
import SiteCore
import Testing
@testable import SiteRender

/// The library's loading (which files are read, what is an error), the scans that tell a build
/// what a template shows (`dataCollections`, `usesName`, `closure`) and the checks' messages.
@Suite struct TemplateLibraryTests {
    /// Loads `listed` from a folder holding `files` (relative path → bytes).
    func load(_ files: [String: [UInt8]], listed: [String]) throws(Diagnostics) -> TemplateLibrary {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-library-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (rel, bytes) in files {
            let url = dir.appendingPathComponent(rel)
            try? FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(bytes).write(to: url)
        }
        return try TemplateLibrary.load(directory: dir, files: listed, builtin: BuiltinTheme.partials)
    }

    func errors(_ files: [String: [UInt8]], listed: [String]) -> [String] {
        do {
            _ = try load(files, listed: listed)
            return []
        } catch {
            return error.items.map(\.description)
        }
    }

    @Test func onlyMustacheFilesAreTemplates() throws {
        let lib = try load(
            ["page.mustache": Array("P{{title}}".utf8), "notes.txt": [0xFF]],
            listed: ["page.mustache", "notes.txt", "assets/gone.css"])
        #expect(lib.origins["page"] == "templates/page.mustache")
        #expect(Set(lib.texts.keys) == Set(BuiltinTheme.partials.keys).union(["page"]))
    }

    @Test func unreadableAndNonUTF8TemplatesAreReportedTogether() {
        #expect(errors([:], listed: ["gone.mustache"]) == ["templates/gone.mustache: error: cannot read template"])
        #expect(
            errors(["bad.mustache": [0x61, 0xFF]], listed: ["bad.mustache"])
                == ["templates/bad.mustache: error: template is not valid UTF-8 text"])
        #expect(
            errors(["bad.mustache": [0xC3]], listed: ["gone.mustache", "bad.mustache"]) == [
                "templates/gone.mustache: error: cannot read template",
                "templates/bad.mustache: error: template is not valid UTF-8 text"
            ])
    }

    @Test func syntaxErrorsOfEveryTemplate() {
        let found = errors(
            ["a.mustache": Array("{{#x}}".utf8), "b.mustache": Array("{{{y}} z".utf8)],
            listed: ["a.mustache", "b.mustache"])
        #expect(found.count == 2, "\(found)")
        #expect(
            found.first?.hasPrefix("templates/a.mustache:1:1: error: template syntax error: {{#x}} is never closed")
                == true)
        #expect(found.last?.hasPrefix("templates/b.mustache:1:") == true)
    }

    @Test func dataCollectionsNamesWhatIsShown() throws {
        let lib = try templateLibrary([
            "page": "{{title}}{{#data.works}}{{name}}{{/data.works}} {{>row}}",
            "row": "{{data.people.0}}",
            "whole": "{{#data}}{{works}}{{/data}}",
            "delims": "{{data.works}}{{=<% %>=}}<% data.people %>"
        ])
        #expect(lib.dataCollections(of: "page") == ["works", "people"])
        #expect(lib.dataCollections(of: "whole") == nil)
        #expect(lib.dataCollections(of: "delims") == nil)
    }

    @Test func closureFollowsPartialsAndParents() throws {
        let lib = try templateLibrary([
            "child": "{{<frame}}{{$body}}x{{/body}}{{/frame}}",
            "frame": "<main>{{$body}}{{/body}}</main>{{>foot}}",
            "foot": "{{data.links}}"
        ])
        #expect(lib.closure(of: "child") == ["child", "foot", "frame"])
        #expect(lib.dataCollections(of: "child") == ["links"])
    }

    @Test func usesNameFindsAnyPartOfAnyTag() throws {
        let lib = try templateLibrary([
            "inverted": "{{^item.poster.detail}}none{{/item.poster.detail}}",
            "middle": "<img src=\"{{item.detail.src}}\">",
            "plain": "{{item.poster.src}} {{>middle}}",
            "other": "{{item.details}}"
        ])
        #expect(lib.usesName("detail", from: "inverted"))
        #expect(lib.usesName("detail", from: "middle"))
        #expect(lib.usesName("detail", from: "plain"))
        #expect(!lib.usesName("detail", from: "other"))
    }

    /// A name that lives under a record, written outside every section of a page's template,
    /// prints nothing: an error naming the records. Inside a section, a partial, a parent or a
    /// block (which renders where the parent puts it), it is not.
    @Test func aNameBelowTheTopLevelWrittenThereIsAnError() throws {
        let lib = try templateLibrary([
            "page": "{{#item}}{{slug}}{{/item}}{{^slug}}-{{/slug}}\n{{item.slug}}{{>part}}{{$b}}{{slug}}{{/b}}{{slug}}",
            "part": "{{slug}}",
            "child": "{{<page}}{{$b}}{{slug}}{{/b}}{{/page}}{{slug}}"
        ])
        let nested = { (name: String) in name == "slug" ? ["item", "prev"] : [] }
        let problems = lib.check(using: ["page", "child"], knows: { _ in true }, nestedIn: nested).map(\.description)
        let message = "error: unknown name 'slug' at the page's top level: `slug` is under `item`, `prev`: "
        #expect(
            problems == [
                "templates/page.mustache:1:27: \(message)`{{^item.slug}}`",
                "templates/page.mustache:2:43: \(message)`{{item.slug}}`",
                "templates/child.mustache:1:39: \(message)`{{item.slug}}`"
            ])
    }

    @Test func aPartialSharedByTwoPathsIsCheckedOnce() throws {
        let lib = try templateLibrary(["a": "{{>b}}{{>c}}", "b": "{{>d}}", "c": "{{>d}}", "d": "{{nmae}}"])
        #expect(
            lib.check(using: ["a"], knownNames: ["name"]).map(\.description) == [
                "templates/d.mustache:1:1: error: unknown name 'nmae': no page, item or note provides it"
            ])
    }

    @Test func anUnknownPartOfADottedNameIsNamed() throws {
        let lib = try templateLibrary(["page": "{{item.yaer}}"])
        #expect(
            lib.check(using: ["page"], knownNames: ["item"]).map(\.description) == [
                "templates/page.mustache:1:1: error: unknown name 'item.yaer': no page, item or note provides 'yaer'"
            ])
    }

    @Test func topLevelHintKeepsTheTagsSigil() throws {
        let lib = try templateLibrary([
            "page": "{{#item.prev}}a{{/item.prev}}{{^item.prev.title}}b{{/item.prev.title}}{{item.prev}}"
        ])
        let problems = lib.check(using: ["page"], knows: { _ in true }, topLevel: { $0.firstIndex(of: "prev") }).map(
            \.message)
        #expect(
            problems == [
                "unknown name 'item.prev': `prev` is top-level: `{{#prev}}`",
                "unknown name 'item.prev.title': `prev` is top-level: `{{^prev.title}}`",
                "unknown name 'item.prev': `prev` is top-level: `{{prev}}`"
            ])
    }

    @Test func topLevelHintOnlyForDottedNamesAndIndicesInside() throws {
        let lib = try templateLibrary(["page": "{{prev}}{{item.prev}}"])
        #expect(
            lib.check(using: ["page"], knows: { _ in true }, topLevel: { _ in 0 }).map(\.message) == [
                "unknown name 'item.prev': `item` is top-level: `{{item.prev}}`"
            ])
        #expect(lib.check(using: ["page"], knows: { _ in true }, topLevel: { $0.count }).isEmpty)
    }

    @Test func aHelperGetsTrimmedTextAndItsResultIsEscaped() throws {
        let lib = try templateLibrary(["page": "{{#asset}}  a.css \n{{/asset}}"])
        let helper = TemplateLibrary.helper { "[\($0)]<b>{{x}}</b>" }
        #expect(lib.render("page", ["asset": helper, "x": "X"]) == "[a.css]&lt;b&gt;{{x}}&lt;/b&gt;")
    }
}
