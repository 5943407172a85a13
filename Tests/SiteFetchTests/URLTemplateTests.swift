import Foundation
import Testing
import SiteCore
@testable import SiteFetch

@Suite struct URLTemplateTests {
    static let kobis =
        "https://kobis.or.kr/x/searchDailyBoxOfficeList.json?key={env.KOBIS_KEY}&targetDt={yesterday:YYYYMMDD}"
    static let secret = "s3cr3t-KEY-0123456789"

    func context(
        _ day: CalendarDate = CalendarDate(year: 2025, month: 1, day: 1), env: [String: String] = ["KOBIS_KEY": secret]
    ) -> FetchContext {
        FetchContext(environment: env, today: day)
    }

    @Test func fillsEnvironmentAndYesterday() throws {
        let source = RemoteSource(url: try URLTemplate(Self.kobis), at: SourceLocation(file: "site.yml"))
        let r = try source.prepare(context())
        // Yesterday of 1 January is in the year before.
        #expect(r.url == "https://kobis.or.kr/x/searchDailyBoxOfficeList.json?key=\(Self.secret)&targetDt=20241231")
        #expect(r.shown == "https://kobis.or.kr/x/searchDailyBoxOfficeList.json?key=***&targetDt=20241231")
        #expect(r.source == "https://kobis.or.kr/x/searchDailyBoxOfficeList.json?key=***&targetDt={yesterday:YYYYMMDD}")
        #expect(!r.cacheKey.contains(Self.secret))
        #expect(r.redact("invalid key \(Self.secret)!") == "invalid key ***!")
    }

    @Test func cacheKeyIgnoresSecretsButNotDays() throws {
        let source = RemoteSource(url: try URLTemplate(Self.kobis), at: SourceLocation(file: "site.yml"))
        let a = try source.prepare(context(env: ["KOBIS_KEY": "one-key-123"]))
        let b = try source.prepare(context(env: ["KOBIS_KEY": "another-key-456"]))
        let c = try source.prepare(context(CalendarDate(year: 2025, month: 1, day: 2)))
        #expect(a.cacheKey == b.cacheKey)
        #expect(a.cacheKey != c.cacheKey)
        #expect(a.source == c.source)
    }

    @Test func missingOrEmptyVariableIsNamed() throws {
        let source = RemoteSource(url: try URLTemplate(Self.kobis), at: SourceLocation(file: "site.yml"))
        for env in [[:], ["KOBIS_KEY": ""]] {
            #expect(
                throws: FetchProblem(
                    "{env.KOBIS_KEY} is not set: export the environment variable KOBIS_KEY before building")
            ) {
                try source.prepare(context(env: env))
            }
        }
    }

    @Test func fieldsAreEncodedAndRequired() throws {
        let source = RemoteSource(
            url: try URLTemplate("https://api.example.org/m?q={title}&cd={movieCd}"),
            at: SourceLocation(file: "site.yml"))
        let r = try source.prepare(context(), fields: ["title": .string("a&b=c d/é"), "movieCd": .int(2019)])
        #expect(r.url == "https://api.example.org/m?q=a%26b%3Dc%20d%2F%C3%A9&cd=2019")
        #expect(throws: FetchProblem("the item has no field 'movieCd' for {movieCd} of the URL")) {
            try source.prepare(context(), fields: ["title": .string("x")])
        }
    }

    @Test func headersAreSecrets() throws {
        let source = RemoteSource(
            url: try URLTemplate("https://api.unsplash.com/photos?per_page=30"),
            headers: [.init(name: "Authorization", value: try URLTemplate("Client-ID {env.UNSPLASH_KEY}"))],
            at: SourceLocation(file: "site.yml"))
        let r = try source.prepare(context(env: ["UNSPLASH_KEY": "abcdefgh12345"]))
        #expect(r.headers == [["Authorization", "Client-ID abcdefgh12345"]])
        #expect(r.secrets.contains("Client-ID abcdefgh12345"))
        #expect(r.redact("sent Client-ID abcdefgh12345") == "sent ***")
    }

    @Test func badPlaceholdersAreRefused() {
        #expect(throws: FetchProblem.self) { try URLTemplate("https://x/{env.1A}") }
        #expect(throws: FetchProblem.self) { try URLTemplate("https://x/{env.}") }
        #expect(throws: FetchProblem.self) { try URLTemplate("https://x/{today:xyz}") }
        #expect(throws: FetchProblem.self) { try URLTemplate("https://x/{when:YYYY}") }
        #expect(throws: FetchProblem.self) { try URLTemplate("https://x/\u{7}") }
        #expect((try? URLTemplate("https://x/{today}"))?.parts.count == 2)
        #expect((try? URLTemplate("https://x/{{literal}}"))?.parts == [.text("https://x/{literal}")])
        #expect((try? URLTemplate("{env.HOST}/x"))?.isHTTP == false)
        #expect((try? URLTemplate("https://"))?.isHTTP == false)
    }

    @Test func nonHTTPResultIsRefused() throws {
        // No host: a third slash.
        let source = RemoteSource(url: try URLTemplate("https:///x?k={env.K}"), at: SourceLocation(file: "site.yml"))
        #expect(throws: FetchProblem("'https:///x?k=***' is not an http(s) URL once its placeholders are filled in")) {
            try source.prepare(context(env: ["K": "value"]))
        }
    }
}

