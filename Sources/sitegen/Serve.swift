import ArgumentParser
import Foundation
import SiteBuild
import SiteCore
import SiteServe
import SiteWatch

/// `sitegen serve`: build, serve over HTTP, rebuild what an edit touches and reload open pages.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the site, serve it for preview and rebuild on every change, reloading open pages.",
        discussion:
            "Watches site.yml, content/ and templates/. The site is written to a temporary folder (removed on "
            + "exit) unless --output names one; public/ is not touched."
    )

    @OptionGroup var site: SiteOptions

    @Option(name: .long, help: "The port to listen on (0: any free port).")
    var port: Int = 8000

    @Option(name: .long, help: "The address to listen on; 0.0.0.0 makes the preview reachable from other machines.")
    var host: String = "127.0.0.1"

    @Option(name: .long, help: "Write the site here and keep it on exit (default: a temporary folder).")
    var output: String?

    @Flag(name: .long, help: "Notice changes by scanning the files instead of inotify (e.g. on network file systems).")
    var poll = false

    @Option(
        name: .customLong("allowed-host"),
        help: ArgumentHelp(
            "Also answer requests for this host name (repeatable); by default only localhost, *.localhost and IP "
                + "addresses are answered.",
            valueName: "name"))
    var allowedHosts: [String] = []

    // Limits a test can shorten; not for users.
    @Option(name: .customLong("header-timeout"), help: .hidden) var headerTimeout: Double = ServeLimits().headerTimeout
    @Option(name: .customLong("idle-timeout"), help: .hidden) var idleTimeout: Double = ServeLimits().idleTimeout
    @Option(name: .customLong("max-connections"), help: .hidden) var maxConnections: Int = ServeLimits().connections
    @Option(name: .customLong("max-event-streams"), help: .hidden) var maxEventStreams: Int = ServeLimits().eventStreams

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        for name in allowedHosts
        where name.isEmpty || name.contains(where: { $0 == ":" || $0 == "/" || $0.isWhitespace }) {
            throw ValidationError(
                "--allowed-host takes a host name without port or scheme, e.g. --allowed-host mybox.lan (got '\(name)')"
            )
        }
        // The temporary output is new: only the cache is checked then.
        _ = try site.buildOptions(output: output ?? Self.temporaryFolder().appendingPathComponent("site").path)
    }

    func run() async throws {
        let sourceURL = site.sourceURL
        let temporary = output == nil ? Self.temporaryFolder() : nil
        let options = try {
            var o = try site.buildOptions(output: output ?? temporary!.appendingPathComponent("site").path);
            o.deferImages = true; return o
        }()
        let outputURL = options.output
        // Watch from the start, so an edit made during the first build is not missed; Ctrl-C
        // stops the watcher once serving, and before that ends the process at once (after
        // removing what this process created).
        let watcher = FileWatcher(
            root: sourceURL, paths: SiteSession.sourcePaths, quiet: SourceLayout.saveWait, polling: poll)
        let serving = OnceFlag()
        let stop = StopSignals {
            if serving.isSet {
                watcher.stop()
            } else {
                Self.removeLeftovers(temporary: temporary, output: options.output); Foundation.exit(0)
            }
        }
        defer {
            stop.cancel()
            Self.removeLeftovers(temporary: temporary, output: options.output)
        }
        if let temporary { try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true) }
        watcher.start()

        // Listen first, so a port in use is reported at once rather than after the build.
        let basePath = SiteSession.basePath(options) ?? "/"
        let (server, address) = try await listen(folder: outputURL, root: basePath)
        var liveSite = await LiveSite.start(options)
        if let message = liveSite.error { server.live.fail(message) } else { server.live.reload(pages: nil) }
        let shownHost = address.host.contains(":") ? "[\(address.host)]" : address.host
        Terminal.say(
            "sitegen: serving \(sourceURL.path) at http://\(shownHost):\(address.port)\(basePath) (Ctrl-C to stop)")
        Terminal.say("sitegen: output in \(outputURL.path)")

        serving.set()
        let pinger = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(20))
                server.live.ping()
            }
        }
        await rebuildOnChanges(watcher, site: &liveSite, server: server, basePath: basePath)
        pinger.cancel()
        await server.stop()
        Terminal.say("sitegen: stopped")
    }

    /// A new name for the temporary output folder (made only when serving).
    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "sitegen-serve-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    }

    /// The preview server, listening; a port in use (or any other failure) ends the command.
    private func listen(folder: URL, root: String) async throws -> (PreviewServer, (host: String, port: UInt16)) {
        do {
            var limits = ServeLimits()
            limits.headerTimeout = headerTimeout
            limits.idleTimeout = idleTimeout
            limits.connections = maxConnections
            limits.eventStreams = maxEventStreams
            let server = try PreviewServer(
                folder: folder, root: root, host: host, port: UInt16(port), allowedHosts: allowedHosts, limits: limits)
            return (server, try await server.start())
        } catch {
            Terminal.error("sitegen: error: \(error.description)")
            throw ExitCode(1)
        }
    }

    /// Edits and finished images, one at a time, until the watcher stops: photos are resized
    /// beside the rebuilds, and the pages showing them are rebuilt once they are in the cache.
    private func rebuildOnChanges(
        _ watcher: FileWatcher, site liveSite: inout LiveSite, server: PreviewServer, basePath: String
    ) async {
        let (events, post) = AsyncStream.makeStream(of: ServeEvent.self)
        let forwarder = Task {
            for await batch in watcher.changes { post.yield(.edited(batch)) }
            post.finish()
        }
        defer { forwarder.cancel() }
        var images = ImageWorker(post: post)
        images.start(liveSite.session?.waitingImages)
        var fetching = false
        for await event in events {
            var changed: Set<String> = []
            var imageProblems: Diagnostics?
            var refetched = false
            switch event {
            case .edited(let batch):
                changed = batch.filter(SiteSession.isSource)
                images.failed.subtract(changed)
            case .dataFetched(let problems):
                fetching = false
                if let problems {
                    server.live.fail(LiveSite.report(problems, outcome: "the pages show the answers fetched before"))
                } else {
                    refetched = true
                }
            case .imagesDone(let outcome):
                images.finished(outcome)
                Terminal.say(
                    "sitegen: resized \(outcome.done.count) image\(outcome.done.count == 1 ? "" : "s")"
                        + (outcome.failed.isEmpty ? "" : "; \(outcome.failed.count) could not be")
                )
                changed = outcome.done
                imageProblems = outcome.problems
            }
            if !changed.isEmpty || refetched {
                await rebuild(changed, refetched: refetched, site: &liveSite, server: server, basePath: basePath)
            }
            // Answers older than maxAge (or missing) are fetched away from the rebuilds, which
            // use the cache meanwhile; the pages showing them are rebuilt when they arrive.
            if case .edited = event, !fetching, liveSite.wantsData {
                fetching = true
                let options = liveSite.options
                Task { post.yield(.dataFetched(await offloaded { SiteSession.fetchData(options) })) }
            }
            // Shown after the reload of what did work, which would clear it.
            if let imageProblems {
                server.live.fail(
                    LiveSite.report(imageProblems, outcome: "the pages show those images as they are until they change")
                )
            }
            images.start(liveSite.session?.waitingImages)
        }
    }

    /// Rebuilds what `changed` touches and reloads the open pages, or shows the build's errors
    /// in them.
    private func rebuild(
        _ changed: Set<String>, refetched: Bool = false, site liveSite: inout LiveSite, server: PreviewServer,
        basePath: String
    ) async {
        let wasBroken = liveSite.error != nil
        switch await liveSite.update(changed, refetched: refetched) {
        case .rebuilt(let report):
            if liveSite.session?.basePath != basePath {
                Terminal.error(
                    "sitegen: the base URL's path changed; restart sitegen serve to serve the site under "
                        + "\(liveSite.session?.basePath ?? "/")"
                )
            }
            // A fix that changes no file still has to clear the error shown in open pages.
            guard !report.isEmpty || wasBroken else { return }
            server.live.reload(pages: report.changedPages.flatMap { $0.count > 200 ? nil : $0 })
            let what =
                report.full ? "the whole site" : "\(report.pagesWritten) page\(report.pagesWritten == 1 ? "" : "s")"
            let phases = report.phases.map { "\($0.name) \(String(format: "%.0f", $0.seconds * 1000))" }.joined(
                separator: ", ")
            let why = refetched ? "data fetched" : Self.summary(changed)
            Terminal.say(
                "sitegen: rebuilt \(what) in \(String(format: "%.0f", report.seconds * 1000)) ms "
                    + "(\(why))\(phases.isEmpty ? "" : "; ms: " + phases)"
            )
        case .failed(let message):
            server.live.fail(message)
        }
    }

    /// The temporary output folder, or the staging folders this process left beside `--output`.
    /// A build may still be running (Ctrl-C during the first build): no new staging folder is
    /// started once this begins, and the temporary folder is renamed away before it is removed,
    /// so writes still in flight land in the renamed tree or fail; they cannot bring it back.
    static func removeLeftovers(temporary: URL?, output: URL) {
        SiteBuilder.stopWritingForExit()
        if let temporary {
            let doomed = temporary.path + ".removing"
            let target = rename(temporary.path, doomed) == 0 ? doomed : temporary.path
            // A write that began before the rename may add an entry while the tree is removed.
            for _ in 0..<50 where FileManager.default.fileExists(atPath: target) {
                try? FileManager.default.removeItem(atPath: target)
            }
            return
        }
        let parent = output.deletingLastPathComponent()
        let prefixes = [
            ".\(output.lastPathComponent).sitegen-\(getpid())-", ".\(output.lastPathComponent).old-\(getpid())-"
        ]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        where prefixes.contains(where: name.hasPrefix) {
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }

    static func summary(_ paths: Set<String>) -> String {
        let sorted = paths.sorted()
        return sorted.count <= 3
            ? sorted.joined(separator: ", ")
            : "\(sorted.prefix(2).joined(separator: ", ")) and \(sorted.count - 2) more"
    }
}

