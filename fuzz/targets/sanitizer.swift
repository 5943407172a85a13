// Markdown with raw HTML through cmark-gfm and the allowlist (gumbo): must never crash or hang,
// and what comes out must be safe as it is: sanitised again, nothing is removed or changed (a
// difference would be markup that parses otherwise the second time: mutation XSS).
import Foundation

let renderer: MarkdownRenderer = {
    var o = MarkdownOptions()
    o.tagfilter = false  // the sanitiser alone meets <script>, <style>, <xmp> …
    return MarkdownRenderer(options: o)
}()

let again = HTMLRewriter.Settings(trusted: false, rootPath: "/", idPrefix: "", prefixHeadings: false, reservedIDs: [],
                                  labels: MarkdownLabels(), codeBlocks: PlainCodeBlocks(), decorateHeadings: false)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let text = String(validating: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self) else { return 0 }
    let out = renderer.render(text, MarkdownRenderer.Context(idPrefix: "n-")).html
    let second = HTMLRewriter.rewrite(MarkedHTML(html: out, marker: "sitegen-m0"), settings: again)
    if !second.removed.isEmpty || second.html != out {
        fatalError("not stable under a second pass: removed \(second.removed)\nfirst:  \(out)\nsecond: \(second.html)")
    }
    return 0
}
