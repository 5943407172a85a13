import Testing
import SiteCore
@testable import SiteLoad

/// The interface words: a table per language (`ko*` Korean, anything else English), any word
/// replaced by `words:` in site.yml, mistakes located like every other key.
@Suite struct WordsConfigTests {
    func words(_ yaml: String) throws -> InterfaceWords {
        try SiteConfig.parse("title: T\nbaseURL: https://x.org/\n" + yaml, file: "site.yml").words
    }

    /// Lines 1–3: title, baseURL, `words:`; the words' body starts at line 4.
    func errors(_ body: String) -> [String] {
        configErrors("title: T\nbaseURL: https://x.org/\nwords:\n" + body)
    }

    @Test func theLanguagePicksTheTable() throws {
        #expect(try words("language: ko\n") == .korean)
        #expect(try words("language: ko-KR\n") == .korean)
        #expect(try words("language: en\n") == .english)
        #expect(try words("language: de\n") == .english)
        #expect(try words("") == .english)
        let ko = try words("language: ko\n")
        #expect(
            [ko.skipLink, ko.navigation, ko.close, ko.pagination, ko.empty, ko.tags] == [
                "본문 바로가기", "주요 메뉴", "닫기", "페이지", "아직 항목이 없습니다.", "태그"
            ])
        let en = try words("")
        #expect(
            [en.skipLink, en.navigation, en.close, en.pagination, en.empty, en.tags] == [
                "Skip to content", "Main", "Close", "Pages", "Nothing here yet.", "Tags"
            ])
    }

    @Test func countsUseTheLanguagesGroupingAndEnglishPlurals() throws {
        let en = InterfaceWords.english.items, ko = InterfaceWords.korean.items
        #expect([0, 1, 2, 1234].map { en.text($0, language: "en") } == ["0 items", "1 item", "2 items", "1,234 items"])
        #expect([0, 1, 1234].map { ko.text($0, language: "ko") } == ["0개", "1개", "1,234개"])
        #expect(en.text(1234, language: "de") == "1.234 items")
    }

    @Test func wordsReplaceTheTablesOneByOne() throws {
        let w = try words("language: ko\nwords: { tags: Labels, close: Shut, items: \"{n} things\" }\n")
        #expect(w.tags == "Labels" && w.close == "Shut")
        #expect(w.skipLink == "본문 바로가기" && w.empty == InterfaceWords.korean.empty)
        #expect([1, 3].map { w.items.text($0, language: "ko") } == ["1 things", "3 things"])
        let all = try words(
            "words: { skipLink: a, navigation: b, close: c, pagination: d, empty: e, tags: f, items: { one: \"{n} g\", other: \"{n} gs\" } }\n"
        )
        #expect(
            all
                == InterfaceWords(
                    skipLink: "a", navigation: "b", close: "c", pagination: "d", empty: "e", tags: "f",
                    items: CountWords(one: "{n} g", other: "{n} gs")))
        #expect(all.items.text(1, language: "en") == "1 g" && all.items.text(2, language: "en") == "2 gs")
        // `other` alone serves every count.
        #expect(try words("words: { items: { other: \"{n}x\" } }\n").items.text(1, language: "en") == "1x")
    }

    @Test func mistakesAreLocated() {
        #expect(
            errors("  tag: Labels\n")
                == [
                    "site.yml:4:3: error: unknown key 'words.tag'; did you mean 'tags'? (expected one of: close, contents, empty, footnoteBack, headingLink, items, navigation, pagination, skipLink, tags, task)"
                ])
        #expect(
            errors("  items: { one: a, many: b, other: c }\n")
                == ["site.yml:4:20: error: unknown key 'words.items.many' (expected one of: one, other)"])
        #expect(
            errors("  items: { one: a }\n") == [
                "site.yml:4:10: error: missing required key 'words.items.other' (the text for any count but 1, e.g. \"{n} items\")"
            ])
        #expect(errors("  tags: \"\"\n") == ["site.yml:4:9: error: 'words.tags' must not be empty"])
        #expect(errors("  tags: [a]\n") == ["site.yml:4:9: error: 'words.tags' must be text"])
        #expect(
            errors("  - tags\n") == ["site.yml:4:3: error: 'words' must be a mapping of names to values, found a list"])
    }
}