/// The site being served: its session once a build succeeded, and the last error.
struct LiveSite {
    enum Outcome {
        case rebuilt(UpdateReport)
        case failed(String)
    }

    let options: BuildOptions
    var session: SiteSession?
    var error: String?

    /// The first build; a failure is reported and the site keeps being watched for a fix.
    static func start(_ options: BuildOptions) async -> LiveSite {
        let start = DispatchTime.now()
        let result = await offloaded { Result { () throws(Diagnostics) in try SiteSession(options) } }
        switch result {
        case .success(let session):
            let ms = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
            Terminal.say("sitegen: built \(session.pageCount) pages in \(String(format: "%.0f", ms)) ms")
            for notice in session.notices { Terminal.notice(notice) }
            return LiveSite(options: options, session: session)
        case .failure(let d):
            return LiveSite(options: options, session: nil, error: report(d, outcome: noSiteYet))
        }
    }

    /// Applies a batch of changed paths (a full build while there is no session yet). The
    /// session is a value: the rebuild thread updates a copy and hands it back, also after a
    /// failed update (which keeps the paths to try again).
    /// Whether answers of HTTP APIs should be fetched: older than maxAge, or not fetched yet.
    var wantsData: Bool {
        session?.dataIsOld == true || error?.contains(SiteSession.notFetchedYet) == true
    }

