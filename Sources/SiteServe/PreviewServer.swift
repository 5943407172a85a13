import FlyingFox
import SiteCore
import FlyingSocks
import Foundation

/// Why the preview server could not start.
public struct ServeError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// Serves a built site over HTTP for preview: files of one folder under the site's base path,
/// pages with the live-reload script added, `Cache-Control: no-cache` on everything.
public final class PreviewServer: Sendable {
    public let files: StaticFiles
    public let live = LiveReload()
    private let server: HTTPServer
    private let host: String
    private let port: UInt16

    public init(folder: URL, root: String, host: String, port: UInt16) throws(ServeError) {
        files = StaticFiles(folder: folder, root: root)
        self.host = host
        self.port = port
        let address: any SocketAddress
        do {
            address = host.contains(":") ? try sockaddr_in6.inet6(ip6: host, port: port)
                : try sockaddr_in.inet(ip4: host == "localhost" ? "127.0.0.1" : host, port: port)
        } catch {
            throw ServeError(description: "'\(host)' is not an IP address to listen on (use e.g. 127.0.0.1, 0.0.0.0 or ::1)")
        }
        let handler = Handler(files: files, live: live)
        server = HTTPServer(config: .init(address: address, timeout: 30, logger: .disabled), handler: handler)
    }

    /// Starts listening; returns the address it listens on (the port is the one the system
    /// picked when asked for port 0). Throws when the address cannot be used.
    public func start() async throws(ServeError) -> (host: String, port: UInt16) {
        let server = self.server
        let ended = OnceFlag()
        let run = Task {
            defer { ended.set() }
            try await server.run()
        }
        // Listening, or run() gave up (a port in use fails at once; do not wait out a timeout).
        var listening = false
        for _ in 0..<500 where !ended.isSet {
            if await server.isListening { listening = true; break }
            try? await Task.sleep(for: .milliseconds(10))
        }
        if !listening {
            let timedOut = !ended.isSet
            if timedOut { run.cancel() }
            // run() failed before listening: say why.
            let reason: String
            switch await run.result {
            case _ where timedOut:
                reason = "the server did not start listening within 5 seconds"
            case .failure(SocketError.failed(_, let code, _)) where code == EADDRINUSE:
                reason = "the port is already in use (choose another with --port, or --port 0 for any free port)"
            case .failure(SocketError.failed(_, let code, _)) where code == EACCES:
                reason = "permission denied (ports below 1024 need privileges; choose another with --port)"
            case .failure(SocketError.failed(_, let code, _)) where code == EADDRNOTAVAIL:
                reason = "this machine has no such address"
            case .failure(let e): reason = "\(e)"
            case .success: reason = "the server stopped"
            }
            throw ServeError(description: "cannot listen on \(host):\(port): \(reason)")
        }
        if case .ip4(let h, let p)? = await server.listeningAddress { return (h, p) }
        if case .ip6(let h, let p)? = await server.listeningAddress { return (h, p) }
        return (host, port)
    }

    /// Closes every live-reload stream and stops listening.
    public func stop() async {
        await live.finish()
        await server.stop(timeout: 1)
    }
}

/// Answers one request: the live-reload endpoints, else a file of the site.
struct Handler: HTTPHandler {
    let files: StaticFiles
    let live: LiveReload

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let head = request.method == .HEAD
        guard request.method == .GET || head else {
            return Self.response(.methodNotAllowed, type: "text/plain; charset=utf-8", body: Data("Only GET and HEAD.\n".utf8), head: false,
                                 extra: [HTTPHeader("Allow"): "GET, HEAD"])
        }
        let path = request.target.path()
        switch path {
        case LiveReload.eventsPath:
            var headers = HTTPHeaders()
            headers[.contentType] = "text/event-stream; charset=utf-8"
            headers[.cacheControl] = "no-cache"
            if head { return HTTPResponse(statusCode: .ok, headers: headers) }
            let events = await live.subscribe()
            return HTTPResponse(statusCode: .ok, headers: headers, body: HTTPBodySequence(from: EventBytes(events: events)))
        case LiveReload.scriptPath:
            return Self.response(.ok, type: "text/javascript; charset=utf-8", body: Data(LiveReload.script.utf8), head: head)
        default:
            break
        }
        guard await live.hasSite else { return Self.building(head: head) }
        switch files.resolve(path) {
        case .file(let url):
            guard let data = try? Data(contentsOf: url) else { return notFound(head: head) }
            let type = ContentType.of(url)
            return Self.response(.ok, type: type, body: ContentType.isHTML(url) ? LiveReload.inject(data) : data, head: head)
        case .redirect(let to):
            let query = request.target.query()
            let location = query.isEmpty ? to : "\(to)?\(query)"
            return Self.response(.movedPermanently, type: "text/plain; charset=utf-8", body: Data("Moved to \(location)\n".utf8), head: head,
                                 extra: [.location: location])
        case .forbidden:
            return Self.response(.forbidden, type: "text/plain; charset=utf-8", body: Data("403 Forbidden: that path leaves the site.\n".utf8), head: head)
        case .notFound:
            return notFound(head: head)
        }
    }

    /// The site's 404.html with status 404, else a page of our own (with the live-reload script
    /// either way, so the page turns up by itself once it is written).
    func notFound(head: Bool) -> HTTPResponse {
        let page = files.notFoundPage.flatMap { try? Data(contentsOf: $0) } ?? Data("""
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>404 Not Found</title></head>
        <body><h1>404 Not Found</h1><p>No page at this address.</p></body></html>

        """.utf8)
        return Self.response(.notFound, type: "text/html; charset=utf-8", body: LiveReload.inject(page), head: head)
    }

    /// Every request before the first successful build: 503 and a page that reloads itself once the
    /// site exists (or shows the build's error, like any page, if it fails).
    static func building(head: Bool) -> HTTPResponse {
        let page = Data("""
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="sitegen-building" content=""><title>Building the site…</title></head>
        <body><h1>Building the site…</h1><p>sitegen is building the site for the first time. This page reloads by itself when it is ready.</p></body></html>

        """.utf8)
        return response(.serviceUnavailable, type: "text/html; charset=utf-8", body: LiveReload.inject(page), head: head,
                        extra: [HTTPHeader("Retry-After"): "1"])
    }

    static func response(_ status: HTTPStatusCode, type: String, body: Data, head: Bool, extra: [HTTPHeader: String] = [:]) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers[.contentType] = type
        headers[.cacheControl] = "no-cache"
        headers[.contentLength] = String(body.count)
        for (k, v) in extra { headers[k] = v }
        return HTTPResponse(statusCode: status, headers: headers, body: head ? Data() : body)
    }
}
