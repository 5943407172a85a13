// Markdown with raw HTML through cmark-gfm and the allowlist (gumbo): must never crash or hang,
// and what comes out must be HTML that parses back to itself: sanitised again, nothing is removed
// or changed (markup that parses otherwise the second time is how mutation XSS works).
import Foundation

let options: MarkdownOptions = {
    var o = MarkdownOptions()
    o.tagfilter = false  // the sanitiser alone meets <script>, <style>, <xmp> …
    o.footnotes = false  // footnotes, task boxes, heading anchors and code block classes are
    o.taskLists = false  // sitegen's markup outside the allowlist: a second pass would remove
    return o             // them. Without them the pass adds nothing the allowlist refuses.
}()

struct BareCodeBlocks: CodeBlockFormatter {
    func html(for block: FencedCode) -> String { "<pre><code>" + HTMLText.escape(block.code) + "</code></pre>" }
}

let once = HTMLRewriter.Settings(trusted: false, rootPath: "/", idPrefix: "", prefixHeadings: false, reservedIDs: [],
                                 labels: MarkdownLabels(), codeBlocks: BareCodeBlocks(), decorateHeadings: false)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let text = String(validating: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self) else { return 0 }
    let out = HTMLRewriter.rewrite(Cmark.render(text, options: options, removeRawHTML: false, tagfilter: false), settings: once).html
    let second = HTMLRewriter.rewrite(MarkedHTML(html: out, marker: "sitegen-m0"), settings: once)
    if !second.removed.isEmpty || second.html != out {
        fatalError("not the same under a second pass: removed \(second.removed)\nfirst:  \(out)\nsecond: \(second.html)")
    }
    return 0
}
