/// A path on the site's origin: its percent-decoded segments from "/" and whether it names a
/// folder (ends with "/"). `/bounties/luffy/` → ["bounties", "luffy"], folder.
struct SitePath: Sendable, Hashable {
    var segments: [[UInt8]]
    var isFolder: Bool

    /// The URL path of an output file served under `site.root`: `bounties/luffy/index.html` →
    /// `/root/bounties/luffy/` (how the site links to it), `404.html` → `/root/404.html`.
    init(file: String, site: SiteAddress) {
        var parts = file.split(separator: "/").map { Array($0.utf8) }
        isFolder = parts.last == Array("index.html".utf8)
        if isFolder { parts.removeLast() }
        segments = site.rootSegments + parts
    }

    init(segments: [[UInt8]], isFolder: Bool) {
        self.segments = segments
        self.isFolder = isFolder
    }

    /// The segments a relative reference starts from.
    var folder: ArraySlice<[UInt8]> { isFolder ? segments[...] : segments.dropLast() }

    /// For messages: `/bounties/luffy/`.
    var text: String {
        "/" + segments.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/")
            + (isFolder && !segments.isEmpty ? "/" : "")
    }
}

/// Where a reference leads, as far as the output folder is concerned.
enum Resolution: Sendable, Hashable {
    /// Into the output folder: the path under the base path (decoded bytes, "" for the home page,
    /// ending with "/" for a folder) and the fragment as written (nil without `#`).
    case inside(path: [UInt8], isFolder: Bool, fragment: String?)
    /// The site's own origin, outside the base path (a root-relative path that lacks it): a
    /// problem, since a link meant for another site on the host is written with its origin.
    case outsideBasePath
    /// Another origin or a scheme other than http(s) (`mailto:`, `tel:`, `data:`,
    /// `about:invalid#sitegen-unsafe-url`, …): not checked.
    case external
}

/// Resolves the URLs written in pages the way a browser does (RFC 3986 reference resolution,
/// with the WHATWG URL standard's leniencies that matter for paths: surrounding spaces, tabs
/// and line breaks dropped, `\` as `/`, `%2e` as a dot segment), against the page's own URL.
struct LinkResolver: Sendable {
    let site: SiteAddress

    /// Where `url`, written in a document whose base is `base`, leads. A nil base stands for a
    /// `<base href>` on another origin: only URLs naming the site's host can then lead into it.
    func resolve(_ url: String, from base: SitePath?) -> Resolution {
        guard case .path(let path, let fragment) = absolute(url, from: base) else { return .external }
        let root = site.rootSegments
        guard path.segments.starts(with: root) else { return .outsideBasePath }
        // `/apps` without its slash is the home page: the server redirects it to `/apps/`.
        let rest = path.segments.dropFirst(root.count)
        guard path.isFolder || !rest.isEmpty else { return .inside(path: [], isFolder: true, fragment: fragment) }
        var bytes = Array(rest.joined(separator: [UInt8(ascii: "/")]))
        if path.isFolder, !rest.isEmpty { bytes.append(UInt8(ascii: "/")) }
        return .inside(path: bytes, isFolder: path.isFolder, fragment: fragment)
    }

    enum Absolute: Hashable {
        case path(SitePath, fragment: String?)
        case external
    }

    /// The path on the site's origin `url` leads to, or `.external`. Works on the UTF-8 bytes:
    /// a site's check resolves every link of every page, and String indexing showed in profiles.
    func absolute(_ url: String, from base: SitePath?) -> Absolute {
        var s = Self.cleaned(url)[...]
        var fragment: String?
        if let hash = s.firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(decoding: s[(hash + 1)...], as: UTF8.self)
            s = s[..<hash]
        }
        if let question = s.firstIndex(of: UInt8(ascii: "?")) { s = s[..<question] }  // static hosts ignore the query

