import Foundation

/// `fetch:` of site.yml: how collections read from HTTP APIs are fetched and cached.
public struct FetchSettings: Sendable, Hashable {
    /// What a failed fetch does to the build.
    public enum OnError: String, Sendable, Hashable, CaseIterable {
        /// The build fails (exit 1) and the previous output stays.
        case fail
        /// The last good answer from the cache is used, with a warning naming it and its age.
        case stale
    }

    /// Seconds one attempt of a request may take, from connecting to the last byte.
    public var timeout: Double = 10
    /// Attempts after the first, on connection errors, timeouts, 5xx and 429.
    public var retries = 2
    /// Seconds a cached answer is used without asking again.
    public var maxAge = 3600
    /// A larger answer is an error (an API gone wrong must not fill the disk).
    public var maxBytes = 20_000_000
    /// Requests in flight at once, for the whole build.
    public var concurrency = 4
    public var onError = OnError.fail
    /// The zone `{today:…}` and `{yesterday:…}` are days of (an IANA name such as Asia/Seoul).
    public var timeZone = "UTC"

    public init() {}
}