@Suite struct FetchContextTests {
    /// 2025-01-04 20:00 UTC is already 2025-01-05 05:00 in Seoul.
    static let epoch = "1736020800"

    @Test func todayIsSourceDateEpochInTheTimeZone() throws {
        let seoul = try FetchContext.current(
            timeZone: TimeZone(identifier: "Asia/Seoul")!, environment: ["SOURCE_DATE_EPOCH": Self.epoch])
        let utc = try FetchContext.current(
            timeZone: TimeZone(identifier: "UTC")!, environment: ["SOURCE_DATE_EPOCH": Self.epoch])
        #expect(seoul.today == CalendarDate(year: 2025, month: 1, day: 5))
        #expect(utc.today == CalendarDate(year: 2025, month: 1, day: 4))
        #expect(seoul.day(offset: -1) == CalendarDate(year: 2025, month: 1, day: 4))
    }

    @Test func clockWithoutSourceDateEpoch() throws {
        let c = try FetchContext.current(
            timeZone: TimeZone(identifier: "UTC")!, environment: [:], clock: Date(timeIntervalSince1970: 86_400 * 365))
        #expect(c.today == CalendarDate(year: 1971, month: 1, day: 1))
    }

    @Test func badSourceDateEpoch() {
        #expect(throws: FetchProblem("SOURCE_DATE_EPOCH must be a whole number of seconds since 1970 (found 'soon')")) {
            try FetchContext.current(timeZone: TimeZone(identifier: "UTC")!, environment: ["SOURCE_DATE_EPOCH": "soon"])
        }
    }
}

@Suite struct AddressPolicyTests {
    @Test func privateAddresses() {
        for a in [
            "127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1",
            "0.0.0.0", "::1", "::", "fd00::1", "fe80::1", "::ffff:127.0.0.1", "not an address"
        ] {
            #expect(AddressPolicy.isPrivate(a), "\(a)")
        }
        for a in [
            "8.8.8.8", "172.32.0.1", "172.15.0.1", "100.128.0.1", "198.51.100.7", "2001:db8::1", "::ffff:8.8.8.8",
            "169.255.0.1"
        ] {
            #expect(!AddressPolicy.isPrivate(a), "\(a)")
        }
    }

    @Test func redirectsFromPublicToPrivate() {
        #expect(AddressPolicy.leavesPublic(from: "8.8.8.8", to: "127.0.0.1"))
        #expect(AddressPolicy.leavesPublic(from: "8.8.8.8", to: "[::1]"))
        #expect(!AddressPolicy.leavesPublic(from: "127.0.0.1", to: "127.0.0.1"))
        #expect(!AddressPolicy.leavesPublic(from: "8.8.8.8", to: "8.8.4.4"))
    }
}

@Suite struct FetchPolicyTests {
    @Test func retryAfter() {
        #expect(HTTPFetcher.retryAfter("3") == 3)
        #expect(HTTPFetcher.retryAfter(" 0 ") == 0)
        #expect(HTTPFetcher.retryAfter("-1") == nil)
        #expect(HTTPFetcher.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT") == 0)  // in the past: at once
        #expect(HTTPFetcher.retryAfter("soon") == nil)
    }

