import Foundation
import NIOCore
import NIOHTTP1
#if canImport(Glibc)
    import Glibc
#endif

/// What every connection's handler shares: the files, the live-reload hub and the policies.
struct ServedSite: Sendable {
    let files: StaticFiles
    let pages = PageCache()
    let live: LiveReload
    let hosts: HostPolicy
    let limits: ServeLimits
}

/// Answers the requests of one connection as NIO's decoder delivers them, one at a time and
/// synchronously on the connection's event loop (files are local, read whole and kept by
/// `PageCache`: pages for the live-reload script, every file for a complete version to serve
/// while it is rewritten in place; files over half its capacity go out with sendfile).
final class RequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let site: ServedSite
    private let head: HeadGuard
    /// The request being received (nil once answered early, e.g. 405).
    private var request: HTTPRequestHead?
    private var bodyBytes = 0
    /// A live-reload stream holds the connection: its id with the hub.
    private var stream: Int?
    /// Whether a response has been started and not ended (an error can then only close).
    private var responding = false

    init(site: ServedSite, head: HeadGuard) {
        self.site = site
        self.head = head
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            head.headDecoded()
            bodyBytes = 0
            request = nil
            guard stream == nil else { return close(context) }  // nothing may follow an event stream
            if let early = earlyAnswer(h) { return answer(context, h, early, keepAlive: false) }
            request = h
        case .body(let b):
            bodyBytes += b.readableBytes
            if bodyBytes > site.limits.body, let h = request {
                request = nil
                answer(
                    context, h,
                    .text(
                        .payloadTooLarge,
                        "A GET or HEAD request has no body; this one is over \(site.limits.body) bytes.\n"),
                    keepAlive: false)
            }
        case .end:
            head.messageEnded()
            if let h = request {
                request = nil
                serve(context, h)
            }
        }
    }

    /// Answers that need no more than the head, given before any body is read.
    private func earlyAnswer(_ request: HTTPRequestHead) -> Reply? {
        guard request.version.major == 1, request.version.minor <= 1 else {
            return .text(.httpVersionNotSupported, "Only HTTP/1.0 and HTTP/1.1.\n")
        }
        guard request.method == .GET || request.method == .HEAD else {
            return .text(.methodNotAllowed, "Only GET and HEAD.\n", extra: [("Allow", "GET, HEAD")])
        }
        return nil
    }

    private func serve(_ context: ChannelHandlerContext, _ request: HTTPRequestHead) {
        let keepAlive = request.isKeepAlive && head.readsMore
        let hosts = request.headers["Host"]
        if hosts.count > 1 || (hosts.isEmpty && request.version.minor >= 1) {
            return answer(
                context, request, .text(.badRequest, "An HTTP/1.1 request needs one Host header.\n"),
                keepAlive: false)
        }
        if let host = hosts.first, !site.hosts.admits(host) {
            return answer(context, request, .text(.forbidden, HostPolicy.refusal(host)), keepAlive: keepAlive)
        }
        let (path, query) = Self.split(request.uri)
        switch path {
        case LiveReload.eventsPath:
            return openStream(context, request)
        case LiveReload.scriptPath:
            return answer(
                context, request,
                .bytes(.ok, "text/javascript; charset=utf-8", ByteBuffer(string: LiveReload.script)),
                keepAlive: keepAlive)
        default:
            break
        }
        guard site.live.hasSite else { return answer(context, request, Self.building, keepAlive: keepAlive) }
        answer(context, request, reply(path: path, query: query), keepAlive: keepAlive)
    }

    /// A file of the site, a redirect, or a refusal.
    private func reply(path: String, query: String?) -> Reply {
        switch site.files.resolve(path) {
        case .file(let file):
            switch site.pages.version(file, page: ContentType.isHTML(file.path)) {
            case .body(let bytes): return .bytes(.ok, ContentType.of(file.path), bytes)
            case .file: return .file(file)
            case .busy:
                let text = "/\(file.path) is being written; ask again in a moment.\n"
                return .text(.serviceUnavailable, text, extra: [("Retry-After", "1")])
            }
        case .redirect(let to):
            let location = query.map { "\(to)?\($0)" } ?? to
            return .text(.movedPermanently, "Moved to \(location)\n", extra: [("Location", location)])
        case .forbidden:
            return .text(.forbidden, "403 Forbidden: that path leaves the site.\n")
        case .notFound:
            return notFound()
        }
    }

    /// The site's 404.html with status 404, else a page of our own (with the live-reload script
    /// either way, so the page turns up by itself once it is written).
    private func notFound() -> Reply {
        let page =
            site.files.notFoundPage?.contents().map { Data($0.readableBytesView) }
            ?? Data(
                """
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8"><title>404 Not Found</title></head>
                <body><h1>404 Not Found</h1><p>No page at this address.</p></body></html>

                """.utf8)
        return .bytes(.notFound, "text/html; charset=utf-8", ByteBuffer(bytes: LiveReload.inject(page)))
    }

    /// Every request before the first successful build: 503 and a page that reloads itself once the
    /// site exists (or shows the build's error, like any page, if it fails).
    static var building: Reply {
        .bytes(
            .serviceUnavailable, "text/html; charset=utf-8",
            ByteBuffer(
                bytes: LiveReload.inject(
                    Data(
                        """
                        <!doctype html>
                        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" \
                        content="width=device-width, initial-scale=1">
                        <meta name="sitegen-building" content=""><title>Building the site…</title></head>
                        <body><h1>Building the site…</h1><p>sitegen is building the site for the first time. \
                        This page reloads by itself when it is ready.</p></body></html>

                        """.utf8))), extra: [("Retry-After", "1")])
    }

    /// The path and query of a request target as sent.
    static func split(_ uri: String) -> (String, String?) {
        guard let q = uri.firstIndex(of: "?") else { return (uri, nil) }
        let query = uri[uri.index(after: q)...]
        return (String(uri[..<q]), query.isEmpty ? nil : String(query))
    }

    // MARK: - Live reload

    /// `/_sitegen/events`: a Server-Sent Events stream held open until the tab or the server closes it.
    private func openStream(_ context: ChannelHandlerContext, _ request: HTTPRequestHead) {
        var headers = HTTPHeaders([("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-cache")])
        if request.method == .HEAD {
            headers.add(name: "Content-Length", value: "0")
            return write(
                context, HTTPResponseHead(version: request.version, status: .ok, headers: headers), body: nil,
                keepAlive: request.isKeepAlive)
        }
        let loop = context.eventLoop
        let bound = NIOLoopBound(context, eventLoop: loop)
        let events = EventStream(
            send: { data in
                loop.execute {
                    let context = bound.value
                    guard context.channel.isActive else { return }
                    // A listener that stopped reading is dropped rather than buffered for.
                    guard context.channel.isWritable else { return context.close(promise: nil) }
                    context.writeAndFlush(
                        NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: data)))), promise: nil)
                }
            },
            close: {
                loop.execute {
                    let context = bound.value
                    context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)), promise: nil)
                    context.close(promise: nil)
                }
            })
        // The hub queues `hello` on the event loop: it goes out after the head written below.
        guard let id = site.live.subscribe(events) else {
            let message = "\(site.live.maxStreams) live-reload streams are open already; close some tabs.\n"
            return answer(context, request, .text(.serviceUnavailable, message), keepAlive: false)
        }
        headers.add(name: "Connection", value: "keep-alive")
        context.writeAndFlush(
            wrapOutboundOut(
                .head(
                    HTTPResponseHead(
                        version: request.version, status: .ok,
                        headers: headers))), promise: nil)
        responding = true
        stream = id
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let stream { site.live.unsubscribe(stream) }
        stream = nil
        context.fireChannelInactive()
    }

    // MARK: - Errors

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let parse = error as? HTTPParserError
        guard parse != nil || error is ByteToMessageDecoderError, !responding else { return close(context) }
        let reply: Reply
        switch parse {
        case .headerOverflow?: reply = .text(.requestHeaderFieldsTooLarge, "The request's headers are too large.\n")
        case .invalidVersion? where head.hasVersion:
            reply = .text(.httpVersionNotSupported, "Only HTTP/1.0 and HTTP/1.1.\n")
        default: reply = .text(.badRequest, "Malformed request: \(parse.map { "\($0)" } ?? "\(error)").\n")
        }
        let h = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/")
        answer(context, h, reply, keepAlive: false)
    }

    private func close(_ context: ChannelHandlerContext) {
        head.stopReading()
        context.close(promise: nil)
    }
}

