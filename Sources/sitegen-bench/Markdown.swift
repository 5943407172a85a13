import Foundation
import SiteMarkdown

/// Notes rendered one after another on one thread (no highlighting): µs per note with raw HTML
/// kept as written (`trusted`), through the allowlist (the default) and removed (`none`); the
/// difference between the first two is what sanitising costs a note.
func markdown(folder: URL, rounds: Int) {
    let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
    let bodies = files.filter { $0.pathExtension == "md" }.sorted { $0.path < $1.path }.compactMap { url -> String? in
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        return (try? FrontMatter.parse(text, file: url.lastPathComponent))?.body ?? text
    }
    guard !bodies.isEmpty else {
        FileHandle.standardError.write(Data("no .md files in \(folder.path)\n".utf8))
        exit(66)
    }
    print("markdown: \(bodies.count) notes, \(bodies.reduce(0) { $0 + $1.utf8.count } / bodies.count) bytes on average")
    for mode in MarkdownOptions.HTMLMode.allCases {
        var options = MarkdownOptions()
        options.html = mode
        let renderer = MarkdownRenderer(options: options)
        var times: [Double] = []
        for _ in 0..<rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            for body in bodies { _ = try? renderer.render(body, MarkdownRenderer.Context(idPrefix: "n-")) }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3 / Double(bodies.count))
        }
        times.sort()
        print(
            String(
                format: "html: %-10@ median %7.1f µs a note   fastest %7.1f µs   (%d rounds)",
                mode.rawValue as NSString, times[times.count / 2], times[0], rounds))
    }
}
