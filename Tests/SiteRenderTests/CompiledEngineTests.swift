import Foundation
import MustacheReference
import SiteCore
import Testing
@testable import SiteRender

/// Small templates on the corners of swift-mustache's behaviour that sitegen templates may rely
/// on (transforms, list positions, lookup through the stack, null, functions, content types,
/// whitespace), each rendered by swift-mustache and by the compiled engine: the same bytes.
@Suite struct CompiledEngineTests {
    static var context: [String: Any] {
        [
            "name": "Luffy", "empty": "", "zero": 0, "n": 7, "yes": true, "no": false, "url": "javascript:alert(1)",
            "tags": ["b", "c", "a"], "mixed": ["x", 1, true] as [Any], "none": [String](),
            "items": [["title": "A", "n": 1], ["title": "B<", "n": 2, "extra": ["deep": "D"]], ["title": "C", "n": 3]]
                as [[String: Any]],
            "meta": ["zeta": 1, "alpha": "two", "mid": true] as [String: Any],
            "nested": ["inner": ["value": "V"], "name": "N"] as [String: Any],
            "big": Dictionary(uniqueKeysWithValues: (0..<20).map { ("k\($0)", $0) }),
            "nothing": NSNull(), "shadow": ["name": NSNull()] as [String: Any],
            "site": ["asset": TemplateLibrary.function { "/assets/" + $0.uppercased() }, "title": "T"] as [String: Any]
        ]
    }

    static let templates: [String] = [
        "{{name}} {{&name}} {{{name}}} {{missing}}|{{zero}}{{n}}{{yes}}{{no}}",
        "{{#empty}}[empty string is truthy]{{/empty}}{{^empty}}no{{/empty}}{{#zero}}[zero is truthy: {{.}}]{{/zero}}",
        "{{#none}}x{{/none}}{{^none}}[empty list: {{.}}]{{/none}}{{^missing}}[missing]{{/missing}}{{#no}}x{{/no}}{{^no}}[false]{{/no}}",
        "{{#items}}{{index()}}:{{title}}{{#first()}} first{{/first()}}{{#last()}} last{{/last()}}{{#even()}} even{{/even()}}{{^odd()}}!{{/odd()}};{{/items}}",
        "{{#items}}{{#yes}}{{index()}}{{/yes}}{{#title}}({{index()}}){{/title}}{{/items}}",
        "{{#items}}{{plusone(index())}}{{#equalzero(index())}}z{{/equalzero(index())}} {{/items}}",
        "{{#first(items)}}{{title}}{{/first(items)}} {{#last(items)}}{{title}}{{/last(items)}} {{count(items)}} {{#reversed(items)}}{{title}}{{/reversed(items)}}",
        "{{#sorted(tags)}}{{.}}{{/sorted(tags)}} {{#sorted(mixed)}}{{.}}{{/sorted(mixed)}} {{tags}} {{mixed}} {{count(tags)}}",
        "{{#sorted(meta)}}{{key}}={{value}};{{/sorted(meta)}} {{count(meta)}} {{#empty(meta)}}e{{/empty(meta)}}",
        "{{uppercased(name)}} {{lowercased(name)}} {{reversed(name)}} {{capitalized(name)}} {{#empty(empty)}}E{{/empty(empty)}} {{uppercased(reversed(name))}}",
        "{{plusone(n)}} {{minusone(n)}} {{#odd(n)}}odd{{/odd(n)}} {{#even(n)}}even{{/even(n)}} {{nope(n)}}|{{first(name)}}",
        "{{#nested}}{{name}} {{inner.value}} {{#inner}}{{value}} {{name}} {{.value}} {{.name}}{{/inner}}{{/nested}} {{nested.inner.value}} {{nested.x.value}}",
        "{{#items}}{{extra.deep}}|{{n}}|{{name}}{{/items}}",
        "{{big.k0}} {{big.k7}} {{big.k8}} {{big.k13}} {{big.k19}} {{big.k20}}",
        "{{nothing}}[{{#nothing}}x{{/nothing}}{{^nothing}}null{{/nothing}}]{{#shadow}}[{{name}}]{{/shadow}}",
        "<a href=\"{{url}}\">{{url}}</a><img src={{url}}><a href='{{{url}}}'>",
        "<link href=\"{{#site.asset}} photos.css {{/site.asset}}\">{{#items}}{{#site.asset}}{{title}}{{/site.asset}}{{/items}}",
        "{{#site}}{{title}}{{/site}} {{site.title}} {{#site.title}}{{.}}{{/site.title}}",
        "{{% CONTENT_TYPE: TEXT }}{{tags}}{{#items}}{{title}}{{/items}}{{mixed}}",
        "{{% CONTENT_TYPE: HTML }}<a href=\"{{url}}\">{{#items}}{{title}}{{/items}}</a>",
        "  {{#items}}\n  {{title}}\n  {{/items}}\n  {{! comment }}  \nend {{! c }} \n   ",
        "\r\n{{#yes}}\r\nA\r\n{{/yes}}\r\n  {{=<% %>=}}  \r\n<% name %>{{name}}<%={{ }}=%>{{name}}\n",
        "{{ name }}{{# yes }}Y{{/ yes }}{{#tags}}{{ . }}{{/tags}}{{#mixed}}{{.}}{{/mixed}}"
    ]

