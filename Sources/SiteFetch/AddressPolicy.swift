import Foundation

/// Which addresses are private (this machine, the local network, a cloud's metadata service):
/// an API on the internet must not redirect a build to them.
public enum AddressPolicy {
    /// Whether an IPv4 or IPv6 address (as text) is loopback, private, link-local, shared
    /// (carrier-grade NAT), unspecified or unique-local; IPv4-mapped IPv6 as its IPv4.
    public static func isPrivate(_ address: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            return isPrivate(v4: withUnsafeBytes(of: &v4) { Array($0) })
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return true }  // not an address: not trusted
        let b = withUnsafeBytes(of: &v6) { Array($0) }
        if b[0..<10].allSatisfy({ $0 == 0 }), b[10] == 0xFF, b[11] == 0xFF { return isPrivate(v4: Array(b[12..<16])) }
        if b[0..<15].allSatisfy({ $0 == 0 }), b[15] <= 1 { return true }  // :: and ::1
        if b[0] & 0xFE == 0xFC { return true }  // fc00::/7 unique local
        if b[0] == 0xFE, b[1] & 0xC0 == 0x80 { return true }  // fe80::/10 link-local
        return false
    }

    static func isPrivate(v4 b: [UInt8]) -> Bool {
        switch (b[0], b[1]) {
        case (0, _), (10, _), (127, _): return true
        case (100, 64...127): return true  // shared address space (carrier-grade NAT)
        case (169, 254): return true  // link-local, cloud metadata services
        case (172, 16...31), (192, 168): return true
        default: return false
        }
    }

    /// The addresses `host` resolves to (an address literal is itself); empty when it does not resolve.
    public static func resolve(_ host: String) -> [String] {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(bare, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var out: [String] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let size = socklen_t(text.count)
            if getnameinfo(info.pointee.ai_addr, info.pointee.ai_addrlen, &text, size, nil, 0, NI_NUMERICHOST) == 0 {
                out.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            cursor = info.pointee.ai_next
        }
        return out
    }

    /// Whether a redirect from `from` to `to` (hosts) leaves the internet for a private address:
    /// the first resolves to public addresses only and the second to a private one.
    public static func leavesPublic(from: String, to: String) -> Bool {
        let source = resolve(from)
        guard !source.isEmpty, !source.contains(where: isPrivate) else { return false }
        return resolve(to).contains(where: isPrivate)
    }
}
