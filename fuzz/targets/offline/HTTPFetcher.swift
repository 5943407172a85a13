import Foundation

// The fuzzed readers never fetch: this stands in for Sources/SiteFetch/HTTPFetcher.swift, whose
// AsyncHTTPClient cannot be compiled into a fuzz target's one module. Every request fails.

/// A 2xx answer's bytes and type (as in SiteFetch).
public struct Answer: Sendable {
    public var data: Data
    public var contentType: String?
}

final class HTTPFetcher: Sendable {
    init(settings: FetchSettings, environment: [String: String]) throws(FetchProblem) {
        throw FetchProblem("no network while fuzzing")
    }

    func shutdown() {}

    func fetch(_ r: PreparedRequest) -> Result<Answer, FetchProblem> { .failure(FetchProblem("no network while fuzzing")) }
}
