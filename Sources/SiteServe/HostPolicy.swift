import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Which `Host` names the preview answers: a DNS-rebinding page reaches the server under its own
/// name, so only names that cannot be rebound (localhost, `*.localhost`, IP literals) and those the
/// user names with `--allowed-host` are served.
public struct HostPolicy: Sendable {
    /// Lower-case names admitted besides the built-in ones.
    public let allowed: Set<String>

    public init(allowed: [String] = []) {
        self.allowed = Set(allowed.map { Self.normalized($0) })
    }

    /// Whether a request with this `Host` header value is answered.
    public func admits(_ host: String) -> Bool {
        let name = Self.name(of: host)
        guard !name.isEmpty else { return false }
        if name == "localhost" || name.hasSuffix(".localhost") || allowed.contains(name) { return true }
        return Self.isIPLiteral(name)
    }

    /// The one line a refused request gets: which option admits it.
    static func refusal(_ host: String) -> String {
        let shown = String(
            name(of: host).unicodeScalars.filter { $0.value > 0x20 && $0.value < 0x7F }.prefix(200).map(Character.init))
        let name = shown.isEmpty ? "NAME" : shown
        return
            "403 Forbidden: the preview answers only localhost, *.localhost and IP addresses; restart sitegen "
            + "serve with --allowed-host \(name) to admit Host '\(name)'.\n"
    }

    /// The host part of a `Host` value: without the port and brackets, lower-cased, no final dot.
    static func name(of host: String) -> String {
        var h = Substring(host.trimmingCharacters(in: .whitespaces))
        if h.hasPrefix("[") {
            guard let close = h.firstIndex(of: "]") else { return "" }
            let rest = h[h.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber)) else { return "" }
            // Brackets hold an IPv6 address and nothing else.
            let inside = String(h[h.index(after: h.startIndex)..<close]).lowercased()
            var v6 = in6_addr()
            return inet_pton(AF_INET6, inside, &v6) == 1 ? inside : ""
        }
        if let colon = h.lastIndex(of: ":") {
            guard h[h.index(after: colon)...].allSatisfy(\.isNumber) else { return "" }
            h = h[..<colon]
        }
        return normalized(String(h))
    }

    static func normalized(_ name: String) -> String {
        var n = name.lowercased()
        if n.hasSuffix(".") { n.removeLast() }
        return n
    }

    static func isIPLiteral(_ name: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, name, &v4) == 1 || inet_pton(AF_INET6, name, &v6) == 1
    }
}
