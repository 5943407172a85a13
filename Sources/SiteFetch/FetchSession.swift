import Foundation
import SiteCore
import SiteFormats
import Synchronization

/// An answer a collection reads: its bytes, whether they are a property list, and the URL that
/// names it in messages (secrets as `***`; for a stale answer, the URL it was fetched from).
public struct FetchedData: Sendable {
    public var data: Data
    public var format: DatasetFormat
    public var shown: String
    /// When it was fetched, by the clock.
    public var fetched: Date
}

/// The fetching of one build: every request goes through here, so that a URL is fetched once
/// (whichever collections and items ask for it), `concurrency` at a time for the whole build,
/// and the cache, `--offline`, `maxAge` and `onError` are applied in one place.
public final class FetchSession: Sendable {
    public enum Network: Sendable {
        /// Cached answers younger than `maxAge`, else the network.
        case online
        /// Cached answers of any age; never the network (`sitegen build --offline`).
        case offline
        /// As offline, for `sitegen serve`'s rebuilds, which fetch in the background instead.
        case cacheOnly
    }

    public let settings: FetchSettings
    public let cache: DataCache
    public let network: Network
    public let context: FetchContext
    private let environment: [String: String]
    private let clock: @Sendable () -> Date
    private let gate: DispatchSemaphore
    private let state = Mutex(State())
    private let client = Mutex<HTTPFetcher?>(nil)

    private struct State {
        var done: [String: Result<FetchedData, FetchProblem>] = [:]
        var used: Set<String> = []
        var warnings: [String] = []
        var fetchedCount = 0
        var cachedCount = 0
        var oldest: Date?
    }

    public init(
        settings: FetchSettings, cacheFolder: URL, network: Network, context: FetchContext,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.settings = settings
        self.cache = DataCache(folder: cacheFolder)
        self.network = network
        self.context = context
        self.environment = environment
        self.clock = clock
        gate = DispatchSemaphore(value: settings.concurrency)
    }

    /// Ends the HTTP client, if one was started.
    public func close() {
        client.withLock {
            $0?.shutdown(); $0 = nil
        }
    }

    /// Warnings for the build to print (stale answers used), as `<url>: warning: …`.
    public var warnings: [String] { state.withLock { $0.warnings } }
    /// Cache entries this build read or wrote (kept when the cache is pruned).
    public var usedKeys: Set<String> { state.withLock { $0.used } }
    /// Answers fetched over the network, and answers taken from the cache.
    public var counts: (fetched: Int, cached: Int) { state.withLock { ($0.fetchedCount, $0.cachedCount) } }
    /// When the oldest answer used was fetched.
    public var oldestAnswer: Date? { state.withLock { $0.oldest } }

    /// Each request's answer, in order; each distinct request fetched once, `concurrency` at a time.
    public func get(_ requests: [PreparedRequest]) -> [Result<FetchedData, FetchProblem>] {
        var seen: Set<String> = []
        let distinct = requests.filter { seen.insert(Self.identity($0)).inserted }
        let next = Mutex(0)
        let group = DispatchGroup()
        for _ in 0..<min(distinct.count, settings.concurrency) {
            group.enter()
            Thread.detachNewThread {
                while true {
                    let i = next.withLock { n in
                        n += 1; return n - 1
                    }
                    guard i < distinct.count else { break }
                    _ = self.obtain(distinct[i])
                }
                group.leave()
            }
        }
        group.wait()
        return requests.map { obtain($0) }
    }

    static func identity(_ request: PreparedRequest) -> String {
        ([request.url] + request.headers.flatMap { $0 }).joined(separator: "\n")
    }

    /// The answer to `request`: remembered, cached, fetched, or stale.
    private func obtain(_ request: PreparedRequest) -> Result<FetchedData, FetchProblem> {
        let id = Self.identity(request)
        if let done = state.withLock({ $0.done[id] }) { return done }
        let result = answer(request)
        return state.withLock { s in
            if let earlier = s.done[id] { return earlier }
            s.done[id] = result
            if case .success(let d) = result { s.oldest = min(s.oldest ?? d.fetched, d.fetched) }
            return result
        }
    }

