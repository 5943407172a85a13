/// A code block of a note: fenced (its info string as written) or indented (no info string).
public struct FencedCode: Sendable, Hashable {
    /// The info string after the opening fence, as written (entities and escapes decoded).
    public var info: String
    /// The language: the info string's first word, up to a `=` or `{` (```` ```swift= ```` and
    /// ```` ```swift {1,3} ```` are `swift`); nil without one.
    public var language: String?
    /// The code, ending with a line break unless empty.
    public var code: String
    /// The line of its opening fence in the Markdown (from 1), when known.
    public var line: Int? = nil

    public init(info: String, code: String) {
        self.info = info
        self.code = code
        language = Self.language(of: info)
    }

    public init(info: String, language: String?, code: String) {
        self.info = info
        self.language = language
        self.code = code
    }

    static func language(of info: String) -> String? {
        let word = info.split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? ""
        let name = word.prefix { $0 != "=" && $0 != "{" && $0 != "," }
        return name.isEmpty ? nil : String(name)
    }
}

/// Makes the HTML of code blocks. The renderer inserts its output as it is, after sanitising:
/// it is trusted markup and must escape the code itself.
public protocol CodeBlockFormatter: Sendable {
    func html(for block: FencedCode) -> String
    /// Why `html(for:)` does not format `block` as asked (a highlighter's budget), for the
    /// note's warning; nil when it does.
    func warning(for block: FencedCode) -> String?
}

extension CodeBlockFormatter {
    public func warning(for block: FencedCode) -> String? { nil }
}

/// Code blocks without highlighting: `<pre class="code" tabindex="0"><code class="language-swift">…</code></pre>`
/// (`class="code"` is the theme's box: a frame that scrolls sideways instead of clipping, and so
/// focusable, for the keyboard to scroll it).
public struct PlainCodeBlocks: CodeBlockFormatter {
    public init() {}

    public func html(for block: FencedCode) -> String {
        var out = "<pre class=\"code\" tabindex=\"0\"><code"
        if let language = block.language { out += " class=\"language-\(HTMLText.escape(language))\"" }
        out += ">" + HTMLText.escape(block.code) + "</code></pre>"
        return out
    }
}
