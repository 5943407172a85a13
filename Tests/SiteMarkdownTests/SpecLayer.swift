import Foundation
@testable import SiteMarkdown

/// sitegen's Markdown layer (cmark-gfm, then the HTML pass with nothing removed) as the spec
/// tests run it, without what sitegen adds (heading ids and self-links; code blocks in cmark's
/// own markup), and both sides' HTML normalised by the same HTML5 parse and serialisation.
enum SpecLayer {
    struct CmarkCodeBlocks: CodeBlockFormatter {
        func html(for block: FencedCode) -> String {
            let word = block.info.split(separator: " ", maxSplits: 1).first
            return "<pre><code" + (word.map { " class=\"language-\(HTMLText.escape($0))\"" } ?? "") + ">"
                + HTMLText.escape(block.code) + "</code></pre>"
        }
    }

    /// Every GFM extension on, and the tag filter.
    static let gfm = MarkdownOptions()

    /// CommonMark alone: every extension off.
    static let commonMark: MarkdownOptions = {
        var o = MarkdownOptions()
        o.tables = false; o.strikethrough = false; o.autolinks = false; o.taskLists = false; o.footnotes = false;
        o.tagfilter = false
        return o
    }()

    static func render(_ markdown: String, options: MarkdownOptions) -> String {
        let marked = Cmark.render(markdown, options: options, removeRawHTML: false, tagfilter: options.tagfilter)
        let settings = HTMLRewriter.Settings(
            trusted: true, rootPath: "/", idPrefix: "", prefixHeadings: false, reservedIDs: [],
            labels: MarkdownLabels(), codeBlocks: CmarkCodeBlocks(), decorateHeadings: false)
        // The task boxes' accessible name is sitegen's own (cmark-gfm's have none).
        let html = ((try? HTMLRewriter.pass(marked, settings: settings))?.html ?? "(nested too deep)")
            .replacingOccurrences(of: " aria-label=\"\(MarkdownLabels().task)\">", with: ">")
        return HTMLRewriter.normalise(html)
    }

    /// Parsed and serialised twice, as `render`'s HTML is (its own pass, then `normalise`): a
    /// second round is not always the first's (the parser reconstructs a misnested `<a>` again).
    static func normalise(_ html: String) -> String { HTMLRewriter.normalise(HTMLRewriter.normalise(html)) }

    /// Only the extension an example names (as cmark-gfm's spec runner runs the GFM spec).
    static func options(for example: SpecExample) -> MarkdownOptions {
        var o = commonMark
        switch example.extensionName {
        case "table": o.tables = true
        case "strikethrough": o.strikethrough = true
        case "autolink": o.autolinks = true
        case "tagfilter": o.tagfilter = true
        // The GFM spec's two task list examples say `example disabled`: cmark-gfm's runner skips
        // them (0.29.0.gfm.6 writes `<input … />`); here they run, with task lists on.
        case "tasklist", "disabled": o.taskLists = true
        default: break
        }
        return o
    }

    /// The numbers of the examples whose output differs; `options` nil: each example's own.
    static func differing(_ examples: [SpecExample], options: MarkdownOptions?) -> [Int] {
        examples.filter { render($0.markdown, options: options ?? Self.options(for: $0)) != normalise($0.html) }.map(
            \.number)
    }

    /// The shared material's folder: `$SITEGEN_SHARED`; `shared/` beside the repository (or one
    /// level up); or where the mutation runner's copy of the tree is told the Mustache spec is
    /// (`$MUSTACHE_SPEC_DIR`, a folder of it), as that copy is not beside `shared/`.
    static var sharedFolders: [URL] {
        let env = ProcessInfo.processInfo.environment
        let root = CommonMarkSpecTests.root
        var out = [root.appendingPathComponent("../shared"), root.appendingPathComponent("../../shared")]
        if let s = env["SITEGEN_SHARED"] { out.insert(URL(fileURLWithPath: s), at: 0) }
        if let m = env["MUSTACHE_SPEC_DIR"] { out.append(URL(fileURLWithPath: m).deletingLastPathComponent()) }
        return out.map(\.standardizedFileURL)
    }

    /// The file `name` of the shared material.
    static func shared(_ name: String) -> String? {
        for base in sharedFolders {
            if let text = try? String(contentsOf: base.appendingPathComponent(name), encoding: .utf8) { return text }
        }
        return nil
    }
}

/// The `cmark-gfm` command (Debian package `cmark-gfm`, installed for the tests only).
enum CmarkGFMCommand {
    static let path = ["/usr/bin/cmark-gfm", "/usr/local/bin/cmark-gfm"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The command's HTML for `markdown` with `options`' extensions, raw HTML kept.
    static func render(_ markdown: String, options: MarkdownOptions) throws -> String {
        guard let path else { throw CocoaError(.fileNoSuchFile) }
        var arguments = ["--unsafe"]
        if options.tables { arguments += ["-e", "table"] }
        if options.strikethrough { arguments += ["-e", "strikethrough"] }
        if options.autolinks { arguments += ["-e", "autolink"] }
        if options.tagfilter { arguments += ["-e", "tagfilter"] }
        if options.taskLists { arguments += ["-e", "tasklist"] }
        if options.footnotes { arguments += ["-e", "footnotes"] }
        if options.smart { arguments.append("--smart") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Written from another thread: a large document would fill the pipe both ways.
        let data = Data(markdown.utf8)
        let writer = Thread {
            input.fileHandleForWriting.write(data); try? input.fileHandleForWriting.close()
        }
        writer.start()
        let html = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: html, as: UTF8.self)
    }
}
