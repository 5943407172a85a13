import Foundation
import SiteCore
import SiteLoad
import SiteRender
import SiteWrite

/// What `sitegen build` is asked to do.
public struct BuildOptions: Sendable {
    public var source: URL
    public var output: URL
    public var baseURL: String?
    public var includeDrafts: Bool

    public init(source: URL, output: URL? = nil, baseURL: String? = nil, includeDrafts: Bool = false) {
        self.source = source.standardizedFileURL
        self.output = (output ?? source.appendingPathComponent("public")).standardizedFileURL
        self.baseURL = baseURL
        self.includeDrafts = includeDrafts
    }
}

/// What a build did, for the summary line.
public struct BuildReport: Sendable {
    public var pages: Int
    public var files: Int
    /// Phase name and seconds, in order.
    public var phases: [(name: String, seconds: Double)]
    public var output: URL
}

/// The pipeline: load → normalise → sort/lay out → render → write.
public enum SiteBuilder {
    public static func build(_ options: BuildOptions) throws(Diagnostics) -> BuildReport {
        var clock = PhaseClock()

        // Load.
        let configFile = options.source.appendingPathComponent(SiteConfig.fileName)
        guard let configData = FileManager.default.contents(atPath: configFile.path) else {
            throw Diagnostics([Diagnostic(file: SiteConfig.fileName, "no site configuration: \(configFile.path) does not exist (create one with `sitegen init`)")])
        }
        guard let configText = String(validating: configData, as: UTF8.self) else {
            throw Diagnostics([Diagnostic(file: SiteConfig.fileName, "the site configuration is not valid UTF-8 text")])
        }
        let config = try SiteConfig.parse(configText, file: SiteConfig.fileName, baseURLOverride: options.baseURL)
        let content = try ContentTree.scan(options.source.appendingPathComponent("content"))
        let templates = try TemplateLibrary.load(directory: options.source.appendingPathComponent("templates"))
        clock.lap("config")

        var problems: [Diagnostic] = []
        let loader = CollectionLoader(content: content, language: config.language)
        let cache = ImageSizeCache()
        let loadResults: [Result<LoadedCollection, Diagnostics>] = config.collections.parallelMap(minimumCount: 2) { c in
            Result { () throws(Diagnostics) in try loader.load(c, imageSizes: cache) }
        }
        var collections: [LoadedCollection] = []
        for r in loadResults {
            switch r {
            case .success(let c): collections.append(c)
            case .failure(let d): problems += d.items
            }
        }
        var notes: [Note] = []
        do {
            notes = try NoteLoader(content: content, notesCollection: config.notes.collection, includeDrafts: options.includeDrafts).loadAll()
        } catch { problems += error.items }
        clock.lap("load")
        if !problems.isEmpty { throw Diagnostics(problems) }

        // Sort, paginate, attach notes.
        let collator = Collator(language: config.language)
        var pagesByCollection: [CollectionPages] = []
        for loaded in collections {
            let c = loaded.config
            let order: [Int]
            do {
                order = try Sorter(keys: c.sort, collator: collator).order(count: loaded.items.count) { i, f in loaded.items[i].fields[f] }
            } catch {
                for p in error.problems {
                    let item = loaded.items[p.index]
                    problems.append(Diagnostic(SourceLocation(file: item.source.file, path: "\(item.source.path ?? "").\(p.field)"), "cannot sort collection '\(c.name)' by '\(p.field)': \(p.message)"))
                }
                continue
            }
            let root = config.baseURL.root
            let urls = loaded.items.map { item in c.detailURL.map { config.baseURL.path(SitePath.fill($0, slug: item.slug)) } }
            let pages = Pagination.pages(itemCount: order.count, pageSize: c.pageSize)
            let listPaths = pages.map { $0.number == 1 ? c.listURL : "\(c.listURL)page/\($0.number)/" }
            var position = [Int](repeating: 0, count: order.count)
            for (pos, i) in order.enumerated() { position[i] = pos }
            pagesByCollection.append(CollectionPages(loaded: loaded, order: order, position: position, pages: pages, itemURLs: urls,
                                                     listPaths: listPaths, notesBySlug: [:]))
        }
        var standalone: [Int] = []
        let slugIndex: [String: [String: Int]] = Dictionary(uniqueKeysWithValues: pagesByCollection.map { c in
            (c.config.name, Dictionary(uniqueKeysWithValues: c.loaded.items.enumerated().map { ($1.slug, $0) }))
        })
        let collectionIndex = Dictionary(uniqueKeysWithValues: pagesByCollection.enumerated().map { ($1.config.name, $0) })
        for (ni, note) in notes.enumerated() {
            guard let a = note.attachment else { standalone.append(ni); continue }
            guard let ci = collectionIndex[a.collection] else {
                problems.append(Diagnostic(file: note.file, line: a.line, "note is attached to '\(a.collection)/\(a.slug)', but there is no collection '\(a.collection)'"))
                continue
            }
            guard slugIndex[a.collection]?[a.slug] != nil else {
                problems.append(Diagnostic(file: note.file, line: a.line, "note is attached to '\(a.collection)/\(a.slug)', but collection '\(a.collection)' has no item '\(a.slug)'"))
                continue
            }
            if pagesByCollection[ci].config.detailURL == nil {
                problems.append(Diagnostic(file: note.file, line: a.line, "note is attached to '\(a.collection)/\(a.slug)', but collection '\(a.collection)' has no item pages (detail: false)"))
                continue
            }
            pagesByCollection[ci].notesBySlug[a.slug, default: []].append(ni)
        }
        // Standalone notes: newest first, then by title.
        let noteSorter = Sorter(keys: [SortKey(field: "date", direction: .descending, comparison: .date(DateFormat.iso)),
                                       SortKey(field: "title", comparison: .text)], collator: collator)
        let standaloneOrder = ((try? noteSorter.order(count: standalone.count) { i, f in
            let n = notes[standalone[i]]
            return f == "date" ? n.date.map { .string(DateFormat.iso.format($0)) } : .string(n.title)
        }) ?? Array(0..<standalone.count)).map { standalone[$0] }
        clock.lap("sort")
        if !problems.isEmpty { throw Diagnostics(problems) }

        // Check templates against the names the data provides.
        var known = PageContext.pageNames
        for c in pagesByCollection {
            for item in c.loaded.items { PageContext.collectNames(of: item.fields, into: &known) }
            PageContext.collectNames(of: c.loaded.meta, into: &known)
        }
        for n in notes { PageContext.collectNames(of: n.fields, into: &known) }
        for c in config.collections {
            known.insert(c.name)
            for r in c.related { known.insert(r.name) }
        }
        var used = ["home", "404"] + config.pages.map(\.template)
        for c in pagesByCollection { used.append(c.config.listTemplate); if let d = c.config.detailTemplate { used.append(d) } }
        if !standalone.isEmpty { used += [config.notes.template, config.notes.listTemplate] }
        problems += templates.check(using: used, knownNames: known)
        if !problems.isEmpty { throw Diagnostics(problems) }

        // Render and write.
        let stage: OutputStage
        do { stage = try OutputStage(output: options.output) } catch { throw Diagnostics([error]) }
        let renderer = PageRenderer(config: config, templates: templates, collections: pagesByCollection, notes: notes,
                                    standaloneNotes: standaloneOrder, stage: stage)
        let rendered: Int
        do {
            rendered = try renderer.renderAll()
        } catch {
            stage.discard()
            throw error
        }
        clock.lap("render")
        var files = 0
        do {
            for rel in content.staticFiles {
                try stage.copy(content.root.appendingPathComponent(rel), to: rel, source: "content/\(rel)")
                files += 1
            }
            for (path, text) in BuiltinTheme.assets.sorted(by: { $0.key < $1.key }) {
                let userFile = options.source.appendingPathComponent("templates/assets/\(path)")
                if FileManager.default.fileExists(atPath: userFile.path) { continue }
                try stage.write(text, to: "assets/\(path)", source: "(built-in theme)")
                files += 1
            }
            let userAssets = options.source.appendingPathComponent("templates/assets")
            if let walker = FileManager.default.enumerator(atPath: userAssets.path) {
                var list: [String] = []
                while let rel = walker.nextObject() as? String {
                    var isDir: ObjCBool = false
                    if FileManager.default.fileExists(atPath: userAssets.appendingPathComponent(rel).path, isDirectory: &isDir), !isDir.boolValue,
                       !rel.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { list.append(rel) }
                }
                for rel in list.sorted() {
                    try stage.copy(userAssets.appendingPathComponent(rel), to: "assets/\(rel)", source: "templates/assets/\(rel)")
                    files += 1
                }
            }
            for c in pagesByCollection {
                guard let rule = c.config.search else { continue }
                try stage.write(try SearchIndex.json(c, rule: rule, root: config.baseURL.root), to: String(rule.url.dropFirst()), source: "search index of '\(c.config.name)'")
                files += 1
            }
            for file in Sitemap.files(urls: renderer.sitemapURLs(), indexBase: config.baseURL.description) {
                try stage.write(file.xml, to: file.name, source: "sitemap")
                files += 1
            }
        } catch {
            stage.discard()
            throw Diagnostics([error])
        }
        clock.lap("write")
        do { try stage.commit() } catch {
            stage.discard()
            throw Diagnostics([error])
        }
        return BuildReport(pages: rendered, files: files, phases: clock.phases, output: options.output)
    }
}

struct PhaseClock {
    private var last = DispatchTime.now()
    private(set) var phases: [(name: String, seconds: Double)] = []

    mutating func lap(_ name: String) {
        let now = DispatchTime.now()
        phases.append((name, Double(now.uptimeNanoseconds - last.uptimeNanoseconds) / 1e9))
        last = now
    }
}
