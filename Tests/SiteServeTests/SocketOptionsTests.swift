import Foundation
import Testing
@testable import SiteServe
#if canImport(Glibc)
    import Glibc
#endif

/// The accepted connection's socket options, read from the server's own socket in this process:
/// without TCP_NODELAY every request after the first on a keep-alive connection waits ~40 ms
/// (Nagle's algorithm meeting delayed ACKs), which no status code shows.
@Suite struct SocketOptionsTests {
    @Test func acceptedConnectionsHaveNoDelay() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sitegen-sockopt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<!DOCTYPE html><title>t</title>".utf8).write(to: folder.appendingPathComponent("index.html"))
        let server = try PreviewServer(folder: folder, root: "/", host: "127.0.0.1", port: 0)
        let (_, port) = try await server.start()

        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(client >= 0)
        defer { close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(connected == 0)
        let request = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"
        #expect(request.withCString { send(client, $0, strlen($0), 0) } == request.utf8.count)
        var buffer = [UInt8](repeating: 0, count: 4096)
        #expect(recv(client, &buffer, buffer.count, 0) > 0)  // answered: the server side is set up

        let clientPort = Self.port(of: client, peer: false)
        let accepted = try #require(
            Self.descriptors().first { fd in
                fd != client && Self.port(of: fd, peer: false) == port && Self.port(of: fd, peer: true) == clientPort
            }, "the server's socket for this connection was not found")
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        #expect(getsockopt(accepted, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &length) == 0)
        #expect(value != 0, "TCP_NODELAY is off on accepted connections")
        await server.stop()
    }

    static func descriptors() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
    }

    /// The local (or peer) TCP port of an IPv4 socket, or nil.
    static func port(of fd: Int32, peer: Bool) -> UInt16? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length)
            }
        }
        guard result == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
        return UInt16(bigEndian: address.sin_port)
    }
}
