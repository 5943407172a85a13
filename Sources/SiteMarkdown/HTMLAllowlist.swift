/// What raw HTML in a note may keep: GitHub's allowlist (html-pipeline's `SanitizationFilter`),
/// less what needs ids sitegen makes itself (`id`, `name`).
enum HTMLAllowlist {
    /// Elements kept, with their allowed attributes and contents.
    static let elements: Set<String> = [
        "h1", "h2", "h3", "h4", "h5", "h6", "br", "b", "i", "strong", "em", "a", "pre", "code", "img", "tt", "div",
        "ins", "del", "sup", "sub", "p", "ol", "ul", "table", "thead", "tbody", "tfoot", "blockquote", "dl", "dt",
        "dd", "kbd", "q", "samp", "var", "hr", "ruby", "rt", "rp", "li", "tr", "td", "th", "s", "strike", "summary",
        "details", "caption", "figure", "figcaption", "abbr", "bdo", "cite", "dfn", "mark", "small", "span", "time",
        "wbr", "picture", "source", "colgroup", "col", "u"
    ]

    /// Elements removed together with everything inside them: their content is code, styling,
    /// an embedded document or a form control, never text meant for the reader.
    static let removedWithContents: Set<String> = [
        "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "svg", "math", "noembed",
        "noframes", "noscript", "plaintext", "xmp", "template", "textarea", "select", "option", "optgroup",
        "title", "head", "meta", "link", "base", "param", "audio", "video", "canvas", "button", "input"
    ]

    /// Attributes allowed on every kept element.
    static let attributes: Set<String> = [
        "abbr", "align", "alt", "aria-describedby", "aria-hidden", "aria-label", "aria-labelledby", "axis", "border",
        "cellpadding", "cellspacing", "char", "charoff", "clear", "cols", "colspan", "color", "compact", "datetime",
        "dir", "disabled", "frame", "headers", "height", "hreflang", "hspace", "lang", "nowrap", "open", "rel",
        "rev", "role", "rows", "rowspan", "rules", "scope", "span", "start", "summary", "title", "type", "valign",
        "value", "vspace", "width", "itemprop", "reversed"
    ]

    /// Attributes allowed on one element only; those holding URLs are checked by `urlAttributes`.
    static let elementAttributes: [String: Set<String>] = [
        "a": ["href"], "img": ["src", "longdesc"], "div": ["itemscope", "itemtype"], "blockquote": ["cite"],
        "del": ["cite"], "ins": ["cite"], "q": ["cite"], "source": ["srcset", "media"]
    ]

    /// URL attributes and the schemes each may use (besides relative URLs, which have none).
    static let urlAttributes: [String: Set<String>] = [
        "href": ["http", "https", "mailto"], "src": ["http", "https"], "longdesc": ["http", "https"],
        "cite": ["http", "https"], "srcset": ["http", "https"], "itemtype": ["http", "https"]
    ]

    static func allows(attribute: String, on element: String) -> Bool {
        attributes.contains(attribute) || elementAttributes[element]?.contains(attribute) == true
    }

    /// Whether `url` (an attribute's value, character references already decoded) may stay in
    /// attribute `name`: relative, or of one of its schemes.
    static func allows(url: String, in name: String) -> Bool { refusedScheme(url, in: name) == nil }

    /// The scheme that keeps `url` out of attribute `name` (each candidate of a `srcset`), nil if
    /// none does. Schemes are read as browsers read them (`scheme(of:)`): `JaVa&#09;script:` is
    /// `javascript:`.
    static func refusedScheme(_ url: String, in name: String) -> String? {
        guard let schemes = urlAttributes[name] else { return nil }
        let urls =
            name == "srcset"
            ? url.split(separator: ",").map {
                String($0.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first ?? "")
            }
            : [url]
        for u in urls { if let s = scheme(of: u), !schemes.contains(s) { return s } }
        return nil
    }

    /// The URL's scheme in lower case, nil for a relative URL (no `:` before the first `/`, `?` or `#`).
    static func scheme(of url: String) -> String? {
        var scheme = ""
        var started = false  // past the leading spaces and controls, which browsers drop
        for s in url.unicodeScalars where s != "\t" && s != "\n" && s != "\r" {
            if !started {
                if s.value <= 0x20 { continue }
                started = true
            }
            if s == ":" { return scheme.isEmpty ? "" : scheme }
            if s == "/" || s == "?" || s == "#" { return nil }
            let isLetter = (s >= "a" && s <= "z") || (s >= "A" && s <= "Z")
            // Any other character before the colon makes the URL relative, as browsers parse it.
            guard isLetter || (!scheme.isEmpty && ((s >= "0" && s <= "9") || s == "+" || s == "-" || s == ".")) else {
                return nil
            }
            scheme.unicodeScalars.append(lower(s))
        }
        return nil
    }

    private static func lower(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        (scalar >= "A" && scalar <= "Z") ? Unicode.Scalar(scalar.value + 32)! : scalar
    }
}