    @Test func backoffDoubles() {
        #expect([1, 2, 3, 4].map(HTTPFetcher.backoff) == [0.5, 1, 2, 4])
    }

    @Test func startOfBody() {
        #expect(
            HTTPFetcher.start(of: Data("  {\"error\":\n  \"no such key\"}\n".utf8)) == "{\"error\": \"no such key\"}")
        #expect(HTTPFetcher.start(of: Data(String(repeating: "a", count: 300).utf8)).count == 201)
    }

    /// An answer's format: by its type, else its URL's name, else its bytes, else JSON.
    @Test func formatByTypeNameOrBytes() {
        func format(_ type: String?, _ url: String, _ body: String = "") -> String {
            FetchSession.fetched(
                DataCache.Entry(url: url, source: url, fetched: 0, contentType: type, bytes: 0), Data(body.utf8)
            ).format.name
        }
        #expect(format("application/x-plist", "https://x/a") == "a property list")
        #expect(format(nil, "https://x/Photos.plist?key=***") == "a property list")
        #expect(format("application/json", "https://x/a.plist") == "JSON")
        #expect(format(nil, "https://x/a?format=.plist") == "JSON")
        #expect(format("text/csv; charset=utf-8", "https://x/a") == "CSV")
        #expect(format(nil, "https://x/export.CSV") == "CSV")
        #expect(format("text/plain", "https://x/a", "bplist00…") == "a property list")
        #expect(format("text/plain", "https://x/a", "\u{FEFF} <?xml version=\"1.0\"?>") == "JSON", "not at the start")
        #expect(format("text/plain", "https://x/a", "<?xml version=\"1.0\"?><plist>") == "a property list")
        #expect(format("text/plain", "https://x/a", "\u{FEFF}\n [1]") == "JSON")
    }

    @Test func ages() {
        #expect(
            [5, 150, 3600, 3700, 86_400, 200_000].map { FetchSession.age(Double($0)) } == [
                "5 s", "2 min", "1 h", "1 h 1 min", "1 day", "2 days"
            ])
    }
}

@Suite struct DataCacheTests {
    func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-datacache-\(UUID().uuidString)")
    }

    @Test func storesAndFindsTheLatestOfASource() throws {
        let cache = DataCache(folder: folder())
        defer { try? FileManager.default.removeItem(at: cache.folder) }
        try cache.store(
            "a", .init(url: "https://x/?d=1", source: "https://x/?d={today}", fetched: 100, contentType: nil, bytes: 2),
            data: Data("[]".utf8))
        try cache.store(
            "b", .init(url: "https://x/?d=2", source: "https://x/?d={today}", fetched: 200, contentType: nil, bytes: 3),
            data: Data("[1]".utf8))
        try cache.store(
            "c", .init(url: "https://y/", source: "https://y/", fetched: 300, contentType: nil, bytes: 2),
            data: Data("{}".utf8))
        #expect(cache.lookup("a")?.1 == Data("[]".utf8))
        #expect(cache.latest(source: "https://x/?d={today}")?.key == "b")
        #expect(cache.latest(source: "https://z/") == nil)
        #expect(cache.latest(source: "https://x/?d={today}", excluding: ["b"])?.key == "a")
        // A body cut short (a killed build's) is no entry.
        try Data("[".utf8).write(to: cache.folder.appendingPathComponent("a.body"))
        #expect(cache.lookup("a") == nil)
    }

    @Test func pruneKeepsWhatIsUsedAndRecent() throws {
        let cache = DataCache(folder: folder())
        defer { try? FileManager.default.removeItem(at: cache.folder) }
        for key in ["old", "kept"] {
            try cache.store(
                key, .init(url: "https://x/\(key)", source: key, fetched: 1, contentType: nil, bytes: 1),
                data: Data("1".utf8))
        }
        // written just now
        #expect(cache.prune(keeping: ["kept"], untouchedSince: Date().addingTimeInterval(-60)) == 0)
        #expect(cache.prune(keeping: ["kept"], untouchedSince: Date().addingTimeInterval(60)) == 2)
        #expect(cache.lookup("kept") != nil && cache.lookup("old") == nil)
    }
}
