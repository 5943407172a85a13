/// The sources of a site, relative to its folder: one place for their names, as `URLScheme` is
/// for the output's paths. `site.yml`; `content/` (datasets, notes, files published as they are);
/// `templates/` (the site's Mustache templates) and in it `templates/assets/` (its stylesheets,
/// scripts and other files).
public enum SourceLayout {
    public static let configuration = "site.yml"
    public static let content = "content"
    public static let templates = "templates"
    public static let assets = "templates/assets"

    /// Where a build writes unless told otherwise (`--output`), in the site's folder.
    public static let defaultOutput = "public"
    /// Where processed images and fetched data are kept unless told otherwise (`--cache-dir`),
    /// in the site's folder.
    public static let defaultCache = ".sitegen-cache"

    /// The extension of a note's file (any case): `content/**/*.md`.
    public static let noteExtension = "md"

    /// Whether `path` names a note's file by its extension.
    public static func isNoteFile(_ path: some StringProtocol) -> Bool {
        SitePath.extension(of: String(path)).lowercased() == noteExtension
    }

    /// What `serve` watches: every source.
    public static let watched = [configuration, content, templates]

    /// Seconds a file must stay unchanged before it is taken as saved: `serve`'s watcher waits
    /// this long after the last change, and a file rewritten in place is read (to publish or
    /// to serve) only once its change time is this old.
    public static let saveWait = 0.02

    /// A file under `content/`, as messages name it: `content/notes/a.md`.
    public static func contentFile(_ relative: some StringProtocol) -> String { "\(content)/\(relative)" }

    /// A `contentFile(_:)` path relative to `content/` again.
    public static func relativeToContent(_ file: String) -> String {
        file.hasPrefix(content + "/") ? String(file.dropFirst(content.count + 1)) : file
    }

    /// A file under `templates/`, as messages name it.
    public static func templateFile(_ relative: some StringProtocol) -> String { "\(templates)/\(relative)" }

    /// A file under `templates/assets/`, as messages name it.
    public static func assetFile(_ relative: some StringProtocol) -> String { "\(assets)/\(relative)" }

    /// What a change to a source is (Zola's `ChangeKind`): each asks a rebuild for something else.
    public enum ChangeKind: Hashable, Sendable {
        /// `site.yml`: everything is built again.
        case configuration
        /// A file under `content/` (relative to it).
        case content(String)
        /// A template under `templates/` (relative to it), not an asset.
        case template(String)
        /// A file under `templates/assets/` (relative to it).
        case asset(String)
    }

    /// What a change at `path` (relative to the site's folder, "/"-separated) is; nil when it
    /// cannot change the site: another folder, or a hidden file or folder (an editor's).
    public static func change(at path: String) -> ChangeKind? {
        let parts = path.split(separator: "/")
        guard let first = parts.first, !parts.contains(where: { $0.hasPrefix(".") }) else { return nil }
        if parts.count == 1 { return first == Substring(configuration) ? .configuration : nil }
        let rest = parts.dropFirst().joined(separator: "/")
        switch first {
        case Substring(content): return .content(rest)
        case Substring(templates):
            guard parts[1] == "assets" else { return .template(rest) }
            return parts.count > 2 ? .asset(parts.dropFirst(2).joined(separator: "/")) : .template(rest)
        default: return nil
        }
    }
}
