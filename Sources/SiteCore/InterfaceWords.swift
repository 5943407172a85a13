/// The words sitegen itself puts in pages (the built-in theme's labels, item counts), one table
/// per language; `site.yml`'s `words:` replaces any of them. A site's own templates write their
/// own words; these are the ones the generator has to choose.
public struct InterfaceWords: Sendable, Hashable, Encodable {
    /// The link that skips the navigation ("Skip to content").
    public var skipLink: String
    /// The name of the main navigation, for screen readers ("Main").
    public var navigation: String
    /// The label of a page's close button ("Close").
    public var close: String
    /// The name of the page links under a list ("Pages").
    public var pagination: String
    /// What an empty list says ("Nothing here yet.").
    public var empty: String
    /// The title of the tags index and the link to it ("Tags").
    public var tags: String
    /// How a number of items is written ("1 item", "12 items").
    public var items: CountWords
    /// Before a heading's text in the name of its self-link ("Link to this section: Usage").
    public var headingLink = "Link to this section"
    /// The name of a footnote's links back to where it is referenced.
    public var footnoteBack = "Back to content"
    /// The name of a note's table of contents.
    public var contents = "Contents"
    /// The name of a task list's box (its state, done or not, is the box's own).
    public var task = "Task"

    public init(
        skipLink: String, navigation: String, close: String, pagination: String, empty: String, tags: String,
        items: CountWords
    ) {
        self.skipLink = skipLink
        self.navigation = navigation
        self.close = close
        self.pagination = pagination
        self.empty = empty
        self.tags = tags
        self.items = items
    }

    public static let english = InterfaceWords(
        skipLink: "Skip to content", navigation: "Main", close: "Close", pagination: "Pages",
        empty: "Nothing here yet.",
        tags: "Tags", items: CountWords(one: "{n} item", other: "{n} items"))

    public static let korean: InterfaceWords = {
        var words = InterfaceWords(
            skipLink: "본문 바로가기", navigation: "주요 메뉴", close: "닫기", pagination: "페이지", empty: "아직 항목이 없습니다.",
            tags: "태그", items: CountWords(one: nil, other: "{n}개"))
        words.headingLink = "이 부분으로 가는 링크"
        words.footnoteBack = "본문으로 돌아가기"
        words.contents = "목차"
        words.task = "할 일"
        return words
    }()

    /// The table of `language`: Korean for `ko` and its variants (`ko-KR`), English otherwise.
    public static func defaults(language: String) -> InterfaceWords {
        language.hasPrefix("ko") ? korean : english
    }
}

/// A count in words: `{n}` stands for the number, written with the language's digit grouping.
public struct CountWords: Sendable, Hashable, Encodable {
    /// Used when the count is exactly 1; nil: `other` is used for every count.
    public var one: String?
    public var other: String

    public init(one: String?, other: String) {
        self.one = one
        self.other = other
    }

    public func text(_ count: Int, language: String) -> String {
        let pattern = count == 1 ? one ?? other : other
        return pattern.replacing("{n}", with: NumberFormat.grouped(Int64(count), language: language))
    }
}
