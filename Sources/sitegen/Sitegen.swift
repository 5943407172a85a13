import ArgumentParser
import Foundation
import SiteBuild
import SiteCore

@main
struct Sitegen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sitegen",
        abstract: "A static site generator for datasets (plist, JSON) and Markdown notes.",
        version: SitegenVersion.current,
        subcommands: [Build.self, Serve.self, Check.self, Init.self, Eject.self])

    static func main() async {
        CommandSpelling.checkSubcommand(CommandLine.arguments.dropFirst())
        await main(nil)
    }
}

/// Prints diagnostics the way compilers do, in red when the terminal allows it (`NO_COLOR` is respected).
enum Terminal {
    static let colour: Bool = ProcessInfo.processInfo.environment["NO_COLOR"] == nil && isatty(STDERR_FILENO) == 1

    /// A warning about no file on standard error (`sitegen: warning: …`).
    static func notice(_ text: String) {
        let label = colour ? "\u{1B}[33mwarning:\u{1B}[0m" : "warning:"
        FileHandle.standardError.write(Data("sitegen: \(label) \(text)\n".utf8))
    }

    static func error(_ text: String) {
        let line = colour ? text.replacingOccurrences(of: ": error: ", with: ": \u{1B}[31merror:\u{1B}[0m ") : text
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func warning(_ text: String) {
        let line = colour ? text.replacingOccurrences(of: ": warning: ", with: ": \u{1B}[33mwarning:\u{1B}[0m ") : text
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// A line on standard output, flushed at once (a pipe would otherwise hold it back).
    static func say(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

/// What `build`, `serve` and `check` take: the site's folder and a base URL override.
struct SiteLocation: ParsableArguments {
    @Option(name: .long, help: "The site's folder, holding site.yml, content/ and templates/.")
    var source: String = "."

    @Option(
        name: .customLong("base-url"),
        help: ArgumentHelp(
            "Override the configuration's baseURL, e.g. https://example.org/apps/ (pages are also served under "
                + "its path).")
    )
    var baseURL: String?

    var sourceURL: URL { URL(fileURLWithPath: source).standardizedFileURL }
}

/// What `build` and `serve` both take: the site's folder, a base URL override, drafts.
struct SiteOptions: ParsableArguments {
    @OptionGroup var location: SiteLocation

    @Flag(name: .long, help: "Include notes marked `draft: true`.")
    var drafts = false

    @Option(
        name: .long,
        help: "Where processed images are kept between builds (default: <source>/\(SourceLayout.defaultCache)).")
    var cacheDir: String?

    @Flag(
        name: .long,
        help: "Replace --output even if it is a folder sitegen did not write (never the site's sources or the cache).")
    var force = false

    @Flag(
        name: .long, help: "Use the answers of HTTP APIs kept in the cache, whatever their age, and never the network.")
    var offline = false

    var sourceURL: URL { location.sourceURL }

    /// The options of a build into `output` (nil: `<source>/public`), after checking that the
    /// output and the cache overlap neither the sources nor each other: otherwise a usage error
    /// (exit 64). Called by the command's `validate()` (for the usage text under the message)
    /// and again by `run()`, which builds with the paths it resolves.
    func buildOptions(output: String?, changes: String? = nil) throws -> BuildOptions {
        var options: BuildOptions
        do {
            options = try BuildOptions.checked(
                source: sourceURL, output: output, cacheDir: cacheDir, changes: changes, force: force)
        } catch {
            throw ValidationError(error.description)
        }
        options.baseURL = location.baseURL
        options.includeDrafts = drafts
        options.offline = offline
        options.imageProgress = ImageProgress.line()
        return options
    }
}

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the site into the output folder (default: public/).")

    @OptionGroup var site: SiteOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where to write the site (default: <source>/public). Replaced only when the build succeeds, and only "
                + "if sitegen wrote it, it is empty or it does not exist.")
    )
    var output: String?

    @Option(
        name: .long, help: "Use at most this many threads (default: one per core; the output is the same either way).")
    var threads: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "List the output files the build added, changed and removed in this JSON file (relative to the current "
                + "folder; outside the sources, the output and the cache), for a deploy step. Written only when the "
                + "build succeeds.",
            valueName: "file"))
    var changes: String?

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Keep a record of what each page read, and the notes loaded, in the cache; the next incremental build "
                + "into the same output makes only the pages whose inputs changed and keeps the others as they were."))
    var incremental = false

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
        _ = try site.buildOptions(output: output, changes: changes)
    }

    func run() throws {
        let start = DispatchTime.now()
        var options = try site.buildOptions(output: output, changes: changes)
        if let threads { options.threads = threads }
        options.incremental = incremental
        switch Result(catching: { () throws(Diagnostics) in try SiteBuilder.build(options) }) {
        case .success(let report):
            for warning in report.warnings { Terminal.warning(warning.warningDescription) }
            let total = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
            let phases = report.phases.map { "\($0.name) \(String(format: "%.0f", $0.seconds * 1000)) ms" }.joined(
                separator: ", ")
            if let sources = report.unchanged {
                print(
                    "sitegen: nothing changed since the last build: \(sources) sources and \(report.filesKept) files "
                        + "of \(report.output.path) as it left them, checked in \(String(format: "%.0f", total)) ms")
            } else {
                print(
                    "sitegen: wrote \(report.pages) pages and \(report.files) files to \(report.output.path) in "
                        + "\(String(format: "%.0f", total)) ms (\(phases))"
                )
                for notice in report.notices { Terminal.notice(notice) }
                Self.printKept(report, listedIn: options.changesFile)
            }
            if report.imagesProcessed + report.imagesCached > 0 {
                print("sitegen: images: \(report.imagesProcessed) processed, \(report.imagesCached) from the cache")
            }
            if report.dataFetched + report.dataCached > 0 {
                print("sitegen: data: \(report.dataFetched) fetched, \(report.dataCached) from the cache")
            }
            for warning in report.fetchWarnings { Terminal.error(warning) }
            if let problem = report.changesProblem {
                Terminal.error(problem.description)
                throw ExitCode(1)
            }
        case .failure(let d):
            for line in d.printed() { Terminal.error(line) }
            Terminal.error(
                "sitegen: build failed with \(d.items.count) error\(d.items.count == 1 ? "" : "s"); "
                    + "\(options.output.path) was left unchanged"
            )
            throw ExitCode(1)
        }
    }
}

