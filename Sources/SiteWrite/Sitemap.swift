/// `sitemap.xml` per the sitemaps.org protocol; past 50,000 URLs, numbered sitemaps and an index.
public enum Sitemap {
    public static let maximumURLsPerFile = 50_000

    /// Files to write (name → XML). `urls` are absolute and already percent-encoded;
    /// `lastModified` is an optional ISO day per URL.
    /// The names of the files `files` writes for `urlCount` URLs (the plan claims them before
    /// anything is made).
    public static func fileNames(urlCount: Int) -> [String] {
        guard urlCount > maximumURLsPerFile else { return [fileName(0)] }
        let count = (urlCount + maximumURLsPerFile - 1) / maximumURLsPerFile
        return (0...count).map(fileName)
    }

    /// The sitemap (0: the one crawlers are told of, an index past the limit) or the n-th numbered one.
    public static func fileName(_ n: Int) -> String { n == 0 ? "sitemap.xml" : "sitemap-\(n).xml" }

    public static func files(urls: [(loc: String, lastModified: String?)], indexBase: String) -> [(
        name: String, xml: String
    )] {
        if urls.count <= maximumURLsPerFile { return [(fileName(0), urlset(urls[...]))] }
        var files: [(String, String)] = []
        var index =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex "
            + "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        var start = 0, n = 1
        while start < urls.count {
            let end = min(urls.count, start + maximumURLsPerFile)
            let name = fileName(n)
            files.append((name, urlset(urls[start..<end])))
            index += "  <sitemap><loc>\(escape(indexBase + name))</loc></sitemap>\n"
            start = end
            n += 1
        }
        index += "</sitemapindex>\n"
        return [(fileName(0), index)] + files
    }

    static func urlset(_ urls: ArraySlice<(loc: String, lastModified: String?)>) -> String {
        var xml =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset "
            + "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for u in urls {
            xml += "  <url><loc>\(escape(u.loc))</loc>"
            if let d = u.lastModified { xml += "<lastmod>\(d)</lastmod>" }
            xml += "</url>\n"
        }
        return xml + "</urlset>\n"
    }

    /// XML text escaping; characters XML 1.0 does not allow (control characters other than tab
    /// and line breaks, U+FFFE, U+FFFF) are dropped, so text from data cannot break the file.
    public static func escape(_ text: String) -> String {
        // Most URLs need nothing escaped.
        if !text.utf8.contains(where: {
            $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"")
                || $0 == UInt8(ascii: "'") || ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0xEF
        }) {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(c)
            case _ where c.value < 0x20 || c.value == 0xFFFE || c.value == 0xFFFF: continue
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
