import CHighlightLoader
import SiteMarkdown
import Synchronization

/// Fenced code blocks highlighted with KDE's KSyntaxHighlighting when the site is built: a span
/// per token with pandoc's short class names (the stylesheet is `CodeThemes.stylesheet`), line
/// numbers and marked lines from the fence (`FenceAttributes`). A block without a language, in a
/// language KSyntaxHighlighting does not know, past `CodeLimits`, or built by a sitegen without
/// its library is escaped text (`PlainCodeBlocks`), numbered and marked as asked.
public struct CodeHighlighter: CodeBlockFormatter {
    public init() {}

    public func html(for block: FencedCode) -> String {
        guard let language = block.language else { return PlainCodeBlocks().html(for: block) }
        let attributes = FenceAttributes(info: Substring(block.info))
        if CodeLimits.admits(block.code), CodeLimits.nestingWork(block.code) <= CodeLimits.maximumNestingWork,
            let definition = Languages.definition(for: language),
            let html = RepositoryPool.shared.with({
                Self.highlight(block.code, definition: definition, language: language, attributes: attributes, in: $0)
            }) ?? nil
        {
            return html
        }
        guard !attributes.isEmpty else { return PlainCodeBlocks().html(for: block) }
        return CodeHTML.make(
            code: block.code, language: language, spans: UnsafeBufferPointer(start: nil, count: 0),
            attributes: attributes)
    }

    /// Why a block in a language is escaped text although within the size limits: past the
    /// nesting budget (`CodeLimits.maximumNestingWork`). Those past the size limits are not
    /// warned about (the README's documented limits, as before).
    public func warning(for block: FencedCode) -> String? {
        guard block.language != nil, CodeLimits.admits(block.code) else { return nil }
        let work = CodeLimits.nestingWork(block.code)
        guard work > CodeLimits.maximumNestingWork else { return nil }
        return "code block not highlighted (shown as plain text): its lines open brackets that stay open, "
            + "more than \(CodeLimits.maximumNestingWork) line × open bracket pairs, past which the highlighter's "
            + "work grows with the square of the lines"
    }

    /// The block's HTML, or nil when KSyntaxHighlighting refused the definition.
    static func highlight(
        _ code: String, definition: String, language: String, attributes: FenceAttributes,
        in repository: Repository
    ) -> String? {
        var text = code
        return text.withUTF8 { bytes -> String? in
            var count = 0
            let spans = sghl_highlight(repository.pointer, definition, bytes.baseAddress, bytes.count, &count)
            guard let spans else { return nil }
            return CodeHTML.make(
                code: code, language: language, spans: UnsafeBufferPointer(start: spans, count: count),
                attributes: attributes)
        }
    }
}

/// How much code is highlighted: past these, a block is escaped text. Measured on this project's
/// machine, KSyntaxHighlighting takes 0.2–2 µs per byte of code (JavaScript and Markdown the
/// slowest; a line's cost grows with its length times the rules tried at each place), so a block
/// costs at most about half a second and, with its spans and HTML, some 10 MB while it is made.
enum CodeLimits {
    /// Bytes of a block (UTF-8).
    static let maximumBytes = 256 << 10
    /// UTF-16 code units of a line.
    static let maximumLineLength = 5_000

    /// Lines × the brackets open at each line's start, summed over the block. KSyntaxHighlighting
    /// copies its whole context stack for every line (`highlightLine` detaches the `State`), and
    /// in most definitions (Python, Bash, JavaScript…) each `(`, `[` or `{` pushes a context until
    /// its closer: `{[(` on each of 63,000 lines of Python took 12.75 s, of Swift (no such
    /// contexts) 0.06 s. Nested comments push one per `/*` (Rust: `/*` on 63,000 lines, 36 s);
    /// `(*` and `{-` count as brackets. Counted on the text, whatever the language: deterministic.
    static let maximumNestingWork = 20_000_000

    /// The block's line × open bracket work (stops counting past `maximumNestingWork`).
    static func nestingWork(_ code: String) -> Int {
        var code = code
        return code.withUTF8 { bytes in
            var depth = 0
            var work = 0
            var previous: UInt8 = 0
            for byte in bytes {
                defer { previous = byte }
                switch byte {
                case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
                case UInt8(ascii: "*") where previous == UInt8(ascii: "/"): depth += 1  // nested comments: /* */
                case UInt8(ascii: "/") where previous == UInt8(ascii: "*"): depth = max(0, depth - 1)
                case UInt8(ascii: "\n"):
                    work += depth
                    if work > maximumNestingWork { return work }
                default: break
                }
            }
            return work
        }
    }

    /// Whether `code` is within both limits (one pass over its bytes, none for a short block).
    static func admits(_ code: String) -> Bool {
        var code = code
        return code.withUTF8 { bytes in
            guard bytes.count <= maximumBytes else { return false }
            // A line has no more UTF-16 units than bytes: no line of a block this short is too long.
            guard bytes.count > maximumLineLength else { return true }
            var length = 0
            for byte in bytes {
                if byte == UInt8(ascii: "\n") {
                    length = 0
                } else if byte & 0xC0 != 0x80 {
                    length += byte >= 0xF0 ? 2 : 1
                    if length > maximumLineLength { return false }
                }
            }
            return true
        }
    }
}

/// A fence's language → the name of KSyntaxHighlighting's definition, remembered per process.
enum Languages {
    /// Short names the definitions' own names and file extensions do not give (`objc`), and those
    /// fixed here so that a definition gaining an extension cannot change what they mean.
    static let aliases: [String: String] = [
        "sh": "Bash", "shell": "Bash", "zsh": "Zsh", "js": "JavaScript", "ts": "TypeScript", "yml": "YAML",
        "objc": "Objective-C", "kt": "Kotlin", "py": "Python"
    ]
    /// Longer words are no language (nothing is looked up for them).
    static let maximumLength = 64

    /// What each language word found (nil: nothing).
    static let known = Mutex<[String: String?]>([:])

    /// The definition for `language`: an alias (case ignored), a definition's name (exactly,
    /// then case ignored) or a file extension (`rs`); nil for none or when the library is missing.
    static func definition(for language: String) -> String? {
        guard language.utf8.count <= maximumLength else { return nil }
        if let alias = aliases[language.lowercased()] { return alias }
        if let found = known.withLock({ $0[language] }) { return found }
        guard
            let found = RepositoryPool.shared.with({ repository -> String? in
                var name = [CChar](repeating: 0, count: 256)
                return sghl_definition(repository.pointer, language, &name, name.count) == 0
                    ? name.nulTerminatedText : nil
            })
        else { return nil }
        known.withLock { $0[language] = found }
        return found
    }
}
