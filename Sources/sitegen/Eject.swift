import ArgumentParser
import Foundation
import SiteBuild
import SiteCore

/// `sitegen eject`: the built-in theme copied into the site's templates/ to edit.
struct Eject: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy the built-in templates and theme assets into templates/ to edit (never overwriting a file).")

    @Option(name: .long, help: "The site's folder, holding site.yml, content/ and templates/.")
    var source: String = "."

    @Argument(help: "Only these templates or assets (e.g. detail, card, sitegen.css); default: all of them.")
    var names: [String] = []

    func run() throws {
        let templates = URL(fileURLWithPath: source).standardizedFileURL.appendingPathComponent(SourceLayout.templates)
        switch Result(catching: { () throws(Diagnostic) in try ThemeEject.write(into: templates, names: names) }) {
        case .failure(let d):
            Terminal.error(d.description)
            throw ExitCode(1)
        case .success(let outcome):
            for path in outcome.written { Terminal.say("wrote templates/\(path)") }
            for path in outcome.skipped { Terminal.say("skipped templates/\(path): it exists (left as it is)") }
            let files = "\(outcome.written.count) file\(outcome.written.count == 1 ? "" : "s")"
            Terminal.say(
                "sitegen: wrote \(files), skipped \(outcome.skipped.count); "
                    + "the site builds as before until you edit them (README: \"The built-in theme\")")
        }
    }
}
