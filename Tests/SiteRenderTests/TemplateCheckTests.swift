import Foundation
import Testing
import SiteCore
@testable import SiteRender

@Suite struct TemplateCheckTests {
    func library(_ files: [String: String]) throws(Diagnostics) -> TemplateLibrary {
        try templateLibrary(files)
    }

    let known: Set<String> = ["site", "title", "items", "name"]

    @Test func transformsAreCheckedByTheNameTheyRead() throws {
        let lib = try library([
            "page":
                "{{^empty(items)}}<ul>{{#items}}{{name}}{{/items}}</ul>{{/empty(items)}}{{#first(things)}}x{{/first(things)}}"
        ])
        let problems = lib.check(using: ["page"], knownNames: known).map(\.description)
        #expect(
            problems == [
                "templates/page.mustache:1:72: error: unknown name 'things': no page, item or note provides it"
            ], "\(problems)")
    }

    @Test func missingPartialIsAnErrorAtItsTag() throws {
        let lib = try library(["page": "<p>{{title}}</p>\n  {{>nav}}"])
        #expect(
            lib.check(using: ["page"], knownNames: known).map(\.description) == [
                "templates/page.mustache:2:3: error: partial 'nav' not found (looked for templates/nav.mustache and the built-in theme)"
            ])
    }

    @Test func cyclicPartialsAreAnError() throws {
        let lib = try library(["a": "{{>b}}", "b": "x {{>c}}", "c": "{{>a}}"])
        let errors = lib.check(using: ["a"], knownNames: known).map(\.description)
        #expect(errors == ["templates/c.mustache:1:1: error: templates include each other in a cycle: a → b → c → a"])
    }

    @Test func sharedPartialsAreNotACycle() throws {
        let lib = try library(["a": "{{>b}}{{>c}}", "b": "{{>d}}", "c": "{{>d}}", "d": "{{title}}"])
        #expect(lib.check(using: ["a", "b"], knownNames: known).isEmpty)
    }

    @Test func positionsAfterAMultiLineTag() throws {
        let lib = try library(["page": "{{! a comment\n over lines }}{{nope}}"])
        #expect(
            lib.check(using: ["page"], knownNames: known).map(\.description) == [
                "templates/page.mustache:2:15: error: unknown name 'nope': no page, item or note provides it"
            ])
    }

    @Test func unknownNamesAreErrors() throws {
        let lib = try library(["page": "{{#items}}\n<li>{{nmae}}</li>{{/items}} {{{site.title}}}"])
        #expect(
            lib.check(using: ["page"], knownNames: known).map(\.description) == [
                "templates/page.mustache:2:5: error: unknown name 'nmae': no page, item or note provides it"
            ])
    }

    @Test func syntaxErrorsHaveLineAndColumn() {
        #expect(throws: Diagnostics.self) { try library(["page": "ok\n{{#items}}unclosed"]) }
        do {
            _ = try library(["page": "ok\n{{#items}}unclosed"])
        } catch {
            #expect(error.items.count == 1)
            #expect(error.items[0].description.hasPrefix("templates/page.mustache:2:"))
            #expect(error.items[0].message == "template syntax error: {{#items}} is never closed (missing {{/items}})")
        }
    }

    @Test func mismatchedSectionsNameBothTags() {
        do {
            _ = try library(["page": "<p>\n{{#item.cover}}<img src=\"{{src}}\">{{/item.covers}}\n"])
            Issue.record("no error")
        } catch {
            #expect(
                error.items.map(\.description) == [
                    "templates/page.mustache:2:35: error: template syntax error: {{/item.covers}} does not match {{#item.cover}} opened at 2:1"
                ])
        }
    }

    @Test func missingTemplateNamedByTheConfiguration() throws {
        let lib = try library([:])
        #expect(
            lib.check(using: ["gallery"], knownNames: known).map(\.description) == [
                "site.yml: error: template 'gallery' not found (looked for templates/gallery.mustache and the built-in theme)"
            ])
    }

    @Test func userTemplateOverridesTheBuiltInOne() throws {
        let lib = try library(["card": "<b>{{name}}</b>"])
        #expect(lib.origins["card"] == "templates/card.mustache")
        #expect(lib.render("card", ["name": "<luffy>"]) == "<b>&lt;luffy&gt;</b>")
    }
}
