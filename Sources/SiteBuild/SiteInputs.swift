import Foundation
import SiteCore
import SiteFetch
import SiteHighlight
import SiteImages
import SiteLoad
import SiteRender
import Synchronization

/// Everything a build reads from the source folder, loaded and normalised: the configuration,
/// the content tree, the templates, every collection and every note.
struct SiteInputs: Sendable {
    var config: SiteConfig
    var content: ContentTree
    var templates: TemplateLibrary
    var collections: [LoadedCollection]
    var notes: [Note]
    /// The site's files under `templates/assets/` (hidden ones skipped), sorted.
    var userAssets: [String] = []
    /// Stylesheets and scripts by their fingerprinted names (`loadAssets`).
    var assetNames: [String: String] = [:]
    /// When the oldest answer of an HTTP API the collections show was fetched (nil: none).
    var oldestAnswer: Date?
    /// The stylesheet of highlighted code (`highlight.css`), when a note has code (`styleCode`).
    var codeStyles: String?
    /// What this build tells the user about no file (code left plain for want of the highlighter).
    var notices: [String] = []

    /// Reads the configuration, scans `content/` and parses the templates (the "config" phase).
    static func loadConfiguration(_ options: BuildOptions) throws(Diagnostics) -> (
        SiteConfig, ContentTree, TemplateLibrary
    ) {
        let config = try readConfiguration(options)
        let content = try ContentTree.scan(options.source.appendingPathComponent(SourceLayout.content))
        let templates = try loadTemplates(options.source)
        return (config, content, templates)
    }

    /// Reads and parses `site.yml`, applying the base URL override.
    static func readConfiguration(_ options: BuildOptions) throws(Diagnostics) -> SiteConfig {
        let configFile = options.source.appendingPathComponent(SiteConfig.fileName)
        let configData: Data
        switch ContentTree.contents(atPath: configFile.path) {
        case .success(let data): configData = data
        case .failure(let reason) where reason.code == ENOENT:
            throw Diagnostics([
                Diagnostic(
                    file: SiteConfig.fileName,
                    "no site configuration: \(configFile.path) does not exist (create one with `sitegen init`)")
            ])
        case .failure(let reason):
            throw Diagnostics([
                Diagnostic(file: SiteConfig.fileName, "cannot read the site configuration: \(reason.text)")
            ])
        }
        guard let configText = String(validating: configData, as: UTF8.self) else {
            throw Diagnostics([Diagnostic(file: SiteConfig.fileName, "the site configuration is not valid UTF-8 text")])
        }
        return try SiteConfig.parse(configText, file: SiteConfig.fileName, baseURLOverride: options.baseURL)
    }

    /// The built-in theme with the site's `templates/*.mustache` (nothing read through a link
    /// that leaves `templates/`).
    static func loadTemplates(_ source: URL) throws(Diagnostics) -> TemplateLibrary {
        let folder = source.appendingPathComponent(SourceLayout.templates)
        let files = try SourceFolder.files(under: folder, display: SourceLayout.templateFile(""))
        return try TemplateLibrary.load(directory: folder, files: files, builtin: BuiltinTheme.templates)
    }

    /// Lists the site's assets and names the stylesheets and scripts (built-in and the site's)
    /// by their content's fingerprint, which templates reach with `{{#asset}}photos.css{{/asset}}`:
    /// asset path → fingerprinted path (`photos.css` → `photos.3f2a9c1e0b7d4a65.css`). A changed
    /// file gets a new name, so its URL can be cached for ever.
    mutating func loadAssets(_ source: URL) throws(Diagnostics) {
        let user = try SourceFolder.files(
            under: source.appendingPathComponent(SourceLayout.assets),
            display: SourceLayout.assetFile(""))
        var names: [String: String] = [:]
        for (path, text) in BuiltinTheme.assets where Self.isFingerprinted(path) {
            names[path] = ContentHash.fingerprinted(path, text.utf8)
        }
        for path in user where Self.isFingerprinted(path) {
            do throws(Diagnostic) {
                let data = try SiteFiles.readFile(
                    source.appendingPathComponent(SourceLayout.assetFile(path)),
                    source: SourceLayout.assetFile(path))
                names[path] = ContentHash.fingerprinted(path, data)
            } catch { throw Diagnostics([error]) }
        }
        userAssets = user
        assetNames = names
        styleCode()
    }

