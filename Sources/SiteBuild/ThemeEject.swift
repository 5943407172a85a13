import Foundation
import SiteCore
import SiteRender

/// `sitegen eject`: the built-in theme's templates and assets written into a site's
/// `templates/`, where they override the built-in ones with the same text, so the next build
/// is byte for byte the same and each file is a starting point to edit. A file that exists is
/// never overwritten.
public enum ThemeEject {
    /// Every file the theme has, as a path under `templates/` and its text, sorted by path.
    public static var files: [(path: String, text: String)] {
        let templates = BuiltinTheme.templates.map { (path: "\($0.key).mustache", text: $0.value) }
        return (templates + BuiltinTheme.assets.map { (path: "assets/\($0.key)", text: $0.value) }).sorted {
            $0.path < $1.path
        }
    }

    /// What `write` did, by path under `templates/`.
    public struct Outcome: Sendable, Equatable {
        public var written: [String] = []
        /// Files that were there already, left as they were.
        public var skipped: [String] = []
    }

    /// Writes the theme's files into `templates` (created if missing): all of them, or those
    /// `names` pick (a template's name such as `detail`, or an asset's file name such as
    /// `sitegen.css`); an unknown name is an error listing the known ones.
    public static func write(into templates: URL, names: [String] = []) throws(Diagnostic) -> Outcome {
        let all = files
        var chosen = all
        if !names.isEmpty {
            let byName = Dictionary(uniqueKeysWithValues: all.map { (name(of: $0.path), $0) })
            if let unknown = names.first(where: { byName[$0] == nil }) {
                let guess =
                    Spelling.nearest(to: unknown, among: byName.keys.sorted()).map { "did you mean '\($0)'? " } ?? ""
                let known = all.map { name(of: $0.path) }.joined(separator: ", ")
                throw Diagnostic(
                    file: "sitegen eject", "the built-in theme has no '\(unknown)'; \(guess)it has: \(known)")
            }
            chosen = all.filter { names.contains(name(of: $0.path)) }
        }
        var outcome = Outcome()
        let fm = FileManager.default
        for (path, text) in chosen {
            let url = templates.appendingPathComponent(path)
            // `lstat`, not `fileExists`: a dangling symbolic link is a file too, never written through.
            var info = stat()
            if lstat(url.path, &info) == 0 { outcome.skipped.append(path); continue }
            do {
                try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url, options: .withoutOverwriting)
            } catch {
                throw Diagnostic(file: SourceLayout.templateFile(path), "cannot write: \(error.localizedDescription)")
            }
            outcome.written.append(path)
        }
        return outcome
    }

    /// `detail` for `detail.mustache`, `sitegen.css` for `assets/sitegen.css`.
    static func name(of path: String) -> String {
        path.hasSuffix(".mustache") ? String(path.dropLast(".mustache".count)) : String(path.dropFirst("assets/".count))
    }
}
