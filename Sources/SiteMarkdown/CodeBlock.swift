/// A fenced code block as the Markdown renderer hands it to a `CodeBlockFormatter`.
public struct FencedCode: Sendable {
    /// The whole info string after the opening fence (`swift {2,4-5} showLineNumbers`).
    public var info: String
    /// Its first word (`swift`), nil when the info string is empty.
    public var language: String?
    /// The block's text, each line ended by a line feed.
    public var code: String

    public init(info: String, language: String?, code: String) {
        self.info = info
        self.language = language
        self.code = code
    }
}

/// Renders fenced code blocks: the one hook through which every fenced block of a note goes. Its
/// output is trusted markup, inserted as it is after the note's HTML was made safe.
public protocol CodeBlockFormatter: Sendable {
    func html(for block: FencedCode) -> String
}

/// The block as escaped text: `<pre class="code"><code class="language-x">…</code></pre>`.
public struct PlainCodeBlocks: CodeBlockFormatter {
    public init() {}

    public func html(for block: FencedCode) -> String {
        let language = block.language.map { " class=\"language-\(Self.escape($0))\"" } ?? ""
        return "<pre class=\"code\"><code\(language)>\(Self.escape(block.code))</code></pre>"
    }

    /// `&`, `<`, `>` and `"` as character references, as cmark escapes text.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
