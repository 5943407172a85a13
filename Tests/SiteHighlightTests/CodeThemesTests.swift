import Foundation
import Synchronization
import Testing
@testable import SiteHighlight

@Suite struct CodeThemesTests {
    /// The names site.yml is checked against are the library's.
    @Test func theKnownNamesAreTheLibrarys() {
        #expect(CodeThemes.libraryNames() == CodeThemes.names)
        #expect(CodeThemes.names.contains(CodeThemes.defaultLight) && CodeThemes.names.contains(CodeThemes.defaultDark))
    }

    @Test func lightThenDarkUnderTheMediaQuery() throws {
        let css = try CodeThemes.stylesheet(light: "GitHub Light", dark: "GitHub Dark").get()
        let parts = css.components(separatedBy: "@media (prefers-color-scheme: dark) {")
        #expect(parts.count == 2)
        #expect(parts[0].contains("pre.code { background: #ffffff; color: #24292e; }"))
        #expect(parts[0].contains(".code .fu { color: #6f42c1; }"))
        #expect(parts[1].contains("  pre.code { background: #24292e; color: #e1e4e8; }"))
        #expect(parts[1].contains("  .code .kw { color: #f97583; }"))
        #expect(parts[1].hasSuffix("}\n"))
        #expect(!css.contains(".code .er"))
        #expect(css.contains("user-select: none"))
        // The same bytes every time.
        #expect(try CodeThemes.stylesheet(light: "GitHub Light", dark: "GitHub Dark").get() == css)
    }

    /// What one theme sets and the other does not is reset in the other's rules.
    @Test func theDarkThemeResetsWhatOnlyTheLightOneSets() throws {
        let css = try CodeThemes.stylesheet(light: "Breeze Light", dark: "Dracula").get()
        let dark = css.components(separatedBy: "@media")[1]
        for rule in css.components(separatedBy: "@media")[0].split(separator: "\n")
        where rule.hasPrefix(".code .") && rule.contains("font-weight: bold") {
            let selector = rule.prefix { $0 != "{" }
            #expect(dark.contains("  \(selector)"), "\(selector) is not in the dark rules")
        }
    }

    /// Every colour reads at 4.5:1 on the block's background and a marked line's.
    @Test(arguments: CodeThemes.names) func everyColourIsReadable(theme: String) throws {
        let css = try CodeThemes.stylesheet(light: theme, dark: theme).get()
        let rules = css.split(separator: "\n").filter { $0.contains("{") }
        func colour(_ selector: String, _ property: String) -> RGB? {
            guard
                let rule = rules.first(where: {
                    $0.trimmingCharacters(in: .whitespaces).hasPrefix(selector + " {") && $0.contains("\(property): #")
                }),
                let range = rule.range(of: " \(property): #")
            else { return nil }
            let hex = rule[range.upperBound...].prefix(6)
            let v = Int(hex, radix: 16)!
            return RGB(v >> 16, v >> 8 & 0xFF, v & 0xFF)
        }
        let background = try #require(colour("pre.code", "background"))
        let marked = try #require(colour(".code .hl", "background"))
        for rule in rules where rule.contains(" color: #") {
            let selector = String(rule.trimmingCharacters(in: .whitespaces).prefix { $0 != "{" }.dropLast())
            let c = try #require(colour(selector, "color"))
            #expect(ThemeStylesheet.contrast(c, background) >= 4.5, "\(theme) \(selector)")
            #expect(ThemeStylesheet.contrast(c, marked) >= 4.5, "\(theme) \(selector) on a marked line")
        }
    }

    @Test func aColourThatReadsIsKept() {
        let white = RGB(255, 255, 255)
        #expect(ThemeStylesheet.readable(RGB(0x6f, 0x42, 0xc1), on: [white]) == RGB(0x6f, 0x42, 0xc1))
        #expect(ThemeStylesheet.readable(RGB(0xff, 0x55, 0x55), on: [white]) != RGB(0xff, 0x55, 0x55))
        #expect(
            ThemeStylesheet.readable(RGB(0x20, 0x20, 0x20), on: [RGB(0, 0, 0)]).luminance
                > RGB(0x20, 0x20, 0x20).luminance)
    }

    @Test func anUnknownThemeIsAFailure() {
        #expect(throws: HighlightFailure("KSyntaxHighlighting has no theme 'Nope'")) {
            try CodeThemes.stylesheet(light: "GitHub Light", dark: "Nope").get()
        }
        #expect(throws: HighlightFailure("KSyntaxHighlighting has no theme 'Nix'")) {
            try CodeThemes.stylesheet(light: "Nix", dark: "GitHub Dark").get()
        }
    }
}

@Suite struct HighlightLibraryTests {
    @Test func whereTheLibraryIsLookedFor() {
        let exe = URL(fileURLWithPath: "/opt/sitegen/bin/sitegen")
        #expect(
            HighlightLibrary.candidates(environment: [:], executable: exe)
                == ["/opt/sitegen/bin/libSitegenHighlight.so", "/opt/sitegen/lib/sitegen/libSitegenHighlight.so"])
        #expect(
            HighlightLibrary.candidates(environment: ["SITEGEN_HIGHLIGHT_LIBRARY": "/x/l.so"], executable: exe) == [
                "/x/l.so"
            ])
        #expect(HighlightLibrary.candidates(environment: ["SITEGEN_HIGHLIGHT_LIBRARY": ""], executable: exe).count == 2)
    }
}

@Suite struct HighlightNoticeTests {
    @Test func theNoticeIsGivenOnceAndSaysHowToInstall() throws {
        let given = Mutex(false)
        let none = HighlightLibrary.notice(nil, once: given)
        #expect(none == nil)
        let first = HighlightLibrary.notice("no libSitegenHighlight.so at /x", once: given)
        let notice = try #require(first)
        #expect(notice.hasPrefix("code blocks are not highlighted: no libSitegenHighlight.so at /x."))
        #expect(notice.contains("apt-get install libkf5syntaxhighlighting5"))
        let again = HighlightLibrary.notice("no libSitegenHighlight.so at /x", once: given)
        #expect(again == nil)
    }

    /// A word too long to be a language is not looked up, nor remembered.
    @Test func longWordsAreNotRemembered() {
        let long = String(repeating: "q", count: Languages.maximumLength + 1)
        #expect(Languages.definition(for: long) == nil)
        #expect(!Languages.known.withLock { $0.keys.contains(long) })
        #expect(Languages.definition(for: "qqq") == nil)
        #expect(Languages.known.withLock { $0.keys.contains("qqq") })
    }
}
