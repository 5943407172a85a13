import SiteCore

/// The `<loc>` entries of a sitemap or sitemap index (sitemaps.org). Only the few parts of XML
/// a sitemap uses: comments are skipped, CDATA and character references in a `<loc>` read.
struct SitemapFile: Sendable {
    struct Entry: Sendable, Hashable {
        var url: String
        var line: Int
        var column: Int
    }

    /// A `<sitemapindex>`: its entries name further sitemaps, not pages.
    var isIndex = false
    var entries: [Entry] = []

    static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> SitemapFile {
        var file = SitemapFile()
        var found: [(url: String, offset: Int)] = []
        var i = 0
        while let lt = HTMLScanner.find(UInt8(ascii: "<"), in: bytes, from: i) {
            i = lt + 1
            if starts(bytes, at: lt, with: "<!--") {
                i = index(after: "-->", in: bytes, from: lt + 4) ?? bytes.count
            } else if starts(bytes, at: lt, with: "<sitemapindex") {
                file.isIndex = true
            } else if starts(bytes, at: lt, with: "<loc>") {
                let start = lt + 5
                guard let close = index(after: "</loc>", in: bytes, from: start) else { break }
                let end = close - 6
                found.append((text(bytes, start..<end), start))
                i = close
            }
        }
        let positions = TextPosition.of(found.map(\.offset), in: bytes)
        file.entries = zip(found, positions).map { Entry(url: $0.url, line: $1.line, column: $1.column) }
        return file
    }

    /// The text of a `<loc>`: CDATA sections unwrapped, references decoded, spaces trimmed.
    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var out = ""
        var i = range.lowerBound
        while i < range.upperBound {
            if starts(bytes, at: i, with: "<![CDATA["),
                let close = index(after: "]]>", in: bytes, from: i + 9), close <= range.upperBound
            {
                out += String(decoding: UnsafeBufferPointer(rebasing: bytes[(i + 9)..<(close - 3)]), as: UTF8.self)
                i = close
            } else {
                let next =
                    (i..<range.upperBound).first {
                        bytes[$0] == UInt8(ascii: "<") && starts(bytes, at: $0, with: "<![CDATA[")
                    } ?? range.upperBound
                out += CharacterReferences.decode(bytes, i..<next)
                i = next == i ? i + 1 : next
            }
        }
        return out.trimmingXMLSpace()
    }

    private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, with s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        return s.withUTF8Buffer { p in (0..<n).allSatisfy { bytes[i + $0] == p[$0] } }
    }

    /// The index just after the next `s` from `start`, or nil.
    private static func index(after s: StaticString, in b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let first = s.withUTF8Buffer { $0[0] }
        var i = start
        while let candidate = HTMLScanner.find(first, in: b, from: i) {
            if starts(b, at: candidate, with: s) { return candidate + s.utf8CodeUnitCount }
            i = candidate + 1
        }
        return nil
    }
}

extension String {
    /// Without leading and trailing XML white space (space, tab, CR, LF).
    func trimmingXMLSpace() -> String {
        let space: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !space($0) }), let last = lastIndex(where: { !space($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