extension Build {
    /// The files kept from the previous output, and the list of changes.
    static func printKept(_ report: BuildReport, listedIn file: URL?) {
        if report.filesKept > 0 {
            print("sitegen: \(report.filesKept) files had not changed: kept as they were (same inode and time)")
        }
        if let changes = report.changes, report.changesProblem == nil, let file {
            print(
                "sitegen: \(changes.added.count) added, \(changes.changed.count) changed, \(changes.removed.count) "
                    + "removed: listed in \(file.path)")
        }
    }
}

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Create a starter site that builds at once.")

    @Argument(help: "The folder to create (must not exist or be empty).")
    var directory: String

    func run() throws {
        let dir = URL(fileURLWithPath: directory).standardizedFileURL
        switch Result(catching: { () throws(Diagnostic) in try StarterSite.write(to: dir) }) {
        case .failure(let d):
            Terminal.error(d.description)
            throw ExitCode(1)
        case .success(let outcome):
            let here = dir.path == URL(fileURLWithPath: ".").standardizedFileURL.path
            print("sitegen: created a starter site in \(dir.path)")
            if outcome.keptGitignore {
                print(
                    "sitegen: kept your .gitignore; add \(SourceLayout.defaultOutput)/ and "
                        + "\(SourceLayout.defaultCache)/ to it"
                )
            }
            let cd = here ? "" : "cd \(directory) && "
            print(
                "Next: \(cd)sitegen serve   (a preview at http://127.0.0.1:8000/; "
                    + "sitegen build writes \(SourceLayout.defaultOutput)/)"
            )
        }
    }
}
