import SiteCore
import SiteHighlight
import Yams

/// `highlight:`: the themes of highlighted code, `{ theme: GitHub Light, dark: GitHub Dark }`
/// (the dark one under `prefers-color-scheme: dark`), or `false` for code blocks as escaped text.
public struct HighlightConfig: Sendable, Equatable {
    public var theme: String
    public var dark: String

    public static let standard = HighlightConfig(theme: CodeThemes.defaultLight, dark: CodeThemes.defaultDark)
}

extension SiteConfig {
    /// `highlight:`, nil for `false`; a theme KSyntaxHighlighting does not have is an error at its
    /// line that names the ones it has.
    static func parseHighlight(_ top: ConfigNode, problems: inout [Diagnostic]) -> HighlightConfig? {
        if let n = top.raw("highlight"), case .scalar(let s) = n, Bool.construct(from: s) == false { return nil }
        guard
            let h = attempt(
                &problems,
                { () throws(Diagnostic) in
                    try top.child(
                        "highlight",
                        expecting: "a mapping such as { theme: GitHub Light, dark: GitHub Dark }, or false")
                }), let h
        else { return .standard }
        let start = problems.count
        var config = HighlightConfig.standard
        for (name, path) in [("theme", \HighlightConfig.theme), ("dark", \.dark)] {
            guard let text = attempt(&problems, { () throws(Diagnostic) in try h.string(name) }), let text else {
                continue
            }
            guard CodeThemes.names.contains(text) else {
                let choices = CodeThemes.names.joined(separator: ", ")
                let message = "unknown theme '\(text)' for '\(h.key(name))' (KSyntaxHighlighting's themes: \(choices))"
                problems.append(h.error(h.raw(name) ?? h.node, message))
                continue
            }
            config[keyPath: path] = text
        }
        h.reportUnknownKeys(into: &problems, at: start)
        return config
    }
}
