import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import SiteCore

/// Why the preview server could not start.
public struct ServeError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// Serves a built site over HTTP for preview: files of one folder under the site's base path,
/// pages with the live-reload script added, `Cache-Control: no-cache` on everything, within
/// `ServeLimits` and for the hosts of `HostPolicy` only.
public final class PreviewServer: Sendable {
    public let files: StaticFiles
    public let live: LiveReload
    private let site: ServedSite
    private let host: String
    private let port: UInt16
    private let group: MultiThreadedEventLoopGroup
    private let channel = NIOLockedValueBox<(any Channel)?>(nil)
    private let open = NIOLockedValueBox(0)

    public init(folder: URL, root: String, host: String, port: UInt16, allowedHosts: [String] = [],
                limits: ServeLimits = ServeLimits()) throws(ServeError) {
        files = StaticFiles(folder: folder, root: root)
        live = LiveReload(maxStreams: limits.eventStreams)
        site = ServedSite(files: files, live: live, hosts: HostPolicy(allowed: allowedHosts), limits: limits)
        self.host = host == "localhost" ? "127.0.0.1" : host
        self.port = port
        guard HostPolicy.isIPLiteral(self.host) else {
            throw ServeError(description: "'\(host)' is not an IP address to listen on (use e.g. 127.0.0.1, 0.0.0.0 or ::1)")
        }
        group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, System.coreCount))
    }

    /// Starts listening; returns the address it listens on (the port is the one the system
    /// picked when asked for port 0). Throws when the address cannot be used.
    public func start() async throws(ServeError) -> (host: String, port: UInt16) {
        let site = self.site
        let open = self.open
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 512)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(.socketOption(.so_keepalive), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 4)
            .childChannelInitializer { channel in
                Self.admit(channel, site: site, open: open)
            }
        do {
            let ch = try await bootstrap.bind(host: host, port: Int(port)).get()
            channel.withLockedValue { $0 = ch }
            let address = ch.localAddress
            return (address?.ipAddress ?? host, UInt16(address?.port ?? Int(port)))
        } catch {
            try? await group.shutdownGracefully()
            throw ServeError(description: "cannot listen on \(host):\(port): \(Self.reason(error))")
        }
    }

    /// Sets up a new connection, or refuses it at once when `limits.connections` are open.
    private static func admit(_ channel: any Channel, site: ServedSite, open: NIOLockedValueBox<Int>) -> EventLoopFuture<Void> {
        let admitted = open.withLockedValue { n in
            guard n < site.limits.connections else { return false }
            n += 1
            return true
        }
        guard admitted else {
            let text = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 34\r\nConnection: close\r\n\r\nToo many connections; try again.\r\n"
            return channel.writeAndFlush(ByteBuffer(string: text)).always { _ in channel.close(promise: nil) }
        }
        channel.closeFuture.whenComplete { _ in open.withLockedValue { $0 -= 1 } }
        do {
            let head = HeadGuard(limits: site.limits)
            let sync = channel.pipeline.syncOperations
            try sync.addHandler(head)
            try sync.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
            try sync.addHandler(HTTPResponseEncoder())
            try sync.addHandler(RequestHandler(site: site, head: head))
            return channel.eventLoop.makeSucceededVoidFuture()
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
    }

    /// Why binding failed, in the user's words.
    static func reason(_ error: any Error) -> String {
        guard let io = error as? IOError else { return "\(error)" }
        switch io.errnoCode {
        case EADDRINUSE: return "the port is already in use (choose another with --port, or --port 0 for any free port)"
        case EACCES: return "permission denied (ports below 1024 need privileges; choose another with --port)"
        case EADDRNOTAVAIL: return "this machine has no such address"
        default: return "\(io)"
        }
    }

    /// Closes every live-reload stream and connection, and stops listening.
    public func stop() async {
        live.finish()
        let ch = channel.withLockedValue { c in defer { c = nil }; return c }
        try? await ch?.close()
        try? await group.shutdownGracefully()
    }
}
