import Foundation
import SiteCore

/// Where a build may write: checked before anything is read or written, because a build
/// replaces its whole output folder. The output must not be or hold the site's sources or the
/// cache, must not be inside `content/`, `templates/` or the cache, and must be a folder sitegen
/// wrote, an empty one or a new one (`force` allows any other folder). The cache must not be
/// inside `content/`, `templates/` or the output. Paths are compared as the kernel resolves
/// them (symbolic links, `..`), never as text. So is the list of changes (`--changes`).
public struct OutputTarget: Sendable {
    /// The resolved output and cache folders, which the build then uses.
    public var output: URL
    public var cache: URL
    /// The resolved file to list the build's changes in (`--changes`), if any.
    public var changes: URL?

    /// A misused `--output` or `--cache-dir`: the message names the option and the reason.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// `output` and `cache` as given (nil: their defaults in `source`), resolved, or why not; and
    /// `changes`, relative to the current folder.
    public static func check(
        source: URL, output: String?, cache: String?, changes: String? = nil, force: Bool
    ) throws(Refusal) -> OutputTarget {
        let outputText = output ?? source.appendingPathComponent(SourceLayout.defaultOutput).path
        let cacheText = cache ?? source.appendingPathComponent(SourceLayout.defaultCache).path
        let outputName =
            output.map { "--output '\($0)'" } ?? "the output folder \(outputText) (the default of --output)"
        let cacheName =
            cache.map { "--cache-dir '\($0)'" } ?? "the cache folder \(cacheText) (the default of --cache-dir)"
        if outputText.isEmpty {
            throw Refusal(
                description: "--output '' names no folder (an unset variable?): give the folder to write the site to, "
                    + "or leave the option out for public/ in the site's folder")
        }
        if cacheText.isEmpty {
            throw Refusal(
                description:
                    "--cache-dir '' names no folder (an unset variable?): give a folder, or leave the option out")
        }
        let out = RealPath.resolve(outputText), kept = RealPath.resolve(cacheText)
        let sources = Protected.sources(of: RealPath.resolve(source.path))
        for p in sources {
            if let reason = p.conflict(with: out) { throw Refusal(description: "\(outputName) \(reason)\(replaced)") }
        }
        // The output inside the cache is the output's fault; the cache inside the output, the cache's (below).
        if RealPath.isWithin(out, kept) {
            throw Refusal(
                description: "\(outputName) is \(out == kept ? "" : "inside ")the cache folder (--cache-dir)\(replaced)"
            )
        }
        let output = Protected(path: out, what: "the output folder", refuseInside: true)
        for p in sources.dropFirst() + [output] where RealPath.isWithin(kept, p.path) {
            let why =
                p.path == out
                ? ", which each build replaces" : ", so the cache would be published or read as the site's sources"
            throw Refusal(
                description: "\(cacheName) is \(kept == p.path ? "" : "inside ")\(p.what)\(why): "
                    + "keep the cache elsewhere, e.g. leave the option out")
        }
        try checkReplaceable(out, named: outputName, force: force)
        var target = OutputTarget(output: URL(fileURLWithPath: out), cache: URL(fileURLWithPath: kept))
        if let changes {
            let places =
                sources.dropFirst() + [output, Protected(path: kept, what: "the cache folder", refuseInside: true)]
            target.changes = try checkChanges(changes, outside: Array(places))
        }
        return target
    }

    /// The `--changes` file, resolved: one the build may replace, so none it reads or replaces
    /// (a source, the output, the cache) and not a folder; its folder must exist.
    static func checkChanges(_ text: String, outside places: [Protected]) throws(Refusal) -> URL {
        guard !text.isEmpty else {
            throw Refusal(
                description: "--changes '' names no file (an unset variable?): give the file to list the changes in, "
                    + "or leave the option out")
        }
        let file = RealPath.resolve(text), name = "--changes '\(text)'"
        for p in places where RealPath.isWithin(file, p.path) {
            throw Refusal(
                description: "\(name) is \(file == p.path ? "" : "inside ")\(p.what): the list is written only "
                    + "outside the site's sources, its output and its cache; write it elsewhere, e.g. next to site.yml")
        }
        var status = stat()
        if stat(file, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            throw Refusal(description: "\(name) is \(FileKind.phrase(status.st_mode)), not a file")
        }
        let folder = RealPath.parent(file)
        guard stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw Refusal(description: "\(name): there is no folder \(folder) to write it in")
        }
        return URL(fileURLWithPath: file)
    }

    /// Refuses an output that is not a folder, or a folder sitegen did not write (unless `force`).
    static func checkReplaceable(_ out: String, named outputName: String, force: Bool) throws(Refusal) {
        switch OutputFolder.judge(out) {
        case .absent, .empty, .sitegen: break
        case .notFolder(let kind):
            throw Refusal(
                description:
                    "\(outputName) is \(kind == "a regular file" ? "an existing file" : kind), not a folder\(replaced)")
        case .foreign(let entries, let example):
            guard !force else { break }
            throw Refusal(
                description:
                    "\(outputName) is a folder sitegen did not write (\(entries) entr\(entries == 1 ? "y" : "ies"), "
                    + "e.g. '\(example)'), which the build would replace: empty it or choose another folder, or "
                    + "pass --force to replace it"
            )
        }
    }

    static let replaced =
        ": each build replaces the whole output folder, so it must be a folder of its own, "
        + "such as public/ in the site's folder"

    /// A source (or the cache) the output must not be, hold, or (`refuseInside`) be inside.
    struct Protected {
        var path: String
        var what: String
        var refuseInside: Bool

        /// The site's folder, `content/`, `templates/` and `site.yml` of the site at `site` (resolved).
        static func sources(of site: String) -> [Protected] {
            [
                Protected(path: site, what: "the site's folder", refuseInside: false),
                Protected(
                    path: RealPath.resolve(site + "/content"), what: "the site's content folder", refuseInside: true),
                Protected(
                    path: RealPath.resolve(site + "/templates"), what: "the site's templates folder", refuseInside: true
                ),
                Protected(
                    path: RealPath.resolve(site + "/site.yml"), what: "the site's configuration (site.yml)",
                    refuseInside: true)
            ]
        }

        func conflict(with output: String) -> String? {
            if output == path { return "is \(what)" }
            if RealPath.isWithin(path, output) { return "contains \(what)" }
            if refuseInside, RealPath.isWithin(output, path) { return "is inside \(what)" }
            return nil
        }
    }
}
