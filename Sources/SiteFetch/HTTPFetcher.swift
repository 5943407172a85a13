import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// A 2xx answer's bytes and type.
public struct Answer: Sendable {
    public var data: Data
    public var contentType: String?
}

/// Why a request failed, said without its URL (the caller names it), and whether trying again may help.
struct AttemptFailure: Error {
    var message: String
    var retryable: Bool
    /// The server's Retry-After, in seconds.
    var retryAfter: Double? = nil
    /// No connection could be made (the message then says how to build without the server).
    var unreachable = false
}

/// HTTP GET with AsyncHTTPClient (SwiftNIO, BoringSSL): certificates verified against the
/// system's roots or `SSL_CERT_FILE`'s, each attempt bounded by `timeout` and the answer by
/// `maxBytes`, redirects followed here (at most 5) so that each is checked, retries with
/// backoff on connection errors, timeouts, 5xx and 429 (Retry-After honoured up to a minute).
/// Blocking: called from the loading threads, never from an event loop.
final class HTTPFetcher: Sendable {
    let client: HTTPClient
    let settings: FetchSettings

    static let maxRedirects = 5
    /// The longest Retry-After waited for; a server asking more is a failure at once.
    static let longestWait = 60.0

    init(settings: FetchSettings, environment: [String: String]) throws(FetchProblem) {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let file = environment["SSL_CERT_FILE"], !file.isEmpty {
            guard FileManager.default.isReadableFile(atPath: file) else {
                throw FetchProblem("SSL_CERT_FILE names '\(file)', which cannot be read")
            }
            tls.trustRoots = .file(file)
        }
        var configuration = HTTPClient.Configuration()
        configuration.tlsConfiguration = tls
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: Self.amount(settings.timeout), read: Self.amount(settings.timeout))
        configuration.decompression = .disabled
        // A refused connection or an unknown host fails the attempt at once: by default the pool
        // tries to connect again and again until `timeout` (a stopped API stalled each attempt).
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.settings = settings
    }

    func shutdown() { try? client.syncShutdown() }

    static func amount(_ seconds: Double) -> TimeAmount { .nanoseconds(Int64(seconds * 1e9)) }

    /// The request, tried again as `retries` allows; the failure's message and attempts.
    func fetch(_ request: PreparedRequest) -> Result<Answer, FetchProblem> {
        var attempt = 0
        while true {
            attempt += 1
            let failure: AttemptFailure
            switch once(request) {
            case .success(let answer): return .success(answer)
            case .failure(let f): failure = f
            }
            let tries = attempt == 1 ? "" : " (\(attempt) attempts)"
            guard failure.retryable, attempt <= settings.retries else {
                let hint = failure.unreachable && settings.onError == .fail ? Self.withoutTheServer : ""
                return .failure(FetchProblem(failure.message + tries + hint))
            }
            let wait = failure.retryAfter ?? Self.backoff(attempt)
            guard wait <= Self.longestWait else {
                let longest = Self.seconds(Self.longestWait)
                let asks = "it asks to retry after \(Self.seconds(wait)), longer than sitegen waits (\(longest))"
                return .failure(FetchProblem("\(failure.message); \(asks)\(tries)"))
            }
            Thread.sleep(forTimeInterval: wait)
        }
    }

    /// The ways to build while a server cannot be reached (README, "Live data").
    static let withoutTheServer =
        "; to build without it, set fetch.onError: stale (the last good answer) or pass --offline (the cached answers)"

    /// 0.5 s, 1 s, 2 s … after the first, second, third failed attempt.
    static func backoff(_ attempt: Int) -> Double { 0.5 * Double(1 << min(attempt - 1, 6)) }

    /// One attempt, its redirects followed.
    func once(_ request: PreparedRequest) -> Result<Answer, AttemptFailure> {
        var url = request.url
        var headers = request.headers
        for _ in 0...Self.maxRedirects {
            let response: HTTPClient.Response
            switch send(url, headers: headers) {
            case .success(let got): response = got
            case .failure(let f): return .failure(f)
            }
            let code = Int(response.status.code)
            if [301, 302, 303, 307, 308].contains(code), let location = response.headers.first(name: "Location") {
                switch Self.redirect(from: url, to: location) {
                case .success(let next):
                    // The user's headers (credentials) go only where they were written for.
                    let host = { (url: String) in URL(string: url)?.host?.lowercased() }
                    if host(next) != host(request.url) { headers = [] }
                    url = next
                    continue
                case .failure(let f): return .failure(f)
                }
            }
            let data = response.body.map { Data($0.readableBytesView) } ?? Data()
            guard (200..<300).contains(code) else {
                // Redacted whole before its start is cut: a cut secret would escape redaction.
                let start = Self.start(of: request.redact(String(decoding: data, as: UTF8.self)))
                let retryAfter = response.headers.first(name: "Retry-After").flatMap(Self.retryAfter)
                let body = start.isEmpty ? "" : ": \(start)"
                return .failure(
                    AttemptFailure(
                        message: "the server answered \(code) \(response.status.reasonPhrase)\(body)",
                        retryable: code >= 500 || code == 429, retryAfter: retryAfter))
            }
            return .success(Answer(data: data, contentType: response.headers.first(name: "Content-Type")))
        }
        return .failure(AttemptFailure(message: "more than \(Self.maxRedirects) redirects", retryable: false))
    }

    private func send(_ url: String, headers: [[String]]) -> Result<HTTPClient.Response, AttemptFailure> {
        do {
            let accept = "application/json, application/x-plist;q=0.9, */*;q=0.1"
            var fields = HTTPHeaders([("User-Agent", "sitegen"), ("Accept", accept)])
            for h in headers { fields.replaceOrAdd(name: h[0], value: h[1]) }
            let request = try HTTPClient.Request(url: url, method: .GET, headers: fields)
            let accumulator = ResponseAccumulator(request: request, maxBodySize: settings.maxBytes)
            return .success(
                try client.execute(
                    request: request, delegate: accumulator,
                    deadline: .now() + Self.amount(settings.timeout)
                ).wait())
        } catch {
            return .failure(describe(error))
        }
    }

    /// The next URL of a redirect, refused when it leaves http(s) or goes from a public address
    /// to a private one.
    static func redirect(from url: String, to location: String) -> Result<String, AttemptFailure> {
        guard let base = URL(string: url), let next = URL(string: location, relativeTo: base)?.absoluteURL else {
            return .failure(
                AttemptFailure(
                    message: "redirected to '\(location)', which is not a URL",
                    retryable: false))
        }
        let scheme = next.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https", let host = next.host, !host.isEmpty else {
            let what = "redirected to '\(next.absoluteString)', which is not an http(s) URL: refused"
            return .failure(AttemptFailure(message: what, retryable: false))
        }
        if let from = base.host, AddressPolicy.leavesPublic(from: from, to: host) {
            let what = "redirected from a public address to '\(next.absoluteString)', a private one: refused"
            return .failure(AttemptFailure(message: what, retryable: false))
        }
        return .success(next.absoluteString)
    }

    /// A transport error in words, and whether it is worth another attempt.
    func describe(_ error: any Error) -> AttemptFailure {
        if error is ResponseAccumulator.ResponseTooBigError {
            let what = "the answer is larger than fetch.maxBytes (\(settings.maxBytes) bytes)"
            return AttemptFailure(message: what, retryable: false)
        }
        if let e = error as? HTTPClientError, [.deadlineExceeded, .readTimeout, .connectTimeout].contains(e) {
            return AttemptFailure(
                message: "no answer within \(Self.seconds(settings.timeout)) (fetch.timeout)",
                retryable: true)
        }
        if error is NIOSSLError || error is BoringSSLError {
            let hint = "(is the server's certificate from a trusted authority? see SSL_CERT_FILE)"
            return AttemptFailure(message: "TLS failed: \(error) \(hint)", retryable: false)
        }
        if let e = error as? HTTPClientError {
            let again: [HTTPClientError] = [
                .remoteConnectionClosed, .uncleanShutdown, .writeTimeout, .tlsHandshakeTimeout
            ]
            guard again.contains(e) else {
                // A request the client refuses (it is no connection problem, and the same next time).
                return AttemptFailure(message: "the request failed: \(e)", retryable: false)
            }
            return AttemptFailure(message: "the connection failed: \(e)", retryable: true)
        }
        return connectFailure(error)
    }

    /// A connection that could not be made. Refused, an unknown host, an unreachable network:
    /// the next attempt would fail the same, so none is made.
    func connectFailure(_ error: any Error) -> AttemptFailure {
        var cause = error
        if let e = error as? NIOConnectionError {
            cause = e.connectionErrors.first?.error ?? e.dnsAError ?? e.dnsAAAAError ?? error
        }
        if let unknown = cause as? SocketAddressError.UnknownHost {
            let what =
                "cannot connect: cannot resolve the host '\(unknown.host)' (\(unknown.errorDescription.lowercased()))"
            return AttemptFailure(message: what, retryable: false, unreachable: true)
        }
        let final = [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL]
        let code = (cause as? IOError)?.errnoCode
        return AttemptFailure(
            message: "cannot connect: \(Self.text(cause))", retryable: !final.contains(code ?? 0), unreachable: true)
    }

    static func text(_ error: any Error) -> String {
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)).lowercased() }
        return "\(error)"
    }

    /// The first 200 characters of a body, on one line.
    static func start(of data: Data) -> String { start(of: String(decoding: data.prefix(1000), as: UTF8.self)) }

    /// The first 200 characters of a text, on one line.
    static func start(of body: String) -> String {
        let text = String(body.prefix(1000)).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    /// Retry-After as seconds: a number, or an HTTP date.
    static func retryAfter(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let s = Double(trimmed), s >= 0 { return s }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return f.date(from: trimmed).map { max(0, $0.timeIntervalSinceNow) }
    }

    static func seconds(_ amount: Double) -> String {
        amount == amount.rounded() ? "\(Int(amount)) s" : "\(amount) s"
    }
}
