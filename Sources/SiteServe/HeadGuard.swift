import NIOCore
import NIOHTTP1

/// Sits in front of NIO's HTTP decoder and counts the bytes of each request head as they arrive
/// (it does not parse them: the request line ends at the first LF, the head at an empty line), so
/// an oversized request line gets 414 and oversized headers 431 as soon as the limit is passed,
/// before anything buffers them. It also drops connections that are slow to send a head
/// (`headerTimeout`) or idle between requests (`idleTimeout`), and closes connections the
/// server is done with without losing the last answer (`finish`).
///
/// The request handler tells it where messages end (`headDecoded`, `messageEnded`,
/// `responseEnded`): bytes after a head belong to the next head unless the request has a body,
/// and then nothing after that request is read.
final class HeadGuard: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// What has been counted of the head being received.
    struct Head {
        var line = 0
        var inLine = true
        var headers = 0
        var fields = 0
        var current = 0
        /// The last 8 bytes of the request line (without CR), to tell an unsupported version
        /// (`HTTP/9.9`: 505) from a line without one (400) when the decoder rejects both alike.
        var tail: UInt64 = 0
        var lastCR = false
    }

    private enum Mode {
        case head(Head)
        /// A body follows the head: passed on uncounted until the message ends.
        case body
        /// Answered for the last time: what arrives is dropped.
        case closing
    }

    private enum Timer { case none, header, idle, linger }

    /// How long a connection being closed keeps reading (and dropping) what the client still
    /// sends, so the answer is read before the close resets the connection.
    static let linger = 1.0

    private let limits: ServeLimits
    private var mode = Mode.head(Head())
    /// The counts of the head last passed on (for `hasVersion`).
    private var lastHead = Head()
    /// Whether bytes of the next head have arrived.
    private var started = false
    private var decodedHead = false
    private var ended = false
    /// Requests whose head is complete and whose response is not yet written.
    private var inFlight = 0
    private var timer: Scheduled<Void>?
    private var timerKind = Timer.none
    private var context: ChannelHandlerContext?

    init(limits: ServeLimits) { self.limits = limits }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { arm(.header) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if timerKind == .none { arm(.header) }
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        while buffer.readableBytes > 0 {
            switch mode {
            case .closing:
                return
            case .body:
                context.fireChannelRead(wrapInboundOut(buffer))
                return
            case .head(var head):
                if !started {
                    started = true
                    if timerKind == .idle || timerKind == .none { arm(.header) }
                }
                let counted = Self.count(buffer.readableBytesView, into: &head, limits: limits)
                mode = .head(head)
                lastHead = head
                switch counted {
                case .more:
                    context.fireChannelRead(wrapInboundOut(buffer))
                    return
                case .tooLong(let status):
                    reject(context, status)
                    return
                case .headEnds(let length):
                    finishHead(context, buffer.readSlice(length: length)!)
                }
            }
        }
    }

    /// Passes one whole head to the decoder; what follows is the next head, or a body.
    private func finishHead(_ context: ChannelHandlerContext, _ head: ByteBuffer) {
        started = false
        decodedHead = false
        ended = false
        inFlight += 1
        disarm()
        mode = .head(Head())
        context.fireChannelRead(wrapInboundOut(head))
        guard case .head = mode else { return }
        if !decodedHead {
            mode = .closing  // the decoder failed, or a request line without headers: its handler answers
        } else if !ended {
            mode = .body
        }
    }

    enum Counted: Equatable { case more, headEnds(Int), tooLong(HTTPResponseStatus) }

    /// Counts `bytes` into `head`: where the head ends, or which limit it passes.
    static func count(_ bytes: ByteBufferView, into head: inout Head, limits: ServeLimits) -> Counted {
        var offset = 0
        for byte in bytes {
            offset += 1
            if head.inLine {
                // The line's length without its CRLF: a CR counts until the LF shows it ends the line.
                if byte == UInt8(ascii: "\n") {
                    if head.line - (head.lastCR ? 1 : 0) > limits.requestLine { return .tooLong(.uriTooLong) }
                    head.inLine = false
                    continue
                }
                head.lastCR = byte == UInt8(ascii: "\r")
                if !head.lastCR { head.tail = head.tail << 8 | UInt64(byte) }
                head.line += 1
                if head.line > limits.requestLine + 1 { return .tooLong(.uriTooLong) }
                continue
            }
            head.headers += 1
            if head.headers > limits.headerBytes { return .tooLong(.requestHeaderFieldsTooLarge) }
            if byte == UInt8(ascii: "\n") {
                if head.current == 0 {
                    return .headEnds(offset)
                }
                head.fields += 1
                head.current = 0
                if head.fields > limits.headerFields { return .tooLong(.requestHeaderFieldsTooLarge) }
            } else if byte != UInt8(ascii: "\r") {
                head.current += 1
            }
        }
        return .more
    }

    /// Answers a head past a limit, then closes.
    private func reject(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus) {
        let text =
            status == .uriTooLong
            ? "The request line is longer than \(limits.requestLine) bytes.\n"
            : "The request has more than \(limits.headerFields) header fields or \(limits.headerBytes) bytes of "
                + "headers.\n"
        var out = context.channel.allocator.buffer(capacity: 256)
        out.writeString(
            "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "Cache-Control: no-cache\r\nContent-Length: \(text.utf8.count)\r\nConnection: close\r\n\r\n\(text)")
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(out), promise: written)
        finish(after: written.futureResult)
    }

    // MARK: - Told by the request handler

    /// Whether the request line being decoded ends in a well-formed version, `HTTP/d.d`.
    var hasVersion: Bool {
        let b = (0..<8).map { UInt8(truncatingIfNeeded: lastHead.tail >> (8 * (7 - $0))) }
        let digit = { (c: UInt8) in c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        return Array(b[0..<5]) == Array("HTTP/".utf8) && digit(b[5]) && b[6] == UInt8(ascii: ".") && digit(b[7])
    }

    /// Whether the connection can take another request (false after a request with a body).
    var readsMore: Bool {
        if case .closing = mode { return false }
        return true
    }

    /// The decoder made a head of the bytes passed on.
    func headDecoded() { decodedHead = true }

    /// The decoder reached the end of a message (at once for a request without a body).
    func messageEnded() {
        ended = true
        if case .body = mode { mode = .closing }
    }

    /// A response was written; with no request left waiting, the connection is idle.
    func responseEnded() {
        inFlight = max(0, inFlight - 1)
        if inFlight == 0 && !started && timerKind == .none { arm(.idle) }
    }

    /// Ends the connection once `written` (the last answer) is sent: nothing more is read, the
    /// sending side shuts, and the connection closes when the client closes or after `linger`.
    func finish(after written: EventLoopFuture<Void>) {
        mode = .closing
        disarm()
        written.assumeIsolated().whenComplete { [weak self] result in
            guard let self, let context = self.context else { return }
            if case .failure = result { return context.close(promise: nil) }
            context.close(mode: .output, promise: nil)
            self.arm(.linger)
        }
    }

    /// The connection is being closed without an answer: nothing more is read.
    func stopReading() {
        mode = .closing
        disarm()
    }

    // MARK: - Timers

    private func arm(_ kind: Timer) {
        disarm()
        guard let context else { return }
        let seconds: Double
        switch kind {
        case .none: return
        case .header: seconds = limits.headerTimeout
        case .idle: seconds = limits.idleTimeout
        case .linger: seconds = Self.linger
        }
        timerKind = kind
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(seconds * 1e9))) { [weak self] in
            self?.timerKind = .none
            self?.context?.close(promise: nil)
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
        timerKind = .none
    }
}
