import Testing
@testable import SiteRender

/// The syntax errors of the tags that open and close parts of a program (the Mustache spec tests
/// only templates that compile).
@Suite struct MustacheParserTagsTests {
    /// The message of the error compiling `text`, nil when it compiles.
    func error(_ text: String) -> String? {
        do {
            _ = try CompiledTemplates(["t": text])
            return nil
        } catch {
            return error.items.first?.message
        }
    }

    @Test func aSectionClosesWithItsNameAndTransforms() {
        #expect(error("{{#first(items)}}x{{/first(items)}}") == nil)
        #expect(error("{{#first(items)}}x{{/items}}") == "a closing tag does not match the open section")
        #expect(error("{{#items}}x{{/item}}") == "a closing tag does not match the open section")
    }

    @Test func aTripleMustacheNeedsItsThirdBrace() {
        #expect(error("{{{name}}}") == nil)
        #expect(error("{{{name}} x") == "a tag is not closed with }}")
        #expect(error("a {{{name}}") == "the text ends inside a tag (missing }})")
    }

    @Test func aParentHoldsOnlyBlocks() {
        #expect(error("{{<frame}}text {{$b}}x{{/b}}{{/frame}}") == nil)
        #expect(
            error("{{<frame}}{{name}}{{/frame}}") == "only blocks ({{$name}}) may appear inside a parent ({{<name}})")
        #expect(
            error("{{<frame}}{{#s}}x{{/s}}{{/frame}}")
                == "only blocks ({{$name}}) may appear inside a parent ({{<name}})")
    }

    @Test func aBlockTakesNoTransform() {
        #expect(error("{{$first(x)}}a{{/first(x)}}") == "a transform cannot apply to an inheritance section")
    }

    @Test func aDynamicParentNamesTheValueHoldingIt() throws {
        let compiled = try CompiledTemplates([
            "t": "{{<*frame}}{{$b}}given{{/b}}{{/*frame}}", "wide": "[{{$b}}default{{/b}}]"
        ])
        #expect(compiled.render("t", ["frame": "wide"]) == "[given]")
    }
}
