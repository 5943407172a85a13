/// A heading of a rendered note, for its table of contents.
public struct Heading: Sendable, Hashable, Codable {
    /// 1 to 6.
    public var level: Int
    /// The heading's `id` (unique in the note and among `reserved` ids).
    public var id: String
    /// The heading's text, as plain text.
    public var text: String

    public init(level: Int, id: String, text: String) {
        self.level = level
        self.id = id
        self.text = text
    }
}

/// Heading ids as GitHub makes them (github-slugger): lower case, every character that is not a
/// letter, mark, number, `_`, `-` or space removed, each space a `-`; a repeated id gets `-1`, `-2` ….
struct HeadingIDs {
    private var used: Set<String>

    /// `reserved`: ids the page already has (the theme's), which headings must not take.
    init(reserved: Set<String>) { used = reserved }

    /// GitHub's id for a heading whose text is `text`, before making it unique.
    static func slug(_ text: String) -> String {
        text.utf8.allSatisfy({ $0 < 0x80 }) ? asciiSlug(text) : unicodeSlug(text)
    }

    /// `slug` by each character's Unicode general category.
    static func unicodeSlug(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            if scalar == " " { out.append("-"); continue }
            if scalar == "-" || scalar == "_" { out.append(scalar); continue }
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber,
                .connectorPunctuation:
                out.append(scalar)
            default: continue
            }
        }
        return String(out)
    }

    /// `slug` of ASCII text, without looking up Unicode properties: letters and digits lower
    /// case, `_` and `-` kept, spaces to `-`, everything else (punctuation, symbols, controls) removed.
    static func asciiSlug(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): out.append(b | 0x20)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"),
                UInt8(ascii: "-"):
                out.append(b)
            case UInt8(ascii: " "): out.append(UInt8(ascii: "-"))
            default: continue
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The slug of a heading whose text is `text`, `section` when nothing is left of it.
    static func plain(_ text: String) -> String {
        let s = slug(text)
        return s.isEmpty ? "section" : s
    }

    /// The next heading's id: its slug (or `section` when nothing is left of the text), with
    /// `-1`, `-2` … when taken.
    mutating func next(_ text: String, prefix: String = "") -> String { next(plain: Self.plain(text), prefix: prefix) }

    /// The next heading's id from its `plain` slug (see `plain`).
    mutating func next(plain: String, prefix: String = "") -> String {
        let base = prefix + plain
        var id = base
        var n = 0
        while used.contains(id) {
            n += 1
            id = "\(base)-\(n)"
        }
        used.insert(id)
        return id
    }

    /// Marks `id` taken (ids sitegen makes besides headings: footnotes).
    mutating func reserve(_ id: String) { used.insert(id) }
}
