import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import SiteCore
#if canImport(Glibc)
    import Glibc
    private let RLIMIT_NOFILE_ID = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#else
    import Darwin
    private let RLIMIT_NOFILE_ID = RLIMIT_NOFILE
#endif

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

    public init(
        folder: URL, root: String, host: String, port: UInt16, allowedHosts: [String] = [],
        limits: ServeLimits = ServeLimits()
    ) throws(ServeError) {
        files = StaticFiles(folder: folder, root: root)
        live = LiveReload(maxStreams: limits.eventStreams)
        site = ServedSite(files: files, live: live, hosts: HostPolicy(allowed: allowedHosts), limits: limits)
        self.host = host == "localhost" ? "127.0.0.1" : host
        self.port = port
        guard HostPolicy.isIPLiteral(self.host) else {
            throw ServeError(
                description: "'\(host)' is not an IP address to listen on (use e.g. 127.0.0.1, 0.0.0.0 or ::1)")
        }
        group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, System.coreCount))
    }

    /// Starts listening; returns the address it listens on (the port is the one the system
    /// picked when asked for port 0). Throws when the address cannot be used.
    public func start() async throws(ServeError) -> (host: String, port: UInt16) {
        let site = self.site
        Self.allowDescriptors(site.limits.connections + 256)
        let gate = ConnectionGate(limit: site.limits.connections)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 512)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(.socketOption(.so_keepalive), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 4)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(gate) }
            }
            .childChannelInitializer { channel in
                Self.admit(channel, site: site, gate: gate)
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

    /// Sets up a new connection, or refuses it at once if the acceptor found too many open.
    private static func admit(_ channel: any Channel, site: ServedSite, gate: ConnectionGate) -> EventLoopFuture<Void> {
        guard gate.admitted(channel) else {
            return channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Refusal()) }
        }
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

    /// Raises the soft limit of open files towards `count` (up to the hard limit), so the
    /// connection bound, not a smaller descriptor limit (256 or 1,024 by default on some systems),
    /// decides when connections are refused.
    static func allowDescriptors(_ count: Int) {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_ID, &limit) == 0, limit.rlim_cur < rlim_t(count) else { return }
        limit.rlim_cur = min(rlim_t(count), limit.rlim_max)
        _ = setrlimit(RLIMIT_NOFILE_ID, &limit)
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
        let ch = channel.withLockedValue { c in
            defer { c = nil }; return c
        }
        try? await ch?.close()
        try? await group.shutdownGracefully()
    }
}

/// Counts open connections as the acceptor takes them, in the order they came, and marks those
/// past the limit; each connection's set-up then refuses the marked ones.
final class ConnectionGate: ChannelInboundHandler, Sendable {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    private struct State {
        var open = 0
        var refused: Set<ObjectIdentifier> = []
    }
    private let limit: Int
    private let state = NIOLockedValueBox(State())

    init(limit: Int) { self.limit = limit }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let child = unwrapInboundIn(data)
        let admitted = state.withLockedValue { s in
            guard s.open < limit else {
                s.refused.insert(ObjectIdentifier(child))
                return false
            }
            s.open += 1
            return true
        }
        let id = ObjectIdentifier(child)
        child.closeFuture.whenComplete { [state] _ in
            state.withLockedValue { s in
                if admitted { s.open -= 1 } else { s.refused.remove(id) }
            }
        }
        context.fireChannelRead(data)
    }

    /// Whether `child` may be served (false once for each connection marked as refused).
    func admitted(_ child: any Channel) -> Bool {
        state.withLockedValue { $0.refused.remove(ObjectIdentifier(child)) == nil }
    }
}

/// A connection past the limit: told so and closed as soon as it is active, nothing read.
final class Refusal: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let text = "Too many connections; try again.\n"
    static let response =
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        + "Content-Length: \(text.utf8.count)\r\nConnection: close\r\n\r\n\(text)"

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: Self.response)), promise: nil)
        context.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
