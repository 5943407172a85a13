/// An Atom feed (RFC 4287). Every date comes from the content, never from the clock, so the same
/// sources give the same feed.
public struct AtomFeed: Sendable {
    public struct Entry: Sendable {
        /// The entry's page, absolute and percent-encoded; also its id.
        public var url: String
        public var title: String
        /// RFC 3339 (`2024-01-31T00:00:00Z`).
        public var updated: String
        public var summary: String?
        /// The entry's HTML, sent as `type="html"` content.
        public var html: String?

        public init(url: String, title: String, updated: String, summary: String? = nil, html: String? = nil) {
            self.url = url
            self.title = title
            self.updated = updated
            self.summary = summary
            self.html = html
        }
    }

    /// The feed's own URL (absolute): its id and its `rel="self"` link.
    public var url: String
    /// The page the feed follows (absolute), its `rel="alternate"` link.
    public var pageURL: String
    /// The site's root URL, the `xml:base` that site-absolute links in the entries' HTML resolve against.
    public var base: String
    public var title: String
    public var author: String
    public var language: String
    public var entries: [Entry]

    public init(
        url: String, pageURL: String, base: String, title: String, author: String, language: String, entries: [Entry]
    ) {
        self.url = url
        self.pageURL = pageURL
        self.base = base
        self.title = title
        self.author = author
        self.language = language
        self.entries = entries
    }

    /// RFC 3339 for a calendar day: midnight UTC.
    public static func timestamp(day: String) -> String { day + "T00:00:00Z" }

    /// The feed's XML. `updated` is the newest entry's (RFC 4287 requires one; a feed without
    /// entries takes the Unix epoch, not the build time).
    public var xml: String {
        let e = Sitemap.escape
        let updated = entries.map(\.updated).max() ?? "1970-01-01T00:00:00Z"
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="\(e(base))" xml:lang="\(e(language))">
              <id>\(e(url))</id>
              <title>\(e(title))</title>
              <updated>\(updated)</updated>
              <author><name>\(e(author))</name></author>
              <link rel="self" type="application/atom+xml" href="\(e(url))"/>
              <link rel="alternate" type="text/html" href="\(e(pageURL))"/>
              <generator>sitegen</generator>

            """
        for entry in entries {
            xml += """
                  <entry>
                    <id>\(e(entry.url))</id>
                    <title>\(e(entry.title))</title>
                    <updated>\(entry.updated)</updated>
                    <link rel="alternate" type="text/html" href="\(e(entry.url))"/>

                """
            if let s = entry.summary { xml += "    <summary>\(e(s))</summary>\n" }
            if let h = entry.html { xml += "    <content type=\"html\">\(e(h))</content>\n" }
            xml += "  </entry>\n"
        }
        return xml + "</feed>\n"
    }
}
