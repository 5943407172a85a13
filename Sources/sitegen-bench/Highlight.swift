import CHighlightLoader
import Foundation
import SiteHighlight
import SiteMarkdown

/// sitegen's whole highlighting of one code block (`CodeHighlighter`: limits, definition, library,
/// HTML) against the library alone (`sghl_highlight`, a repository of its own) and plain code
/// blocks, on one thread, in alternating rounds (a noisy machine slows all three alike): what
/// sitegen adds to the library per block.
func highlight(file: URL, language: String, blocks: Int, rounds: Int) {
    guard let code = try? String(contentsOf: file, encoding: .utf8) else { print("cannot read \(file.path)"); exit(1) }
    let block = FencedCode(info: language, code: code)
    let highlighter = CodeHighlighter()
    _ = highlighter.html(for: block)  // opens the library, makes a repository, loads the definition
    var error = [CChar](repeating: 0, count: 1024)
    guard let repository = sghl_repository_new(&error, error.count) else { print("no repository"); exit(1) }
    var name = [CChar](repeating: 0, count: 256)
    guard sghl_definition(repository, language, &name, name.count) == 0 else { print("no definition"); exit(1) }
    let definition = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var bytes = Array(code.utf8)
    let modes: [(String, () -> Int)] = [
        ("plain", { PlainCodeBlocks().html(for: block).utf8.count }),
        (
            "library alone",
            {
                var count = 0
                _ = sghl_highlight(repository, definition, &bytes, bytes.count, &count)
                return count
            }
        ),
        ("highlighted", { highlighter.html(for: block).utf8.count })
    ]
    print("sitegen's highlighting, \(code.utf8.count) bytes of \(language), \(rounds) rounds of \(blocks) blocks each")
    var cpu = [[Double]](repeating: [], count: modes.count)
    var check = 0
    for _ in 0..<rounds {
        for (m, mode) in modes.enumerated() {
            let clock = CPUClock.now
            for _ in 0..<blocks { check &+= mode.1() }
            cpu[m].append((CPUClock.now - clock) * 1e6 / Double(blocks))
        }
    }
    var medians: [Double] = []
    for (m, mode) in modes.enumerated() {
        let sorted = cpu[m].sorted()
        medians.append(sorted[sorted.count / 2])
        print(
            String(
                format: "  %-14@ CPU %7.1f µs per block (median; fastest %.1f)", mode.0 as NSString,
                medians[m], sorted[0]))
    }
    print(
        String(
            format: "  sitegen's own (highlighted - library alone): %.1f µs per block (check %d)",
            medians[2] - medians[1], check))
}

/// The process's CPU time in seconds.
enum CPUClock {
    static var now: Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
