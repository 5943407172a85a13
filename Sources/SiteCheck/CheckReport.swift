import SiteCore

/// One problem in the output, printed like the build's errors: `file:line:column: error: message`.
public struct CheckProblem: Sendable, Hashable, Comparable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable, CaseIterable {
        /// A link, style sheet, script, media file or sitemap entry that leads to no file, or a
        /// fragment that names no element of its page.
        case brokenLink
        /// An image (`<img>`, `srcset`, `poster`, an icon) whose file is not in the output.
        case missingImage
        /// A page no chain of links from the home page (or 404.html) leads to.
        case unreachablePage
    }

    public var kind: Kind
    public var diagnostic: Diagnostic

    public init(_ kind: Kind, _ diagnostic: Diagnostic) {
        self.kind = kind
        self.diagnostic = diagnostic
    }

    public var description: String { diagnostic.description }

    /// By file, then line and column as numbers (line 9 before line 10), then message.
    public static func < (lhs: CheckProblem, rhs: CheckProblem) -> Bool {
        let x = lhs.diagnostic.location, y = rhs.diagnostic.location
        if x.file != y.file { return x.file < y.file }
        if (x.line ?? 0) != (y.line ?? 0) { return (x.line ?? 0) < (y.line ?? 0) }
        if (x.column ?? 0) != (y.column ?? 0) { return (x.column ?? 0) < (y.column ?? 0) }
        return lhs.diagnostic.message < rhs.diagnostic.message
    }
}

/// What a check found, and how much it looked at.
public struct CheckReport: Sendable {
    /// HTML files in the output.
    public var pages: Int
    /// References into the site other than images (links, style sheets, scripts, media, sitemap
    /// entries), counted per occurrence; links to other sites are not counted.
    public var links: Int
    /// Image references into the site, counted per occurrence.
    public var images: Int
    /// Sorted (see `CheckProblem.<`).
    public var problems: [CheckProblem]

    public func count(_ kind: CheckProblem.Kind) -> Int { problems.count { $0.kind == kind } }

    /// `123 pages, 4,567 links, 890 images checked; 2 broken links, 1 missing image, 0 unreachable pages`
    public var summary: String {
        "\(Self.counted(pages, "page")), \(Self.counted(links, "link")), \(Self.counted(images, "image")) checked; "
            + "\(Self.counted(count(.brokenLink), "broken link")), "
            + "\(Self.counted(count(.missingImage), "missing image")), "
            + Self.counted(count(.unreachablePage), "unreachable page")
    }

    /// `1 page`, `4,567 links`: grouped by threes with commas whatever the locale, so the line
    /// reads the same in every log.
    static func counted(_ count: Int, _ noun: String) -> String {
        var digits = String(count)
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(Substring(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        groups.insert(Substring(digits), at: 0)
        return groups.joined(separator: ",") + " " + noun + (count == 1 ? "" : "s")
    }
}