    /// The stylesheet of highlighted code (`CodeThemes`), published as `assets/highlight.css` with
    /// a fingerprinted name and linked from the pages showing code, when a note has code and the
    /// highlighter runs; a site's own `templates/assets/highlight.css` replaces it.
    mutating func styleCode() {
        codeStyles = nil
        if !userAssets.contains(Self.codeStylesPath) { assetNames[Self.codeStylesPath] = nil }
        guard let highlight = config.highlight, notes.contains(where: \.hasCode) else { return }
        switch CodeThemes.stylesheet(light: highlight.theme, dark: highlight.dark) {
        case .success(let css):
            codeStyles = css
            if !userAssets.contains(Self.codeStylesPath) {
                assetNames[Self.codeStylesPath] = ContentHash.fingerprinted(Self.codeStylesPath, css.utf8)
            }
        case .failure:
            if let notice = HighlightLibrary.takeNotice() { notices.append(notice) }
        }
    }

    static let codeStylesPath = "highlight.css"

    static func isFingerprinted(_ path: String) -> Bool { path.hasSuffix(".css") || path.hasSuffix(".js") }

    /// Loads the collections, the notes and the assets under `source` (the site's folder: the
    /// assets' names and the code's stylesheet, `loadAssets`); every problem of the collections
    /// and the notes is reported. The collections
    /// load on one of the notes' threads while the others read notes (a site's one large dataset
    /// would leave the other threads idle), one after another unless they fetch HTTP APIs, whose
    /// answers are awaited in parallel.
    static func loadData(
        source: URL, config: SiteConfig, content: ContentTree, templates: TemplateLibrary,
        includeDrafts: Bool, threads: Int, fetch: FetchSession? = nil, noteCache: NoteCache? = nil
    ) throws(Diagnostics) -> SiteInputs {
        let loaded = Mutex<[Result<LoadedCollection, Diagnostics>]>([])
        let collectionsJob: @Sendable () -> Void = {
            let results = Self.loadCollections(
                config.collections, config: config, content: content, imageSizes: ImageSizeCache(),
                threads: fetch == nil ? 1 : threads, fetch: fetch)
            loaded.withLock { $0 = results }
        }
        var problems: [Diagnostic] = []
        var notes: [Note] = []
        do {
            notes = try NoteLoader(
                config: config, content: content, includeDrafts: includeDrafts, threads: threads, cache: noteCache
            ).loadAll(alongside: collectionsJob)
        } catch { problems += error.items }
        var collectionProblems: [Diagnostic] = []
        let collections = collectProblems(loaded.withLock { $0 }, into: &collectionProblems)
        problems = collectionProblems + problems  // the collections' first, as when they loaded first
        if !problems.isEmpty { throw Diagnostics(problems) }
        var inputs = SiteInputs(
            config: config, content: content, templates: templates, collections: collections, notes: notes)
        inputs.oldestAnswer = fetch?.oldestAnswer
        try inputs.loadAssets(source)
        return inputs
    }

    static func loadCollections(
        _ configs: [CollectionConfig], config: SiteConfig, content: ContentTree,
        imageSizes: ImageSizeCache, threads: Int, fetch: FetchSession? = nil
    ) -> [Result<LoadedCollection, Diagnostics>] {
        let loader = CollectionLoader(content: content, language: config.language, fetch: fetch)
        return configs.parallelMap(threads: threads, minimumCount: 2) { c in
            Result { () throws(Diagnostics) in try loader.load(c, imageSizes: imageSizes) }
        }
    }

    static func collectProblems(_ results: [Result<LoadedCollection, Diagnostics>], into problems: inout [Diagnostic])
        -> [LoadedCollection]
    {
        var loaded: [LoadedCollection] = []
        for r in results {
            switch r {
            case .success(let c): loaded.append(c)
            case .failure(let d): problems += d.items
            }
        }
        return loaded
    }

    /// The fetching of a build whose collections read HTTP APIs (nil when none does): "today"
    /// fixed for the whole build, answers cached under the cache folder's `data/`.
    static func fetchSession(_ config: SiteConfig, options: BuildOptions) throws(Diagnostics) -> FetchSession? {
        guard config.collections.contains(where: \.readsHTTP) else { return nil }
        do {
            let context = try FetchContext.current(
                timeZone: TimeZone(identifier: config.fetch.timeZone) ?? TimeZone(secondsFromGMT: 0)!)
            return FetchSession(
                settings: config.fetch, cacheFolder: options.dataCache, network: options.network, context: context)
        } catch {
            throw Diagnostics([Diagnostic(file: "SOURCE_DATE_EPOCH", error.message)])
        }
    }
}

extension NoteLoader {
    /// The site's note loader: its notes' collection, root path, Markdown options and words, the
    /// built-in theme's ids kept from headings, and code highlighted unless `highlight: false`.
    init(config: SiteConfig, content: ContentTree, includeDrafts: Bool, threads: Int, cache: NoteCache? = nil) {
        self.init(
            content: content, notesCollection: config.notes.collection, includeDrafts: includeDrafts,
            rootPath: config.baseURL.root, threads: threads, markdown: config.markdown, words: config.words,
            reservedIDs: BuiltinTheme.ids, highlight: config.highlight != nil, cache: cache)
    }
}
