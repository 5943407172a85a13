import SiteCore
import Testing
@testable import SiteRender

/// Values printed where escaping does not make them text are template errors at their tag; every
/// place where it does (content, quoted values, comments, raw `{{{…}}}`) still builds.
@Suite struct HTMLContextTests {
    let known: Set<String> = ["title", "url", "x"]

    func problems(_ text: String) throws -> [String] {
        try templateLibrary(["page": text]).check(using: ["page"], knownNames: known).map(\.description)
    }

    func places(_ text: String) throws -> [HTMLContexts.Unsafe] {
        let tags = TagLog.tags(of: text).tags
        return HTMLContexts.unsafeVariables(in: text, tags: tags).map(\.place)
    }

    @Test func unquotedValuesAreErrorsWithTheQuotedForm() throws {
        #expect(
            try problems("<p>\n<div class={{title}}>") == [
                "templates/page.mustache:2:12: error: {{title}} is the unquoted value of 'class': a value with a "
                    + "space would add attributes; quote it: class=\"{{title}}\""
            ])
        #expect(try places("<div class=a{{x}}b>") == [.unquotedValue(attribute: "class")])
        #expect(try places("<div class = {{x}}>") == [.unquotedValue(attribute: "class")])
        #expect(try places("<div CLASS=\n{{x}} id=1>") == [.unquotedValue(attribute: "class")])
        // A value printed after `=` is the value: what follows a space is the next attribute.
        #expect(try places("<a href={{x}} title=\"{{x}}\">") == [.unquotedValue(attribute: "href")])
        // Quoted values end at their quote; comments end at `-->`, not at the first `>`.
        #expect(try places("<div title=\"{{x}}\" class={{x}}>") == [.unquotedValue(attribute: "class")])
        #expect(try places("<div title='{{x}}' class={{x}}>") == [.unquotedValue(attribute: "class")])
        #expect(try places("<!-- a > <p class=x --><p class={{x}}>") == [.unquotedValue(attribute: "class")])
        // A comment a value could end early (`--` then the template's `>`); a bogus one it cannot.
        #expect(try places("<!-- {{x}}> --><!doctype {{x}}><? {{x}} ?>") == [.comment])
        #expect(try places("<!-- a > {{x}} -->") == [.comment])
    }

    @Test func quotedValuesAndContentAreSafe() throws {
        let safe = """
            <!doctype html><title>{{title}}</title><p class="a {{x}}" title='{{title}}'>{{x}}</p>
            <!-- a comment --><a href="{{url}}" data-x="{{x}}">{{title}}</a><textarea>{{x}}</textarea>
            <input value="{{x}}" disabled><br/><img src="{{url}}" alt="{{title}}"/>{{x}} > {{x}}
            <div style="--h: {{x}}px">{{#x}}<b>{{x}}</b>{{/x}}</div><a href=/{{! a comment }}>x</a>
            """
        #expect(try places(safe) == [])
        #expect(try problems(safe) == [])
    }

    @Test func rawValuesAreTheTemplatesChoice() throws {
        #expect(try places("<div class={{{x}}} {{&x}}><script>{{{x}}}</script><style>{{&x}}</style>") == [])
    }

    @Test func attributeNamePositions() throws {
        #expect(try places("<input {{x}}>") == [.attributeName])
        #expect(try places("<div data-{{x}}=\"1\">") == [.attributeName])
        #expect(try places("<div id=\"a\"{{x}}>") == [.attributeName])
        #expect(try places("<h{{x}}>") == [.attributeName])
    }

    @Test func scriptAndStyleTextIsAnError() throws {
        #expect(try places("<script>var t = \"{{x}}\";</script>{{x}}") == [.rawText(element: "script")])
        #expect(try places("<STYLE type=text/css>a{color:{{x}}}</STYLE><p>{{x}}") == [.rawText(element: "style")])
        // Until the element's own end tag: `</scripts>` and `</p>` do not end it.
        #expect(try places("<script>a</scripts></p>{{x}}</script >{{x}}") == [.rawText(element: "script")])
        #expect(
            try problems("<script>\n  let t = {{title}};\n</script>") == [
                "templates/page.mustache:2:11: error: {{title}} is printed inside <script>, whose text the browser "
                    + "runs as script whatever its escaping: hand data to scripts as a JSON file, or print trusted "
                    + "text raw with {{{title}}}"
            ])
    }

    @Test func eventHandlersAndSrcdocAreErrors() throws {
        #expect(try places("<button onclick=\"go('{{x}}')\">") == [.eventHandler(attribute: "onclick")])
        #expect(try places("<img OnError='{{x}}'>") == [.eventHandler(attribute: "onerror")])
        #expect(try places("<iframe srcdoc=\"<p>{{x}}</p>\"></iframe>{{x}}") == [.srcdoc])
        #expect(
            try problems("<iframe srcdoc=\"{{title}}\">") == [
                "templates/page.mustache:1:17: error: {{title}} is printed in 'srcdoc', whose value the browser "
                    + "decodes and renders as a page, scripts included: give the frame a src instead"
            ])
        // An attribute merely named like one ("on" alone, "one") is not a handler.
        #expect(try places("<div on=\"{{x}}\" data-onclick=\"{{x}}\">") == [])
    }

    /// A template that changes its delimiters is not read (its tags are not `{{…}}`).
    @Test func changedDelimitersAreNotRead() throws {
        #expect(try places("{{=<% %>=}}<div class=<%x%>>") == [])
    }
}
