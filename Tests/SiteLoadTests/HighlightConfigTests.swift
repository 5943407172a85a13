import Testing
@testable import SiteLoad

@Suite struct HighlightConfigTests {
    let head = "title: T\nbaseURL: https://x.org/\n"

    @Test func themesFalseAndTheDefault() throws {
        #expect(
            try SiteConfig.parse(head, file: "site.yml").highlight
                == HighlightConfig(theme: "GitHub Light", dark: "GitHub Dark"))
        #expect(
            try SiteConfig.parse(head + "highlight: { theme: Solarized Light, dark: Nord }\n", file: "site.yml")
                .highlight
                == HighlightConfig(theme: "Solarized Light", dark: "Nord"))
        #expect(
            try SiteConfig.parse(head + "highlight: { dark: Dracula }\n", file: "site.yml").highlight
                == HighlightConfig(theme: "GitHub Light", dark: "Dracula"))
        #expect(try SiteConfig.parse(head + "highlight: false\n", file: "site.yml").highlight == nil)
    }

    @Test func unknownThemesAndKeysAreErrorsAtTheirLine() {
        #expect(
            configErrors(head + "highlight:\n  theme: GitHub\n  dark: Nord\n  light: x\n") == [
                "site.yml:6:3: error: unknown key 'highlight.light' (expected one of: dark, theme)",
                "site.yml:4:10: error: unknown theme 'GitHub' for 'highlight.theme' (KSyntaxHighlighting's themes: Atom One Dark, Atom One Light, "
                    + "Breeze Dark, Breeze Light, Dracula, Falcon, GitHub Dark, GitHub Light, Monokai, Nord, Oblivion, Printing, Radical, "
                    + "Solarized Dark, Solarized Light, Vim Dark, ayu Dark, ayu Light, ayu Mirage, gruvbox Dark, gruvbox Light)"
            ])
        #expect(
            configErrors(head + "highlight: yes please\n")
                == [
                    "site.yml:3:12: error: 'highlight' must be a mapping such as { theme: GitHub Light, dark: GitHub Dark }, or false, found 'yes please'"
                ])
    }
}
