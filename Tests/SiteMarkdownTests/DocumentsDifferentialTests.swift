import Foundation
import Testing
@testable import SiteMarkdown

/// sitegen's Markdown layer against the `cmark-gfm` command (every GFM extension on) on every
/// Markdown file of the repository (notes, READMEs, docs), the seed READMEs and generated
/// documents, modulo what sitegen adds (SpecLayer: heading ids, code block markup, footnote ids).
@Suite struct DocumentsDifferentialTests {
    static func markdownFiles() -> [URL] {
        let root = CommonMarkSpecTests.root
        var files: [URL] = []
        let skip = [".build", ".git", ".build-fuzz", "node_modules"]
        if let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) {
            for case let url as URL in e {
                if skip.contains(url.lastPathComponent) { e.skipDescendants(); continue }
                if url.pathExtension == "md" { files.append(url) }
            }
        }
        let seeds =
            SpecLayer.sharedFolders.lazy.compactMap {
                try? FileManager.default.contentsOfDirectory(
                    at: $0.appendingPathComponent("seeds"), includingPropertiesForKeys: nil)
            }.first ?? []
        #expect(seeds.count == 5, "the five seed READMEs (shared/seeds)")
        files += seeds.filter { $0.pathExtension == "txt" }
        return files.sorted { $0.path < $1.path }
    }

    static func body(_ text: String) -> String {
        (try? FrontMatter.parse(text, file: "x.md").body) ?? text
    }

    static func compare(_ name: String, _ markdown: String) throws -> Bool {
        let ours = CmarkGFMDifferentialTests.footnotesAnonymised(SpecLayer.render(markdown, options: SpecLayer.gfm))
        let theirs = CmarkGFMDifferentialTests.footnotesAnonymised(
            SpecLayer.normalise(try CmarkGFMCommand.render(markdown, options: SpecLayer.gfm)))
        if ours != theirs { print("--- \(name)\n=> cmark-gfm\n\(theirs)\n=> sitegen\n\(ours)") }
        return ours == theirs
    }

    @Test func everyMarkdownFileOfTheRepositoryAndTheSeeds() throws {
        try #require(
            CmarkGFMCommand.path != nil, "the cmark-gfm command is missing (scripts/setup.sh test installs it)")
        let files = Self.markdownFiles()
        #expect(files.count > 40)
        var differing: [String] = []
        for file in files {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }  // a test's invalid UTF-8
            if try !Self.compare(file.lastPathComponent, Self.body(text)) { differing.append(file.path) }
        }
        #expect(differing == [])
    }

    /// Documents made of the spec examples' inputs, shuffled and joined (fixed seed): blocks meet
    /// blocks they never meet in the spec. Footnotes are left out: their markup is sitegen's own,
    /// written after parsing, so an author's unclosed `<a>` before a reference does not swallow it
    /// the way it swallows cmark-gfm's (the one way these documents differed).
    @Test func generatedDocuments() throws {
        try #require(
            CmarkGFMCommand.path != nil, "the cmark-gfm command is missing (scripts/setup.sh test installs it)")
        let pieces = (GFMSpecTests.examples("spec-0.29-gfm.txt") + GFMSpecTests.examples("extensions.txt")).map(
            \.markdown
        )
        .filter { !$0.contains("[^") }
        #expect(pieces.count > 600)
        var state: UInt64 = 32
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var differing = 0
        for n in 0..<60 {
            let document = (0..<12).map { _ in pieces[next() % pieces.count] }.joined(separator: n % 2 == 0 ? "\n" : "")
            if try !Self.compare("generated \(n)", document) { differing += 1 }
        }
        #expect(differing == 0)
    }
}