        let path: ArraySlice<UInt8>
        var start: ArraySlice<[UInt8]> = []
        if let scheme = Self.scheme(of: s) {
            let rest = s.dropFirst(scheme.utf8.count + 1)
            guard scheme == "http" || scheme == "https", Self.isSlash(rest.first), Self.isSlash(rest.dropFirst().first),
                let authority = Authority(rest.dropFirst(2)), site.owns(authority, scheme: scheme)
            else { return .external }
            path = authority.rest
        } else if Self.isSlash(s.first), Self.isSlash(s.dropFirst().first) {
            guard let authority = Authority(s.dropFirst(2)), site.owns(authority, scheme: site.scheme) else {
                return .external
            }
            path = authority.rest
        } else if Self.isSlash(s.first) {
            guard base != nil else { return .external }  // the path is on the base's (foreign) host
            path = s
        } else {
            guard let base else { return .external }
            if s.isEmpty { return .path(base, fragment: fragment) }  // `#x`, `?q`, "": the page itself
            path = s
            start = base.folder
        }
        return .path(Self.merge(path, onto: start), fragment: fragment)
    }

    /// Applies a path's segments to `start` (the base's folder, or nothing for an absolute path),
    /// removing dot segments.
    static func merge(_ path: ArraySlice<UInt8>, onto start: ArraySlice<[UInt8]>) -> SitePath {
        var segments = Array(start)
        var isFolder = true
        var parts = path.split(omittingEmptySubsequences: false, whereSeparator: { isSlash($0) })
        if isSlash(path.first) { parts.removeFirst() }
        for (k, part) in parts.enumerated() {
            switch dots(part) {
            case 1:
                isFolder = true
            case 2:
                if !segments.isEmpty { segments.removeLast() }  // never above the root
                isFolder = true
            default:
                if k == parts.count - 1, part.isEmpty { isFolder = true; continue }
                segments.append(Percent.decode(Array(part)))
                isFolder = false
            }
        }
        return SitePath(segments: segments, isFolder: isFolder)
    }

    /// 1 for `.`, 2 for `..` (also written with `%2e`), 0 otherwise.
    static func dots(_ part: ArraySlice<UInt8>) -> Int {
        guard part.count <= 6, part.first == UInt8(ascii: ".") || part.first == UInt8(ascii: "%") else { return 0 }
        var count = 0
        var i = part.startIndex
        while i < part.endIndex {
            if part[i] == UInt8(ascii: ".") {
                i += 1
            } else if part[i] == UInt8(ascii: "%"), i + 2 < part.endIndex, part[i + 1] == UInt8(ascii: "2"),
                part[i + 2] | 0x20 == UInt8(ascii: "e")
            {
                i += 3
            } else {
                return 0
            }
            count += 1
        }
        return count <= 2 ? count : 0
    }

    /// The URL's bytes as a browser reads the attribute: leading and trailing C0 controls and
    /// spaces dropped, tabs and line breaks inside removed.
    static func cleaned(_ url: String) -> [UInt8] {
        var bytes = Array(url.utf8)
        while let last = bytes.last, last <= 0x20 { bytes.removeLast() }
        let lead = bytes.firstIndex(where: { $0 > 0x20 }) ?? bytes.endIndex
        if lead > 0 { bytes.removeFirst(lead) }
        bytes.removeAll { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        return bytes
    }

    /// The lower-cased scheme (`https`, `mailto`), or nil for a relative reference.
    static func scheme(of s: ArraySlice<UInt8>) -> String? {
        guard let first = s.first, HTMLScanner.isASCIILetter(first) else { return nil }
        for i in s.indices.dropFirst() {
            let c = s[i]
            if c == UInt8(ascii: ":") { return String(decoding: s[..<i].map(HTMLScanner.asciiLower), as: UTF8.self) }
            guard
                HTMLScanner.isASCIILetter(c) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
                    || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
            else { return nil }
        }
        return nil
    }

    static func isSlash(_ byte: UInt8?) -> Bool { byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") }
}
