/// What one client may cost the preview server; past each limit it gets its answer at once
/// (or its connection closed) instead of holding memory or a core.
public struct ServeLimits: Sendable, Equatable {
    /// Bytes of the request line (method, target, version); longer → 414.
    public var requestLine = 8 * 1024
    /// Bytes of the header lines after the request line; more → 431.
    public var headerBytes = 16 * 1024
    /// Header lines; more → 431.
    public var headerFields = 100
    /// Seconds a connection may take to send a request's headers (from its first byte, or from
    /// the connection's opening for the first request) before it is dropped.
    public var headerTimeout = 10.0
    /// Seconds a kept-alive connection may wait for its next request.
    public var idleTimeout = 60.0
    /// Connections open at once; the next ones are refused (503, closed) as they arrive.
    public var connections = 1024
    /// Live-reload streams open at once (each is an open tab); the next ones get 503.
    public var eventStreams = 64
    /// Bytes of a request body (a GET or HEAD has none; this only bounds what is read and dropped).
    public var body = 64 * 1024

    public init() {}
}
