import CHighlightLoader

/// KSyntaxHighlighting's themes as a stylesheet for `CodeHighlighter`'s classes: a light theme,
/// and a dark one under `prefers-color-scheme: dark`.
public enum CodeThemes {
    /// The themes KSyntaxHighlighting 5.103 has built in (a test compares them with the library),
    /// known here so that `site.yml` is checked without loading it.
    public static let names = [
        "Atom One Dark", "Atom One Light", "Breeze Dark", "Breeze Light", "Dracula", "Falcon", "GitHub Dark",
        "GitHub Light", "Monokai", "Nord", "Oblivion", "Printing", "Radical", "Solarized Dark", "Solarized Light",
        "Vim Dark", "ayu Dark", "ayu Light", "ayu Mirage", "gruvbox Dark", "gruvbox Light"
    ]
    public static let defaultLight = "GitHub Light"
    public static let defaultDark = "GitHub Dark"

    /// The stylesheet of `light` and `dark`, or why it cannot be made (the library is missing).
    public static func stylesheet(light: String, dark: String) -> Result<String, HighlightFailure> {
        let themes = RepositoryPool.shared.with { (theme(light, in: $0), theme(dark, in: $0)) }
        guard let (lightTheme, darkTheme) = themes else {
            let why = HighlightLibrary.openFailure ?? RepositoryPool.shared.failure?.message
            return .failure(HighlightFailure(why ?? ""))
        }
        guard let lightTheme else { return .failure(HighlightFailure("KSyntaxHighlighting has no theme '\(light)'")) }
        guard let darkTheme else { return .failure(HighlightFailure("KSyntaxHighlighting has no theme '\(dark)'")) }
        return .success(ThemeStylesheet.css(light: (light, lightTheme), dark: (dark, darkTheme)))
    }

    /// The theme names the library has (for the test that compares them with `names`).
    static func libraryNames() -> [String]? {
        RepositoryPool.shared.with { repository in
            var buffer = [CChar](repeating: 0, count: 1 << 14)
            let length = sghl_theme_names(repository.pointer, &buffer, buffer.count)
            guard length <= buffer.count else { return [] }
            let text = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return text.split(separator: "\n").map(String.init)
        }
    }

    static func theme(_ name: String, in repository: Repository) -> Theme? {
        var styles = [SGHStyle](repeating: SGHStyle(), count: Int(SGH_STYLES))
        var editor = [UInt32](repeating: 0, count: Int(SGH_EDITOR_COLORS))
        guard sghl_theme(repository.pointer, name, &styles, &editor) == 0 else { return nil }
        return Theme(styles: styles, editor: editor)
    }
}

/// A theme's styles and editor colours as the library gives them.
struct Theme: Sendable {
    var styles: [SGHStyle]
    var editor: [UInt32]

    /// `Theme::EditorColorRole`s the stylesheet uses.
    static let background = 0, currentLine = 2, lineNumbers = 11
}
