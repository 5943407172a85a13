import Foundation
import Testing
@testable import SiteMarkdown

/// cmark-gfm keeps the characters that start an extension's inline syntax (`:` and `w` for
/// autolinks, `~` for strikethrough, `|` in tables) in a table shared by the whole process, which
/// every parser changes while it parses: notes rendered at once on several threads must still
/// come out as they do one at a time.
@Suite struct CmarkThreadsTests {
    static let document = """
        See https://example.org/a, www.example.com and dev@example.org; ~~old~~ *new* ~x~**y**.

        | a | b |
        |---|---|
        | https://example.org/t | ~~z~~ |

        Then http://example.net/z and ~~more~~.
        """

    @Test func parsingOnManyThreadsGivesWhatOneThreadGives() async {
        var plain = MarkdownOptions()
        plain.autolinks = false
        plain.strikethrough = false
        plain.tables = false
        let options = [MarkdownOptions(), plain]
        let expected = options.map {
            Cmark.render(Self.document, options: $0, removeRawHTML: false, tagfilter: true).html
        }
        #expect(expected[0] != expected[1])
        let wrong = await withTaskGroup(of: Int.self) { group in
            for t in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for i in 0..<1_000 {
                        let k = (t + i) % 2
                        if Cmark.render(Self.document, options: options[k], removeRawHTML: false, tagfilter: true).html
                            != expected[k]
                        {
                            wrong += 1
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0, "\(wrong) of 8,000 renderings differ from the same rendering on one thread")
    }
}