/// Sets the limits the server needs to every reply, and writes it.
extension RequestHandler {
    /// A response before its framing headers.
    enum Reply {
        case bytes(HTTPResponseStatus, String, ByteBuffer, extra: [(String, String)] = [])
        case file(ServedFile)

        static func text(_ status: HTTPResponseStatus, _ text: String, extra: [(String, String)] = []) -> Reply {
            .bytes(status, "text/plain; charset=utf-8", ByteBuffer(string: text), extra: extra)
        }
    }

    /// Writes `reply` in answer to `request` (without its body for HEAD).
    func answer(_ context: ChannelHandlerContext, _ request: HTTPRequestHead, _ reply: Reply, keepAlive: Bool) {
        let isHead = request.method == .HEAD
        switch reply {
        case .bytes(let status, let type, let bytes, let extra):
            var headers = HTTPHeaders([
                ("Content-Type", type), ("Cache-Control", "no-cache"), ("Content-Length", String(bytes.readableBytes))
            ])
            for (k, v) in extra { headers.add(name: k, value: v) }
            let version = request.version.major == 1 && request.version.minor <= 1 ? request.version : .http1_1
            let responseHead = HTTPResponseHead(version: version, status: status, headers: headers)
            write(context, responseHead, body: isHead ? nil : .byteBuffer(bytes), keepAlive: keepAlive)
        case .file(let file):
            let size = file.size
            let headers = HTTPHeaders([
                ("Content-Type", ContentType.of(file.path)), ("Cache-Control", "no-cache"),
                ("Content-Length", String(size))
            ])
            let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: file.takeDescriptor())
            let body: IOData? =
                isHead || size == 0 ? nil : .fileRegion(FileRegion(fileHandle: handle, readerIndex: 0, endIndex: size))
            write(
                context, HTTPResponseHead(version: request.version, status: .ok, headers: headers), body: body,
                keepAlive: keepAlive
            ) {
                try? handle.close()
            }
        }
    }

    /// Writes a whole response; then the connection waits for the next request, or closes.
    private func write(
        _ context: ChannelHandlerContext, _ responseHead: HTTPResponseHead, body: IOData?, keepAlive: Bool,
        done: (() -> Void)? = nil
    ) {
        var responseHead = responseHead
        if !keepAlive {
            responseHead.headers.replaceOrAdd(name: "Connection", value: "close")
        } else if responseHead.version.minor == 0 {
            responseHead.headers.replaceOrAdd(name: "Connection", value: "keep-alive")
        }
        responding = true
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
        if let body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        responding = false
        if let done { written.futureResult.assumeIsolated().whenComplete { _ in done() } }
        if keepAlive { head.responseEnded() } else { head.finish(after: written.futureResult) }
    }
}
