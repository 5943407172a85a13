import CGumbo
import SiteCore
import Testing
@testable import SiteRender

/// Random templates of HTML pieces around `{{x}}`, each rendered with a hostile `x` and with a
/// plain one, both parsed by gumbo (an HTML5 parser). A template the context check lets through must
/// give the same elements with the same attribute names, and the same text in every place a browser
/// runs or renders (`on…` handlers, `srcdoc`, `<script>`, `<style>`): there the value can only be
/// text. A template the check refuses is counted, so the test also shows the check refuses some.
@Suite struct HTMLContextRandomTests {
    static let pieces = [
        "<div", "<p", "<a", "<iframe", " class=", " title=", " srcdoc=", " onclick=", " href=", " data-", "on", "\"",
        "'", ">", "/", "=", " ", "\n", "a", "</div>", "<script>", "</script>", "<style>", "</style>", "<textarea>",
        "</textarea>", "<title>", "</title>", "<!--", "-->", "<!", "{{x}}", "{{x}}", "{{x}}", "{{{y}}}", "{{#s}}",
        "{{/s}}", "{{! c }}"
    ]
    static let hostile = "x autofocus onfocus=alert(1) \"'><script>alert(2)</script><b a='` =c --> <!--"

    @Test func checkedTemplatesPrintValuesOnlyAsText() throws {
        var rng = SplitMix64(seed: 47)
        var passed = 0, refused = 0
        for _ in 0..<20_000 {
            let count = 1 + Int(rng.next() % 14)
            let text = (0..<count).map { _ in Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))] }.joined()
            guard let compiled = try? CompiledTemplates(["t": text]) else { continue }
            guard HTMLContexts.unsafeVariables(in: text, tags: TagLog.tags(of: text).tags).isEmpty else {
                refused += 1
                continue
            }
            // `y` is printed raw, plain text: markup in a raw value is the template's to answer for.
            let plain = compiled.render("t", ["x": "plain", "y": "y", "s": true]) ?? ""
            let bad = compiled.render("t", ["x": Self.hostile, "y": "y", "s": true]) ?? ""
            #expect(Self.shape(plain) == Self.shape(bad), "template: \(text)")
            passed += 1
        }
        #expect(passed > 5_000 && refused > 1_000, "\(passed) passed, \(refused) refused")
    }

    /// Each element of `html` parsed as a page: its name, its attributes' names, and the values of
    /// those a browser runs; the text of `script` and `style`.
    static func shape(_ html: String) -> [String] {
        var html = html
        return html.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars -> [String] in
                var options = kGumboDefaultOptions
                guard let output = gumbo_parse_with_options(&options, chars.baseAddress, chars.count) else { return [] }
                defer { gumbo_destroy_output(&options, output) }
                var out: [String] = []
                var stack = [output.pointee.root!]
                while let node = stack.popLast() {
                    switch node.pointee.type {
                    case GUMBO_NODE_ELEMENT, GUMBO_NODE_TEMPLATE:
                        let element = node.pointee.v.element
                        out.append(describe(element))
                        let children = element.children
                        for i in (0..<Int(children.length)).reversed() {
                            stack.append(children.data[i]!.assumingMemoryBound(to: GumboNode.self))
                        }
                    case GUMBO_NODE_TEXT, GUMBO_NODE_CDATA, GUMBO_NODE_WHITESPACE:
                        let parent = node.pointee.parent.map {
                            String(cString: gumbo_normalized_tagname($0.pointee.v.element.tag))
                        }
                        if parent == "script" || parent == "style" {
                            out.append("text: " + String(cString: node.pointee.v.text.text))
                        }
                    default:
                        continue
                    }
                }
                return out
            }
        }
    }

    static func describe(_ element: GumboElement) -> String {
        var name = String(cString: gumbo_normalized_tagname(element.tag))
        if element.tag == GUMBO_TAG_UNKNOWN {
            var piece = element.original_tag
            gumbo_tag_from_original_text(&piece)
            name = String(decoding: UnsafeRawBufferPointer(start: piece.data, count: piece.length), as: UTF8.self)
        }
        var attributes: [String] = []
        for i in 0..<Int(element.attributes.length) {
            let a = element.attributes.data[i]!.assumingMemoryBound(to: GumboAttribute.self).pointee
            let attribute = String(cString: a.name)
            let runs = attribute == "srcdoc" || (attribute.hasPrefix("on") && attribute.count > 2)
            attributes.append(runs ? "\(attribute)=\(String(cString: a.value))" : attribute)
        }
        return "<\(name.lowercased()) \(attributes.sorted().joined(separator: " "))>"
    }
}