    @Test(arguments: Array(templates.indices))
    func sameBytesAsSwiftMustache(_ k: Int) throws {
        let texts = ["t": Self.templates[k]]
        let reference = try SwiftMustacheReference(texts)
        let compiled = try CompiledTemplates(texts)
        let expected = reference.render("t", Self.context)
        #expect(compiled.render("t", Self.context) == expected, "template: \(Self.templates[k])")
    }

    @Test func partialsAndInheritanceAsSwiftMustache() throws {
        let texts = [
            "page":
                "<body>\n  {{>row}}\n{{<frame}}\n  {{$title}}Page {{name}}{{/title}}\n{{/frame}}\n{{<frame}}{{/frame}}|{{>missing}}|\n",
            // Ends with a tag that prints nothing: no indentation is left after the last line.
            "row": "{{#items}}\n<li>{{title}}</li>\n{{/items}}\n{{missing}}",
            "frame": "<h1>{{$title}}Default{{/title}}</h1>\n  {{$body}}\n  body {{n}}\n  {{/body}}\n{{>row}}"
        ]
        let reference = try SwiftMustacheReference(texts)
        let compiled = try CompiledTemplates(texts)
        #expect(compiled.render("page", Self.context) == reference.render("page", Self.context))
        // swift-mustache indents a partial's lines per operation of the partial: a list section is
        // one, so only its first line is indented (kept, for the same bytes); and nothing is
        // indented before a tag that prints nothing, at the end.
        let page = compiled.render("page", Self.context) ?? ""
        #expect(page.hasPrefix("<body>\n  <li>A</li>\n<li>B&lt;</li>\n<li>C</li>\n<h1>"), "\(page.debugDescription)")
    }

    /// Syntax errors are reported where swift-mustache reported them (the section-mismatch scan,
    /// which names both tags, comes first in both).
    @Test(arguments: [
        "line 1\nline 2 {{oops\nline 3\n", "a {{#x}}b", "{{#x}}{{/y}}", "{{/x}}", "x {{!  comment", "{{=<% =}}",
        "{{{name}}", "{{{name", "{{name", "a {", "{{#first(x)}}{{/x}}", "{{x(}}", "{{a(b))}}",
        "{{% CONTENT_TYPE: NOPE }}",
        "{{<p}}{{x}}{{/p}}", "{{<p}}{{$a(b)}}{{/a(b)}}{{/p}}", "é {{ 한국 }}", "{{#a}}\r\n{{/a}}\r\n{{b", "{{>}} {{a b}}",
        "{{= | | =}}|x|", "{{=<% %>=}}<%#a%><%/b%>", "{{=<% %>=}}<%!x"
    ])
    func syntaxErrorsAsSwiftMustache(_ text: String) throws {
        var expected: String?
        do { _ = try SwiftMustacheReference(["t": text]) } catch {
            if let m = SectionMismatch.find(in: text) {
                expected = "templates/t.mustache:\(m.line):\(m.column): error: template syntax error: \(m.message)"
            } else {
                expected =
                    "templates/t.mustache:\(error.line):\(error.column): error: template syntax error: \(error.message)"
            }
        }
        var actual: String?
        do { _ = try templateLibrary(["t": text]) } catch {
            actual = error.items.map(\.description).joined(separator: "\n")
        }
        #expect(actual == expected, "template: \(text)")
        #expect(
            expected != nil || ["é {{ 한국 }}", "{{>}} {{a b}}", "{{= | | =}}|x|"].contains(text),
            "the case is an error: \(text)")
    }

    /// A function's section text reaches it trimmed, and what it returns is read as a template
    /// (its names, if the library's templates use them too, are looked up).
    @Test func functionsGetTheirTextAndTheirResultIsATemplate() throws {
        let texts = ["t": "{{#f}}  a {{name}} \n{{/f}}|{{#g}}x{{/g}}|{{f}}|{{{f}}}"]
        let compiled = try CompiledTemplates(texts)
        let context: [String: Any] = [
            "name": "N", "f": TemplateLibrary.function { "<\($0)>" }, "g": TemplateLibrary.function { _ in "{{name}}!" }
        ]
        #expect(compiled.render("t", context) == "<a N>|N!|&lt;&gt;|<>")
        #expect(try SwiftMustacheReference(texts).render("t", context) == "<a N>|N!|&lt;&gt;|<>")
    }

    /// A function's plain result (a URL) skips the parser; what the parser would change does not.
    /// (A name in a function's result is found only if the library's templates use it too:
    /// records keep only the names templates use. Here `{{^name}}` names it.)
    @Test(arguments: ["/assets/a.css", "   ", "  a b  ", "a\n   ", "x{{name}}", "{", "\ta", "é", "a}}b", "", "<%name%>"]
    )
    func functionResultsAsSwiftMustache(_ result: String) throws {
        let texts = [
            "t": "[{{#f}}x{{/f}}]{{#list}}({{#f}}x{{/f}}){{/list}}{{^none}}{{#f}}x{{/f}}{{/none}}{{^name}}-{{/name}}"
        ]
        let context: [String: Any] = [
            "name": "N", "list": [1, 2], "none": [Int](), "f": TemplateLibrary.function { _ in result }
        ]
        let compiled = try CompiledTemplates(texts)
        #expect(compiled.render("t", context) == (try SwiftMustacheReference(texts)).render("t", context))
        #expect(
            (MustacheRenderer.plainLine(result) != nil)
                == ["/assets/a.css", "  a b  ", "a}}b", "<%name%>"].contains(result))
    }

    /// `plusone` and `minusone` at Int's ends give the nearest Double, not a trap.
    @Test func plusoneAndMinusoneAtIntsEnds() throws {
        let compiled = try CompiledTemplates(["t": "{{plusone(a)}} {{minusone(b)}} {{plusone(c)}} {{minusone(c)}}"])
        #expect(
            compiled.render("t", ["a": Int.max, "b": Int.min, "c": 7])
                == "9.223372036854776e+18 -9.223372036854776e+18 8 6")
    }

    /// An object printed as text: swift-mustache printed Swift's description of the dictionary,
    /// its keys in hash order (which changes from run to run); the compiled engine prints `[:]`.
    @Test func anObjectPrintedAsTextIsNotItsKeys() throws {
        let compiled = try CompiledTemplates(["t": "{{meta}}|{{#items}}{{.}}{{/items}}"])
        #expect(compiled.render("t", Self.context) == "[:]|[:][:][:]")
    }
}

