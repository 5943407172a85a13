import SiteCore

/// What changed in the sources since the last pass: the one value an edit becomes, from the
/// watcher's paths (each sorted by `SourceLayout.change(at:)`, whose kinds the switch below
/// must all handle) to the files a pass writes again. A full build starts from an empty one
/// (nothing was written, so everything is new whatever it says).
struct ChangeSet: Sendable {
    /// `site.yml`: everything is built again, as a new generation.
    var configuration = false
    /// Files under `content/` (relative to it); after a scan, also the files that came or went.
    var content: Set<String> = []
    /// Templates under `templates/` (relative to it), assets under `templates/assets/` (relative to it).
    var templates: Set<String> = []
    var assets: Set<String> = []
    /// Whether the content tree was scanned again (a file or folder came or went).
    var rescanned = false
    /// The collections loaded again.
    var collections: Set<String> = []

    init() {}

    /// The changes at `paths` (relative to the site's folder); paths that cannot change the
    /// site (another folder, an editor's hidden file) change nothing.
    init(paths: some Sequence<String>) {
        for path in paths {
            switch SourceLayout.change(at: path) {
            case .configuration?: configuration = true
            case .content(let rel)?: content.insert(rel)
            case .template(let rel)?: templates.insert(rel)
            case .asset(let rel)?: assets.insert(rel)
            case nil: break
            }
        }
    }

    /// Nothing that can change the site.
    var isEmpty: Bool { !configuration && content.isEmpty && templates.isEmpty && assets.isEmpty }
}
