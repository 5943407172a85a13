import SiteCore
import Testing
@testable import SiteRender

/// The tag scan behind the checks' messages: the names it reads out of tags, the positions it
/// reports, and the sections it finds closed by the wrong tag or never closed.
@Suite struct TemplateScanTests {
    let known: Set<String> = ["title", "items", "name"]

    func problems(_ text: String) throws -> [String] {
        try templateLibrary(["page": text]).check(using: ["page"], knownNames: known).map(\.description)
    }

    func syntaxError(_ text: String) -> String? {
        do {
            _ = try templateLibrary(["page": text])
            return nil
        } catch {
            return error.items.first?.description
        }
    }

    @Test func namesOutOfAmpersandsAndNestedTransforms() throws {
        #expect(
            try problems("{{& title}}{{&nmae}}") == [
                "templates/page.mustache:1:12: error: unknown name 'nmae': no page, item or note provides it"
            ])
        #expect(
            try problems("{{#first(reversed(items))}}x{{/first(reversed(items))}}{{count(reversed(thing))}}") == [
                "templates/page.mustache:1:56: error: unknown name 'thing': no page, item or note provides it"
            ])
    }

    @Test func columnsCountCharactersNotBytes() throws {
        #expect(
            try problems("<p>\nété → {{nope}}") == [
                "templates/page.mustache:2:7: error: unknown name 'nope': no page, item or note provides it"
            ])
    }

    @Test func mismatchesNameTheOpeningTagWithItsSigil() {
        #expect(
            syntaxError("{{^items}}x{{/item}}")
                == "templates/page.mustache:1:12: error: template syntax error: {{/item}} does not match {{^items}} opened at 1:1"
        )
        #expect(
            syntaxError("{{<frame}}{{$b}}x{{/b}}")
                == "templates/page.mustache:1:1: error: template syntax error: {{<frame}} is never closed (missing {{/frame}})"
        )
    }

    @Test func theInnermostUnclosedSectionIsReported() {
        #expect(
            syntaxError("{{#items}}\n{{#name}}x")
                == "templates/page.mustache:2:1: error: template syntax error: {{#name}} is never closed (missing {{/name}})"
        )
    }

    /// A section opened before an error that stops the parser is not "never closed": the
    /// parser's own message is given, where it stopped.
    @Test func anErrorInsideASectionIsNotAMismatch() {
        #expect(
            syntaxError("{{#items}}{{bad name}}{{/items}}")
                == "templates/page.mustache:1:17: error: template syntax error: a tag is not closed with }}")
    }

    /// Past a set-delimiter tag, where the messages' `{{ }}` would misquote the tags, a closing
    /// tag that does not match is reported with the parser's own message.
    @Test func mismatchesPastNewDelimitersAreTheParsersMessage() {
        #expect(
            syntaxError("{{=<% %>=}}<%#a%><%/b%>") == "templates/page.mustache:1:21: error: template syntax error: "
                + "a closing tag does not match the open section")
    }

    /// Pragmas and comments name nothing; past a set-delimiter tag, `{{…}}` is text.
    @Test func pragmasCommentsAndNewDelimitersNameNothing() throws {
        #expect(try problems("{{% CONTENT_TYPE: TEXT }}{{! see title }}{{title}}").isEmpty)
        #expect(try problems("{{title}}{{=<% %>=}}<% name %> {{nmae}}").isEmpty)
    }
}
