/// Where the site is published, from its base URL: which absolute URLs are the site's own, and
/// the path the output folder is served under.
public struct SiteAddress: Sendable, Hashable, CustomStringConvertible {
    /// `example.org`, lower-cased (an IPv6 address keeps its brackets).
    public let host: String
    /// The port when the base URL names one other than its scheme's default.
    public let port: Int?
    /// The base path as written, starting and ending with "/": `/` or `/apps/`.
    public let root: String
    /// `http` or `https`.
    public let scheme: String
    /// The base path's segments, percent-decoded: `/apps/` → ["apps"].
    let rootSegments: [[UInt8]]

    /// Accepts an absolute `http(s)://host[:port][/path]` URL; nil otherwise.
    public init?(baseURL: String) {
        let bytes = Array(baseURL.utf8)[...]
        guard let scheme = LinkResolver.scheme(of: bytes) else { return nil }
        let rest = bytes.dropFirst(scheme.utf8.count + 1)
        guard scheme == "http" || scheme == "https", rest.starts(with: "//".utf8),
            let authority = Authority(rest.dropFirst(2)), !authority.host.isEmpty
        else { return nil }
        var path = String(decoding: authority.rest, as: UTF8.self)
        guard !path.contains("?"), !path.contains("#") else { return nil }
        if !path.hasPrefix("/") { path = "/" + path }
        if !path.hasSuffix("/") { path += "/" }
        self.scheme = scheme
        host = authority.host
        port = authority.port(scheme: scheme)
        root = path
        rootSegments = path.split(separator: "/").map { Percent.decode(Array($0.utf8)) }
    }

    public var description: String { "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")\(root)" }

    /// Whether an absolute URL's authority is this site's. `http` and `https` count alike:
    /// a link to `http://example.org/x` from an https site is still a link into the site
    /// (hosts redirect one to the other), so it is checked rather than ignored.
    func owns(_ authority: Authority, scheme: String) -> Bool {
        authority.host == host && authority.port(scheme: scheme) == port
    }
}

/// The `host[:port]` after `//`, and the rest of the URL.
struct Authority {
    var host: String
    var port: Int?
    var rest: ArraySlice<UInt8>

    /// Splits `user@host:port/path`; nil when the port is not a number.
    init?(_ text: ArraySlice<UInt8>) {
        let end =
            text.firstIndex(where: {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "?")
                    || $0 == UInt8(ascii: "#")
            }) ?? text.endIndex
        var hostPort = text[..<end]
        if let at = hostPort.lastIndex(of: UInt8(ascii: "@")) { hostPort = hostPort[(at + 1)...] }
        var hostBytes = hostPort
        port = nil
        let closing = hostPort.lastIndex(of: UInt8(ascii: "]"))
        if let colon = hostPort.lastIndex(of: UInt8(ascii: ":")), closing.map({ $0 < colon }) ?? true {
            hostBytes = hostPort[..<colon]
            let digits = hostPort[(colon + 1)...]
            guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            port = digits.isEmpty ? nil : Int(String(decoding: digits, as: UTF8.self))
        }
        // `example.org.` is the same host
        if hostBytes.count > 1, hostBytes.last == UInt8(ascii: ".") { hostBytes = hostBytes.dropLast() }
        host = String(decoding: hostBytes.map(HTMLScanner.asciiLower), as: UTF8.self)
        rest = text[end...]
    }

    /// The explicit port, or nil when it is absent or the scheme's default.
    func port(scheme: String) -> Int? {
        guard let port else { return nil }
        return port == (scheme == "https" ? 443 : 80) ? nil : port
    }
}

/// Percent-decoding to bytes: `%XY` becomes its byte, a `%` not followed by two hex digits stays
/// (as in the WHATWG URL standard). Bytes, not a String: the file system compares bytes, and
/// Swift's String equality would match a decomposed "é" against a precomposed file name that
/// a server would not serve.
enum Percent {
    static func decode(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "%")) else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count,
                let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2])
            {
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