    mutating func update(_ changed: Set<String>, refetched: Bool = false) async -> Outcome {
        let options = self.options
        let session = self.session
        let (updated, result) = await offloaded { () -> (SiteSession?, Result<UpdateReport, Diagnostics>) in
            if var session {
                let result = Result { () throws(Diagnostics) in try session.update(changed, refetched: refetched) }
                return (session, result)
            }
            let start = DispatchTime.now()
            do throws(Diagnostics) {
                let s = try SiteSession(options)
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
                return (
                    s,
                    .success(
                        UpdateReport(
                            full: true, pagesWritten: s.pageCount, filesWritten: 0, removed: 0, changedPages: nil,
                            seconds: seconds))
                )
            } catch {
                return (nil, .failure(error))
            }
        }
        if let updated { self.session = updated }
        switch result {
        case .success(let report):
            for notice in self.session?.notices ?? [] { Terminal.notice(notice) }
            if error != nil { Terminal.say("sitegen: fixed; the site builds again") }
            error = nil
            return .rebuilt(report)
        case .failure(let d):
            let message = session == nil ? Self.report(d, outcome: Self.noSiteYet) : Self.report(d)
            error = message
            return .failed(message)
        }
    }

    /// What a failed build leaves served when no build has succeeded yet: nothing.
    static let noSiteYet = "nothing to serve until the site builds; fix the file and it is built again"