/// Random templates over a small alphabet of Mustache's characters, compiled by both engines: the
/// same error at the same place, or the same bytes.
@Suite struct CompiledEngineRandomTests {
    static let pieces = [
        "{{", "}}", "{", "}", "#", "^", "/", "!", "&", ">", "<", "$", "=", "%", ".", "(", ")", "*",
        "a", "b", "p", "first", " ", "\n", "\r\n", "\t", "x", "{{#a}}", "{{/a}}", "{{b}}", "{{>p}}",
        "{{<p}}", "{{/p}}", "{{$b}}", "{{/b}}", "{{=<% %>=}}", "<%", "%>", "é", "한"
    ]
    static var context: [String: Any] { ["a": [["b": "1"], ["b": "<2>"]] as [[String: Any]], "b": "B&", "p": true] }

    @Test(arguments: [false, true])
    func randomTemplatesAsSwiftMustache(anyCharacters: Bool) throws {
        var rng = SplitMix64(seed: anyCharacters ? 21 : 18)
        var compared = 0, errors = 0
        // Any character: mostly ASCII, some line breaks and spaces of every kind, some multibyte.
        let scalars: [UInt32] =
            Array(0x09...0x0D) + Array(0x20...0x7E) + [0x85, 0xA0, 0xE9, 0x2028, 0x2029, 0x3000, 0xD55C, 0x1F600]
        for _ in 0..<3000 {
            let count = 1 + Int(rng.next() % 12)
            let text =
                anyCharacters
                ? String(
                    String.UnicodeScalarView(
                        (0..<count * 3).map { _ in Unicode.Scalar(scalars[Int(rng.next() % UInt64(scalars.count))])! }))
                : (0..<count).map { _ in Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))] }.joined()
            let texts = ["t": text, "p": "P{{$b}}d{{/b}}\n{{b}}"]
            let reference: SwiftMustacheReference
            do { reference = try SwiftMustacheReference(texts) } catch {
                var located: MustacheSyntaxError?
                do { _ = try CompiledTemplates(texts) } catch { located = error.items.first }
                #expect(
                    located.map { [$0.line, $0.column] } == [error.line, error.column]
                        && located?.message == error.message,
                    "template \(text.debugDescription): swift-mustache \(error), compiled \(String(describing: located))"
                )
                errors += 1
                continue
            }
            let expected = reference.render("t", Self.context)
            // A record printed as text (`{{.}}` at the top): Swift's description in hash order,
            // the one deliberate difference (see `anObjectPrintedAsTextIsNotItsKeys`).
            if expected.contains("[&quot;") || expected.contains("[\"") { continue }
            let compiled = try? CompiledTemplates(texts)
            #expect(compiled?.render("t", Self.context) == expected, "template \(text.debugDescription)")
            compared += 1
        }
        #expect(compared > 500 && errors > (anyCharacters ? 20 : 500))
    }
}
