import SiteCore
import SiteLoad
import SiteRender

/// An output file besides the pages and the sitemap, planned with them: where it goes, what it
/// is made from and, for messages, its source. The write phase writes what the plan lists
/// (`SiteFiles.data` makes each one's bytes).
struct PlannedFile: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        /// A file under `content/` (path relative to it).
        case content(String)
        /// A file under `templates/assets/` (path relative to it).
        case userAsset(String)
        /// A built-in theme asset the site does not override.
        case builtinAsset(String)
        /// The search index of a collection.
        case searchIndex(collection: String)
        /// The Atom feed of the notes.
        case notesFeed
        /// The Atom feed of a collection (`feed:` in site.yml).
        case collectionFeed(collection: String)
        /// `robots.txt` pointing at the sitemap (unless content/ has one).
        case robots
        /// A resized image, copied from the image cache (file name in it).
        case image(String)
        /// The stylesheet of highlighted code (`SiteInputs.styleCode`).
        case codeStyles
    }

    /// Path in the output folder.
    var path: String
    var kind: Kind
    /// For messages.
    var source: String
}

extension SitePlan {
    /// Every output file but the pages and the sitemap, in a stable order, from the loaded
    /// inputs (the content tree and the site's assets were listed when loading: nothing here
    /// reads a folder).
    static func files(_ model: SiteModel) -> [PlannedFile] {
        // Sources of resized images are published only through their copies (no GPS, no 10 MB
        // original on a phone).
        let replaced = model.images.replacedSources
        var files = model.content.staticFiles.filter { !replaced.contains($0) }.map {
            PlannedFile(path: URLScheme.contentFile($0), kind: .content($0), source: SourceLayout.contentFile($0))
        }
        var seen: Set<String> = []
        let images = model.images.images.sorted {
            ($0.key.collection, $0.key.field, $0.key.source) < ($1.key.collection, $1.key.field, $1.key.source)
        }
        if let cache = model.images.cache {  // nil: no image phase ran, and there are no images
            for (use, image) in images {
                for v in image.processed.variants where image.original == nil && seen.insert(image.path(v)).inserted {
                    files.append(
                        PlannedFile(
                            path: image.path(v), kind: .image(cache.path(image.key, v)),
                            source: SourceLayout.contentFile(use.source)))
                }
            }
        }
        let user = model.userAssets, names = model.assetNames
        for path in BuiltinTheme.assets.keys.sorted() where !user.contains(path) {
            files.append(
                PlannedFile(path: URLScheme.assetFile(path), kind: .builtinAsset(path), source: "(built-in theme)"))
            if let named = names[path] {
                files.append(
                    PlannedFile(path: URLScheme.assetFile(named), kind: .builtinAsset(path), source: "(built-in theme)")
                )
            }
        }
        for path in user {
            files.append(
                PlannedFile(
                    path: URLScheme.assetFile(path), kind: .userAsset(path),
                    source: SourceLayout.assetFile(path)))
            if let named = names[path] {
                files.append(
                    PlannedFile(
                        path: URLScheme.assetFile(named), kind: .userAsset(path),
                        source: SourceLayout.assetFile(path)))
            }
        }
        if model.codeStyles != nil, !user.contains(SiteInputs.codeStylesPath) {
            let path = SiteInputs.codeStylesPath
            for name in [path] + (names[path].map { [$0] } ?? []) {
                files.append(
                    PlannedFile(
                        path: URLScheme.assetFile(name), kind: .codeStyles,
                        source: "the code's stylesheet"))
            }
        }
        if !model.feedNotes.isEmpty {
            files.append(
                PlannedFile(
                    path: URLScheme.file(ofSiteURL: model.config.notes.feedURL), kind: .notesFeed,
                    source: "the notes' feed"))
        }
        if !model.content.staticFiles.contains(URLScheme.robotsFile) {
            files.append(PlannedFile(path: URLScheme.robotsFile, kind: .robots, source: URLScheme.robotsFile))
        }
        for c in model.collections {
            guard let rule = c.config.feed else { continue }
            files.append(
                PlannedFile(
                    path: URLScheme.file(ofSiteURL: rule.url), kind: .collectionFeed(collection: c.config.name),
                    source: "feed of '\(c.config.name)'"))
        }
        for c in model.collections {
            guard let rule = c.config.search else { continue }
            files.append(
                PlannedFile(
                    path: URLScheme.file(ofSiteURL: rule.url), kind: .searchIndex(collection: c.config.name),
                    source: "search index of '\(c.config.name)'"))
        }
        return files
    }
}