    /// Prints the diagnostics and returns them as one text for the page overlay.
    static func report(_ diagnostics: Diagnostics, outcome: String = "still serving the last good site") -> String {
        let lines = diagnostics.printed()
        for line in lines { Terminal.error(line) }
        let errors = diagnostics.items.count
        Terminal.error("sitegen: build failed with \(errors) error\(errors == 1 ? "" : "s"); \(outcome)")
        return lines.joined(separator: "\n")
    }
}

/// Runs blocking work on a thread outside Swift's cooperative pool, so the server keeps answering.
func offloaded<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: work()) }
    }
}

/// Ctrl-C and SIGTERM call `handler` once instead of killing the process, so it can clean up.
final class StopSignals: @unchecked Sendable {  // the sources are only cancelled
    private let sources: [any DispatchSourceSignal]

    init(_ handler: @escaping @Sendable () -> Void) {
        sources = [SIGINT, SIGTERM].map { sig in
            signal(sig, SIG_IGN)
            let s = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            s.setEventHandler(handler: handler)
            s.resume()
            return s
        }
    }

    func cancel() { for s in sources { s.cancel() } }
}

/// What the serve loop reacts to.
enum ServeEvent: Sendable {
    /// Files changed under the site's folder.
    case edited(Set<String>)
    /// A batch of images left for later was processed.
    case imagesDone(WaitingImages.Outcome)
    /// Answers of HTTP APIs were fetched into the cache (nil), or could not be.
    case dataFetched(Diagnostics?)
}

/// Resizes the images a rebuild left for later, one batch at a time, away from the serve loop.
/// A source that could not be processed is not tried again until it changes.
struct ImageWorker {
    let post: AsyncStream<ServeEvent>.Continuation
    private var running = false
    /// Source paths (relative to the site's folder) that could not be processed.
    var failed: Set<String> = []

    init(post: AsyncStream<ServeEvent>.Continuation) { self.post = post }

    /// Starts on `waiting` (less what failed) unless a batch is under way: what is left is taken
    /// up after it.
    mutating func start(_ waiting: WaitingImages?) {
        guard !running, let work = waiting?.excluding(failed) else { return }
        running = true
        let post = post
        Terminal.say(
            "sitegen: resizing \(work.count) image\(work.count == 1 ? "" : "s") in the background; pages show "
                + "the originals meanwhile"
        )
        Task {
            let outcome = await offloaded { work.process() }
            post.yield(.imagesDone(outcome))
        }
    }

    mutating func finished(_ outcome: WaitingImages.Outcome) {
        running = false
        failed.formUnion(outcome.failed)
    }
}
