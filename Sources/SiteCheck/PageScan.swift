import SiteCore

/// What a reference does, which decides how its problem is counted and whether it makes the
/// page it points at reachable.
enum ReferenceRole: Sendable, Hashable {
    /// A reader can follow it to another page: `<a>`, `<area>`, `<iframe>`, a GET `<form>`,
    /// `<meta http-equiv=refresh>`.
    case navigation
    /// The page loads it: style sheets, scripts, media, embedded objects.
    case resource
    /// The page shows it as an image: `<img>`, `srcset`, `poster`, icons.
    case image
}

/// One URL written in a page.
struct Reference: Sendable, Hashable {
    /// As written, with its character references decoded.
    var url: String
    var role: ReferenceRole
    /// The attribute it came from (`srcset` is named in messages: one of its candidates is meant).
    var attribute: String
    var line: Int
    var column: Int
}

/// What the checker needs from one page, read in one pass: the URLs it references, the fragment
/// targets it offers (`id`s, and `name`s of `<a>`) and its `<base href>`.
struct PageScan: Sendable {
    var references: [Reference] = []
    var anchors: Set<String> = []
    var base: String?

    /// Which attribute of which element holds a URL, and what for. `srcset`, `<link>`, `<input>`,
    /// `<form>` and `<meta>` need a look at the rest of the tag and are handled in `add`.
    static let urlAttributes: [String: [(attribute: String, role: ReferenceRole)]] = [
        "a": [("href", .navigation)], "area": [("href", .navigation)], "iframe": [("src", .navigation)],
        "img": [("src", .image)], "source": [("src", .resource)], "script": [("src", .resource)],
        "video": [("src", .resource), ("poster", .image)], "audio": [("src", .resource)], "track": [("src", .resource)],
        "embed": [("src", .resource)], "object": [("data", .resource)],
        "image": [("href", .image), ("xlink:href", .image)]  // SVG
    ]

    /// `<link rel>` values whose `href` is an image (the site's icons).
    static let iconRelations: Set<String> = ["icon", "apple-touch-icon", "apple-touch-icon-precomposed", "mask-icon"]
    /// `<link rel>` values whose `href` names an origin to connect to, not a file.
    static let originRelations: Set<String> = ["preconnect", "dns-prefetch"]

    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> PageScan {
        var page = PageScan()
        var found: [(url: String, role: ReferenceRole, attribute: String, offset: Int)] = []
        HTMLScanner.scan(bytes) { tag in
            if let id = tag.attribute("id"), let range = id.value, !range.isEmpty {
                page.anchors.insert(CharacterReferences.decode(bytes, range))
            }
            func value(_ name: String) -> (String, Int)? {
                guard let a = tag.attribute(name) else { return nil }
                return (a.value.map { CharacterReferences.decode(bytes, $0) } ?? "", a.offset)
            }
            for (attribute, role) in urlAttributes[tag.name] ?? [] {
                if let (url, offset) = value(attribute) { found.append((url, role, attribute, offset)) }
            }
            switch tag.name {
            case "a":
                if let (name, _) = value("name"), !name.isEmpty { page.anchors.insert(name) }
            case "img", "source":
                if let (srcset, offset) = value("srcset") {
                    for url in candidates(srcset) { found.append((url, .image, "srcset", offset)) }
                }
            case "link":
                guard let (href, offset) = value("href") else { break }
                let rel = Set(
                    (value("rel")?.0 ?? "").lowercased().split(whereSeparator: { $0.isWhitespace }).map(String.init))
                if !rel.isDisjoint(with: originRelations) { break }
                found.append((href, rel.isDisjoint(with: iconRelations) ? .resource : .image, "href", offset))
            case "input":
                if value("type")?.0.lowercased() == "image", let (src, offset) = value("src") {
                    found.append((src, .image, "src", offset))
                }
            case "form":
                // A POST form needs a server; only a GET form's action is a page to land on.
                let method = value("method")?.0.lowercased() ?? "get"
                if method == "get" || method.isEmpty, let (action, offset) = value("action") {
                    found.append((action, .navigation, "action", offset))
                }
            case "meta":
                if value("http-equiv")?.0.lowercased() == "refresh", let (content, offset) = value("content"),
                    let url = refreshURL(content)
                {
                    found.append((url, .navigation, "content", offset))
                }
            case "base":
                if page.base == nil, let (href, _) = value("href") { page.base = href }
            default:
                break
            }
        }
        let positions = TextPosition.of(found.map(\.offset), in: bytes)
        page.references = zip(found, positions).map { f, p in
            Reference(url: f.url, role: f.role, attribute: f.attribute, line: p.line, column: p.column)
        }
        return page
    }

    /// The URLs of a `srcset`, after the standard's parsing of image candidate strings: a URL
    /// runs to whitespace (trailing commas end it), then descriptors run to a comma outside
    /// parentheses.
    static func candidates(_ srcset: String) -> [String] {
        var urls: [String] = []
        let s = Array(srcset.utf8)
        var i = 0
        while true {
            while i < s.count, HTMLScanner.isSpace(s[i]) || s[i] == UInt8(ascii: ",") { i += 1 }
            guard i < s.count else { return urls }
            let start = i
            while i < s.count, !HTMLScanner.isSpace(s[i]) { i += 1 }
            var end = i
            if s[end - 1] == UInt8(ascii: ",") {
                while end > start, s[end - 1] == UInt8(ascii: ",") { end -= 1 }
            } else {
                var depth = 0
                while i < s.count {
                    if s[i] == UInt8(ascii: "(") {
                        depth += 1
                    } else if s[i] == UInt8(ascii: ")") {
                        depth = max(0, depth - 1)
                    } else if s[i] == UInt8(ascii: ","), depth == 0 {
                        break
                    }
                    i += 1
                }
            }
            if end > start { urls.append(String(decoding: s[start..<end], as: UTF8.self)) }
        }
    }

    /// The URL of a `<meta http-equiv=refresh content="5; url=/next/">`, or nil when it only
    /// reloads the page (or the content is not a refresh the standard accepts).
    static func refreshURL(_ content: String) -> String? {
        var s = Substring(content)
        func skipSpace() { s = s.drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{C}" }) }
        skipSpace()
        let time = s.prefix(while: { $0.isASCII && ($0.isNumber || $0 == ".") })
        guard !time.isEmpty else { return nil }
        s = s.dropFirst(time.count)
        skipSpace()
        if s.first == ";" || s.first == "," { s = s.dropFirst() }
        skipSpace()
        guard !s.isEmpty else { return nil }
        if s.prefix(3).lowercased() == "url" {
            let rest = s.dropFirst(3).drop(while: { $0 == " " || $0 == "\t" })
            if rest.first == "=" { s = rest.dropFirst(); skipSpace() }
        }
        if let quote = s.first, quote == "\"" || quote == "'" {
            s = s.dropFirst()
            s = s.prefix(while: { $0 != quote })
        }
        return s.isEmpty ? nil : String(s)
    }
}
