import ArgumentParser
import Foundation
import SiteBuild
import SiteCheck
import SiteCore

/// `sitegen check`: the built output as a host will serve it — broken links, missing images,
/// unreachable pages. It reads the output as it is and never builds.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check the built site for broken links, missing images and unreachable pages.",
        discussion:
            "Reads the output folder as it is (run `sitegen build` first). The base URL comes from site.yml "
            + "unless --base-url gives it (site.yml is then not read). Exit status: 0 when nothing is wrong, 1 "
            + "when anything is, 64 for a misused command line."
    )

    @OptionGroup var site: SiteLocation

    @Option(name: .long, help: "The built site to check (default: <source>/public).")
    var output: String?

    func validate() throws {
        if let text = site.baseURL, SiteAddress(baseURL: text) == nil {
            throw ValidationError(
                "--base-url must be an absolute http(s) URL such as https://example.org/apps/ (found '\(text)')")
        }
    }

    func run() throws {
        let baseURL: String
        if let text = site.baseURL {
            baseURL = text
        } else {
            switch Result(catching: { () throws(Diagnostics) in
                try SiteBuilder.baseURL(BuildOptions(source: site.sourceURL))
            }) {
            case .success(let text): baseURL = text
            case .failure(let d):
                for item in d.items { Terminal.error(item.description) }
                Terminal.error("sitegen check: cannot read the base URL from site.yml (or give it with --base-url)")
                throw ExitCode(1)
            }
        }
        guard let address = SiteAddress(baseURL: baseURL) else {
            Terminal.error("sitegen check: error: the base URL '\(baseURL)' is not an absolute http(s) URL")
            throw ExitCode(1)
        }
        let fallback = SourceLayout.defaultOutput
        let folder = output.map { URL(fileURLWithPath: $0) } ?? site.sourceURL.appendingPathComponent(fallback)
        let display =
            output
            ?? (site.source == "."
                ? fallback : (site.source.hasSuffix("/") ? site.source : site.source + "/") + fallback)
        switch Result(catching: { () throws(Diagnostics) in
            try SiteChecker.check(output: folder.standardizedFileURL, display: display, site: address)
        }) {
        case .success(let report):
            for problem in report.problems { Terminal.error(problem.description) }
            Terminal.say("sitegen check: \(report.summary)")
            if !report.problems.isEmpty { throw ExitCode(1) }
        case .failure(let d):
            for item in d.items { Terminal.error(item.description) }
            throw ExitCode(1)
        }
    }
}
