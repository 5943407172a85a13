import Testing
import SiteCore
import SiteFetch
@testable import SiteLoad

/// `fetch:` and `data:` URLs in site.yml.
@Suite struct FetchConfigTests {
    static func site(_ collection: String, fetch: String = "") -> String {
        """
        title: T
        baseURL: https://example.org/
        \(fetch)
        collections:
          box:
        \(collection)
            slug: movieCd

        """
    }

    @Test func readsURLsHeadersAndSettings() throws {
        let c = try SiteConfig.parse(
            Self.site(
                """
                    data: { url: "https://api.example.org/list?key={env.KEY}&d={yesterday:YYYYMMDD}", headers: { Authorization: "Client-ID {env.KEY}" } }
                    join:
                      info: { data: "https://api.example.org/movie?cd={movieCd}", items: movieInfoResult.movieInfo, key: movieCd }
                """,
                fetch:
                    "fetch: { timeout: 2.5, retries: 0, maxAge: 60, maxBytes: 1000, concurrency: 2, onError: stale, timeZone: Asia/Seoul }"
            ),
            file: "site.yml")
        let box = c.collections[0]
        #expect(box.dataFiles.isEmpty && box.readsHTTP)
        #expect(box.remote?.url.description == "https://api.example.org/list?key={env.KEY}&d={yesterday:YYYYMMDD}")
        #expect(box.remote?.headers.map(\.name) == ["Authorization"])
        #expect(box.remote?.at.line == 6)
        #expect(box.joins[0].remote?.url.fields == ["movieCd"])
        var expected = FetchSettings()
        (expected.timeout, expected.retries, expected.maxAge, expected.maxBytes, expected.concurrency) = (
            2.5, 0, 60, 1000, 2
        )
        (expected.onError, expected.timeZone) = (.stale, "Asia/Seoul")
        #expect(c.fetch == expected)
    }

    @Test func defaultsWithoutFetch() throws {
        let c = try SiteConfig.parse(Self.site("    data: \"https://api.example.org/list\""), file: "site.yml")
        #expect(c.fetch == FetchSettings())
        #expect(c.collections[0].remote?.url.isHTTP == true)
    }

    @Test func reportsBadSettings() {
        #expect(
            configErrors(
                Self.site(
                    "    data: a.json",
                    fetch:
                        "fetch: { onError: retry, timeZone: Mars/Olympus, concurrency: 0, retries: 11, timeout: 0, maxBytes: 0, cache: yes }"
                )) == [
                    "site.yml:3:104: error: unknown key 'fetch.cache' (expected one of: concurrency, maxAge, maxBytes, onError, retries, timeZone, timeout)",
                    "site.yml:3:88: error: 'fetch.timeout' must be a number of seconds above 0 and at most 600 (found 0.0)",
                    "site.yml:3:75: error: 'fetch.retries' must be from 0 to 10 (found 11)",
                    "site.yml:3:101: error: 'fetch.maxBytes' must be a number of bytes from 1 to 4000000000 (found 0)",
                    "site.yml:3:63: error: 'fetch.concurrency' must be from 1 to 64 (found 0)",
                    "site.yml:3:19: error: 'fetch.onError' must be fail or stale (found 'retry')",
                    "site.yml:3:36: error: 'fetch.timeZone' must be a time zone such as UTC or Asia/Seoul (found 'Mars/Olympus')"
                ])
    }

    @Test func reportsBadURLs() {
        #expect(
            configErrors(Self.site("    data: \"https://api.example.org/m?cd={movieCd}\"")) == [
                "site.yml:6:11: error: 'collections.box.data' uses {movieCd}, an item's field: only a join's URL has an item to take it from"
            ])
        #expect(
            configErrors(Self.site("    data: [a.json, \"https://api.example.org/x\"]")) == [
                "site.yml:6:11: error: 'collections.box.data' lists a URL: a URL must be the only data of a collection or join"
            ])
        #expect(
            configErrors(Self.site("    data: \"https://api.example.org/x?k={env.}\"")) == [
                "site.yml:6:11: error: 'collections.box.data' '{env.}' does not name an environment variable (letters, digits and '_')"
            ])
        #expect(
            configErrors(Self.site("    data: { url: \"{env.HOST}/x\" }")) == [
                "site.yml:6:18: error: 'collections.box.data.url' must start with http:// or https:// and a host, written out (found '{env.HOST}/x')"
            ])
        #expect(
            configErrors(Self.site("    data: { url: \"https://x.org/\", headers: { \"Bad Name\": v }, method: POST }"))
                .count == 2)
    }
}
