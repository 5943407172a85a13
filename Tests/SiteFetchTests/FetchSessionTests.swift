import AsyncHTTPClient
import Foundation
import SiteFormats
import Testing
import SiteCore
@testable import SiteFetch

/// Answers that do not read are neither cached nor used: a fetched one fails, a cached one is
/// removed with a warning (issue 47's poisoned cache).
@Suite struct FetchSessionTests {
    /// A loopback port nothing listens on: bound, then closed.
    static func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                guard bind(fd, $0, size) == 0, getsockname(fd, $0, &size) == 0 else {
                    throw CocoaError(.fileNoSuchFile)
                }
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func unreadable() {
        func problem(_ body: String, plist: Bool) -> Diagnostic? {
            FetchSession.unreadable(
                FetchedData(
                    data: Data(body.utf8), format: plist ? .propertyList : .json, shown: "https://x/", fetched: Date()))
        }
        #expect(problem("[1, 2]", plist: false) == nil)
        #expect(problem("<html>down</html>", plist: false)?.location.line == 1)
        #expect(problem("{\"a\": [1,", plist: false) != nil)  // cut short
        let plist = "<?xml version=\"1.0\"?><plist version=\"1.0\"><array><integer>1</integer></array></plist>"
        #expect(problem(plist, plist: true) == nil)
        #expect(problem("[1, 2]", plist: true) != nil)
    }

    @Test func staleSkipsAnUnreadableAnswer() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-fetch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var settings = FetchSettings()
        settings.onError = .stale
        settings.retries = 0
        let context = FetchContext(environment: [:], today: CalendarDate(year: 2025, month: 1, day: 2))
        let source = RemoteSource(
            url: try URLTemplate("http://127.0.0.1:\(try Self.closedPort())/list.json?d={today:YYYYMMDD}"),
            at: SourceLocation(file: "site.yml"))
        let request = try source.prepare(context)
        let session = FetchSession(settings: settings, cacheFolder: folder, network: .online, context: context)
        defer { session.close() }
        // Two earlier days: the newer one's body no longer reads.
        let good = Data("[1]".utf8), bad = Data("<html>".utf8)
        for (key, day, data) in [("older", 100.0, good), ("newer", 200.0, bad)] {
            let entry = DataCache.Entry(
                url: "\(request.shown)-\(key)", source: request.source, fetched: day, contentType: nil,
                bytes: data.count)
            try session.cache.store(key, entry, data: data)
        }
        let answer = try session.get([request])[0].get()
        #expect(answer.data == good)
        #expect(session.cache.lookup("newer") == nil)
        #expect(session.warnings.count == 2)
        #expect(session.warnings.first?.contains("removed this answer from the data cache") == true)
        #expect(session.warnings.last?.contains("cannot connect: connection refused") == true)
    }
}

extension FetchPolicyTests {
    @Test func onlyConnectionProblemsAreRetried() throws {
        let fetcher = try HTTPFetcher(settings: FetchSettings(), environment: [:])
        defer { fetcher.shutdown() }
        let refused = fetcher.describe(HTTPClientError.invalidHeaderFieldValues(["x"]))
        #expect(!refused.retryable && refused.message.hasPrefix("the request failed: "))
        #expect(fetcher.describe(HTTPClientError.remoteConnectionClosed).retryable)
    }
}