    private func answer(_ request: PreparedRequest) -> Result<FetchedData, FetchProblem> {
        let key = request.cacheKey
        var unreadable: Diagnostic?
        if let (entry, data) = cache.lookup(key) {
            let age = clock().timeIntervalSince1970 - entry.fetched
            if network != .online || (age >= 0 && age < Double(settings.maxAge)) {
                let found = Self.fetched(entry, data)
                unreadable = dropped(key, entry, found, request)
                guard unreadable != nil else {
                    state.withLock {
                        $0.used.insert(key); $0.cachedCount += 1
                    }
                    return .success(found)
                }
            }
        }
        if network == .offline, let unreadable {
            let what = "the cached answer was removed from the data cache, since it \(unreadable.message), and "
            let offline = "--offline forbids fetching it again (build once without --offline)"
            return .failure(FetchProblem(what + offline, at: unreadable.location))
        }
        if network != .online {
            return .failure(
                FetchProblem(
                    network == .offline
                        ? "not in the data cache, and --offline forbids fetching it (build once without --offline)"
                        : Self.notFetchedYet + " (sitegen serve fetches it in the background)"))
        }
        switch fetch(request) {
        case .success(let answer):
            let entry = DataCache.Entry(
                url: request.shown, source: request.source,
                fetched: clock().timeIntervalSince1970,
                contentType: answer.contentType, bytes: answer.data.count, digest: ContentHash.wide(answer.data))
            let searched = request.forms(shortest: Self.shortestSecretSearched)
            if searched.contains(where: { answer.data.range(of: Data($0.utf8)) != nil }) {
                let what = "the answer contains the value of a secret ({env.…} or a header)"
                return failed(request, FetchProblem("\(what): refused, so that it is neither cached nor published"))
            }
            let got = Self.fetched(entry, answer.data)
            // Only an answer that reads is kept: a maintenance page sent with 200 must not stand
            // in for the data until maxAge, nor be what --offline builds with.
            if let problem = Self.unreadable(got) {
                let message = request.redact(problem.message) + " (the answer was not cached)"
                return failed(request, FetchProblem(message, at: problem.location))
            }
            do { try cache.store(key, entry, data: answer.data) } catch { return .failure(error) }
            state.withLock {
                $0.used.insert(key); $0.fetchedCount += 1
            }
            return .success(got)
        case .failure(let problem):
            return failed(request, FetchProblem(request.redact(problem.message)))
        }
    }

    public static let notFetchedYet = "not fetched yet"

    /// Secrets shorter than this are not searched for in answers (too likely by chance).
    static let shortestSecretSearched = 8

    /// The failure, or with `onError: stale` the last good answer of the same URL (of any day), with a warning.
    private func failed(_ request: PreparedRequest, _ problem: FetchProblem) -> Result<FetchedData, FetchProblem> {
        guard settings.onError == .stale else { return .failure(problem) }
        var tried: Set<String> = []
        var fallback =
            cache.lookup(request.cacheKey).map { (request.cacheKey, $0.0, $0.1) }
            ?? cache.latest(source: request.source)
        while let (key, entry, data) = fallback {
            tried.insert(key)
            let found = Self.fetched(entry, data)
            guard dropped(key, entry, found, request) != nil else {
                let age = Self.age(clock().timeIntervalSince1970 - entry.fetched)
                let place = problem.at?.line.map { "line \($0), column \(problem.at?.column ?? 1): " } ?? ""
                let why = "since fetching \(request.shown) failed: \(place)\(problem.message)"
                let warning = Diagnostic.visible("\(entry.url): warning: using this answer cached \(age) ago, \(why)")
                state.withLock {
                    $0.used.insert(key); $0.cachedCount += 1; $0.warnings.append(warning)
                }
                return .success(found)
            }
            fallback = cache.latest(source: request.source, excluding: tried)
        }
        let message = "\(problem.message) (onError: stale, but no answer of it is cached)"
        return .failure(FetchProblem(message, at: problem.at))
    }

    /// The problem of an answer that does not read in its format (a maintenance page sent with
    /// 200, a body cut short), located in it; nil when it reads.
    static func unreadable(_ answer: FetchedData) -> Diagnostic? {
        do throws(Diagnostic) {
            _ = try answer.format.read(answer.data, answer.shown, [])
            return nil
        } catch {
            return error
        }
    }

    /// Why the cached answer `found` does not read (kept by an older sitegen, or changed by hand),
    /// located in it ("cannot be read as JSON (…)"); it is then removed from the cache with a
    /// warning, and the caller goes on without it. Nil when it reads.
    private func dropped(
        _ key: String, _ entry: DataCache.Entry, _ found: FetchedData, _ request: PreparedRequest
    ) -> Diagnostic? {
        // The bytes that read when they were stored read again: a large answer is not parsed twice.
        if let digest = entry.digest, digest == ContentHash.wide(found.data) { return nil }
        guard let problem = Self.unreadable(found) else { return nil }
        cache.remove(key)
        let why = Diagnostic(
            problem.location, "cannot be read as \(found.format.name) (\(request.redact(problem.message)))")
        let warning = Diagnostic(why.location, "removed this answer from the data cache: it \(why.message)")
        state.withLock { $0.warnings.append(warning.warningDescription) }
        return why
    }

    private func fetch(_ request: PreparedRequest) -> Result<Answer, FetchProblem> {
        let fetcher: HTTPFetcher
        do {
            fetcher = try client.withLock { c throws(FetchProblem) in
                if let c { return c }
                let made = try HTTPFetcher(settings: settings, environment: environment)
                c = made
                return made
            }
        } catch { return .failure(error) }
        gate.wait()
        defer { gate.signal() }
        return fetcher.fetch(request)
    }

    static func fetched(_ entry: DataCache.Entry, _ data: Data) -> FetchedData {
        let format = DatasetFormat.of(answer: data, url: entry.url, contentType: entry.contentType)
        let fetched = Date(timeIntervalSince1970: entry.fetched)
        return FetchedData(data: data, format: format, shown: entry.url, fetched: fetched)
    }

    /// An age in words: "40 s", "12 min", "3 h 5 min", "2 days".
    static func age(_ seconds: Double) -> String {
        let s = max(0, Int(seconds))
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min" }
        if s < 86_400 { return s % 3600 / 60 == 0 ? "\(s / 3600) h" : "\(s / 3600) h \(s % 3600 / 60) min" }
        return s / 86_400 == 1 ? "1 day" : "\(s / 86_400) days"
    }
}
