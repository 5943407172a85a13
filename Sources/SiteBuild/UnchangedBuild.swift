import Foundation
import SiteCore
import SiteHighlight
import SiteLoad
import SiteWrite

extension BuildRecord {
    /// The sources and the output as an incremental build found and left them: while both are
    /// so, and nothing else the pages' bytes depend on changed, a build has nothing to do.
    struct Census: Equatable {
        /// `site.yml`, `content/` and `templates/`, taken before the build read them (an edit
        /// made while it ran is seen by the next).
        var sources: FileCensus
        /// The output's files and folders after the swap (a file added to it changes its folder).
        var output: FileCensus
        /// What else the pages are made with (`context(_:)`).
        var context: UInt64
    }

    /// What a census covers: every file the build may read from the site's folder.
    static let sourceRoots = [SiteConfig.fileName, SourceLayout.content, SourceLayout.templates]

    /// The census of the site's sources now; nil when it cannot vouch for them (a link to a
    /// folder, more entries than a census holds).
    static func sourceCensus(_ options: BuildOptions) -> FileCensus? {
        let base = options.source.path
        return FileCensus.walk(sourceRoots, in: base).flatMap {
            FileCensus.take($0, in: base, changeTime: true, threads: options.threads)
        }
    }

    /// The census of the output after the swap: the files written (or kept) and their folders.
    static func outputCensus(_ written: [String], options: BuildOptions) -> FileCensus? {
        var folders: Set<String> = [".", OutputFolder.marker]
        for file in written {
            var path = Substring(file)
            while let slash = path.lastIndex(of: "/") {
                path = path[..<slash]
                guard folders.insert(String(path)).inserted else { break }
            }
        }
        let entries = folders.sorted().map { (path: $0, kind: FileCensus.Kind.folder) } + written.map { ($0, .file) }
        return FileCensus.take(entries, in: options.output.path, changeTime: false, threads: options.threads)
    }

    /// What the pages depend on besides the sources, the options and this program: the
    /// highlighter's build, when code is highlighted.
    static func context(_ config: SiteConfig) -> UInt64 {
        config.highlight == nil ? 0 : HighlightLibrary.identity
    }
}

/// A build that finds nothing to do: the last incremental build's record holds a census of the
/// sources and of the output, the sources are as that build read them and the output as it
/// left it. No source is read and nothing is written (the list of changes, when asked, is empty).
enum UnchangedBuild {
    /// The report of a build with nothing to do, or nil when the build must run: no usable
    /// record or census (none is kept when a collection reads an HTTP API, whose answers may
    /// change: `FullBuild`), or a source, an output file or the highlighter that is not as
    /// recorded.
    static func check(_ options: BuildOptions) -> BuildReport? {
        var clock = PhaseClock()
        guard let config = try? SiteInputs.readConfiguration(options) else { return nil }
        let (record, _) = BuildRecord.load(options, header: BuildRecord.header(options, config))
        guard let census = record?.census, census.context == BuildRecord.context(config),
            census.sources.unchanged(in: options.source.path, threads: options.threads),
            census.output.unchanged(in: options.output.path, threads: options.threads)
        else { return nil }
        if let file = options.changesFile?.path, let problem = OutputChanges().list(in: file) {
            return failed(problem, options)
        }
        // Used: not pruned as an abandoned output's record.
        utimes(BuildRecord.path(options).path, nil)
        clock.lap("check")
        var report = BuildReport(pages: 0, files: 0, phases: clock.phases, output: options.output)
        report.filesKept = census.output.entries.count(where: { $0.kind == .file })
        report.unchanged = census.sources.entries.count(where: { $0.kind == .file })
        report.changes = options.changesFile.map { _ in OutputChanges() }
        return report
    }

    private static func failed(_ problem: Diagnostic, _ options: BuildOptions) -> BuildReport {
        var report = BuildReport(pages: 0, files: 0, phases: [], output: options.output)
        report.changesProblem = problem
        return report
    }
}
