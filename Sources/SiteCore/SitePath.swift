import Foundation

/// Site paths and their percent-encoding.
public enum SitePath {
    /// The longest file name (one path segment, in UTF-8 bytes) Linux file systems allow: every
    /// output path is checked against it while planning, before anything is written.
    public static let maximumSegmentBytes = 255

    /// The first segment of `path` ("/"-separated) longer than `maximumSegmentBytes`.
    public static func overlongSegment(_ path: some StringProtocol) -> Substring? {
        path.split(separator: "/").first { $0.utf8.count > maximumSegmentBytes }.map { Substring($0) }
    }

    /// Fills a URL pattern's `{slug}` with the percent-encoded slug: `/bounties/{slug}/` →
    /// `/bounties/%EB%A3%A8%ED%94%BC/`.
    public static func fill(_ pattern: String, slug: String) -> String {
        let token = Array("{slug}".utf8)
        var out: [UInt8] = []
        var encoded: [UInt8]?
        var rest = pattern.utf8[...]
        while let brace = rest.firstIndex(of: UInt8(ascii: "{")) {
            out += rest[..<brace]
            rest = rest[brace...]
            if rest.starts(with: token) {
                if encoded == nil { encoded = Array(encodeSegment(slug).utf8) }
                out += encoded ?? []
                rest = rest.dropFirst(token.count)
            } else {
                out.append(UInt8(ascii: "{"))
                rest = rest.dropFirst()
            }
        }
        out += rest
        return String(decoding: out, as: UTF8.self)
    }

    /// The output file of a site path: `/bounties/luffy/` → `bounties/luffy/index.html`
    /// (decoded: the file system holds the UTF-8 name).
    public static func file(for sitePath: String) -> String {
        var decoded =
            sitePath.utf8.contains(UInt8(ascii: "%")) ? sitePath.removingPercentEncoding ?? sitePath : sitePath
        if decoded.hasPrefix("/") { decoded.removeFirst() }
        return decoded.isEmpty || decoded.hasSuffix("/") ? decoded + "index.html" : decoded
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters, as UTF-8.
    public static func encodeSegment(_ segment: String) -> String {
        if segment.utf8.allSatisfy(isUnreserved) { return segment }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(segment.utf8.count * 3)
        for b in segment.utf8 {
            if isUnreserved(b) { out.append(b) } else { out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]] }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// The folder of a relative file path, as NSString's `deletingLastPathComponent` gives it for
    /// the scan's paths (`notes/a/b.md` → `notes/a`, `b.md` → empty), without bridging to NSString.
    public static func folder(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }

    /// A relative file path's name without its extension, as NSString's `lastPathComponent` and
    /// `deletingPathExtension` give it (`notes/v1.2.md` → `v1.2`; `.md`, whose only dot starts the
    /// name, stays whole), without bridging to NSString.
    public static func stem(of path: String) -> String {
        let utf8 = path.utf8
        let name = utf8.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
        guard let dot = utf8[name...].lastIndex(of: UInt8(ascii: ".")), dot != name else {
            return String(path[name...])
        }
        return String(path[name..<dot])
    }

    /// A relative file path's extension, as NSString's `pathExtension` gives it (`a/b.MD` → `MD`,
    /// `a/.md` → empty), without bridging to NSString: the content scan asks it of every file.
    public static func `extension`(of path: String) -> Substring {
        let utf8 = path.utf8, dot = UInt8(ascii: "."), slash = UInt8(ascii: "/")
        guard let last = utf8.lastIndex(where: { $0 == dot || $0 == slash }), utf8[last] == dot,
            last != utf8.startIndex, utf8[utf8.index(before: last)] != slash  // a dot that starts the name
        else { return "" }
        return path[utf8.index(after: last)...]
    }

    /// Percent-encodes a relative file path segment by segment (for `src` of content files).
    public static func encodePath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { encodeSegment(String($0)) }.joined(
            separator: "/")
    }
}
