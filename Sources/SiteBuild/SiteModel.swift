import Foundation
import SiteCore
import SiteImages
import SiteLoad
import SiteRender

/// The inputs sorted, paginated and cross-linked, ready to render: each collection in display
/// order with its item contexts, each note attached to its item or listed as standalone, and the
/// templates checked against the names the data provides. It holds what rendering and writing
/// read of the inputs, not the inputs themselves (a session keeps those, to load edits into).
struct SiteModel: Sendable {
    let config: SiteConfig
    /// The files under `content/`: those published as they are, where note images and links resolve.
    let content: ContentTree
    let templates: TemplateLibrary
    var notes: [Note]
    /// The site's files under `templates/assets/`, sorted.
    let userAssets: [String]
    /// Stylesheets and scripts by their fingerprinted names (`SiteInputs.loadAssets`).
    let assetNames: [String: String]
    /// The stylesheet of highlighted code, when a note has code.
    let codeStyles: String?
    /// The image phase's result: resized images and the sources they replace.
    var images: ImageStep.Result
    var collections: [SortedCollection]
    /// Standalone notes (indices into `notes`), newest first, then by title.
    var standaloneNotes: [Int]
    /// Each note's page URL (standalone notes have pages).
    var noteURLs: [String]
    /// Each note's HTML with its links to other notes resolved (`resolveNoteLinks`).
    var noteHTML: [String] = []
    /// The notes whose tags have pages: the standalone notes and the attached ones with tags
    /// (shown on a tag page by their item's page), newest first, then by title.
    var taggedNotes: [Int] = []

    var urls: URLScheme { URLScheme(config) }

    /// Builds the model. Collections named in `reusable` are taken from `previous` as they are
    /// (their data, their related collections and the configuration are unchanged), which is what
    /// makes a rebuild after editing one note cheap.
    static func make(
        _ inputs: SiteInputs, images: ImageStep.Result = ImageStep.Result(),
        reusing previous: SiteModel? = nil,
        reusable: Set<String> = []
    ) throws(Diagnostics) -> SiteModel {
        var problems: [Diagnostic] = []
        let config = inputs.config
        let collator = Collator(language: config.language)
        var pages: [SortedCollection] = []
        var fresh: Set<String> = []
        for loaded in inputs.collections {
            if let old = previous?.collections.first(where: { $0.config.name == loaded.config.name }),
                reusable.contains(loaded.config.name)
            {
                var kept = old
                kept.loaded = loaded
                kept.notesByItem = Array(repeating: [], count: loaded.items.count)
                pages.append(kept)
                continue
            }
            do {
                pages.append(try sorted(loaded, config: config, collator: collator))
                fresh.insert(loaded.config.name)
            } catch { problems += error.items }
        }
        if !problems.isEmpty { throw Diagnostics(problems) }
        for ci in pages.indices { pages[ci].published = images.images }
        prepareContexts(&pages, fresh: fresh, urls: URLScheme(config), config: config)

        let (standalone, attachProblems) = attach(inputs.notes, to: &pages)
        if !attachProblems.isEmpty { throw Diagnostics(attachProblems) }
        var model = SiteModel(
            config: config, content: inputs.content, templates: inputs.templates, notes: inputs.notes,
            userAssets: inputs.userAssets, assetNames: inputs.assetNames,
            codeStyles: inputs.codeStyles, images: images, collections: pages,
            standaloneNotes: previous?.sameOrder(standalone, of: inputs.notes)
                ?? standaloneOrder(standalone, of: inputs.notes, collator: collator),
            noteURLs: noteURLs(inputs.notes, config: config, collections: pages, previous: previous))
        model.taggedNotes = model.tagged(collator: collator)
        let (html, linkProblems) = resolveNoteLinks(
            inputs.notes, noteURLs: model.noteURLs, collections: pages, urls: model.urls,
            content: inputs.content, images: images.images)
        model.noteHTML = html
        problems += linkProblems
        if !problems.isEmpty { throw Diagnostics(problems) }
        return model
    }

    /// A collection in display order, paginated, with its item URLs.
    static func sorted(
        _ loaded: LoadedCollection, config: SiteConfig,
        collator: Collator
    ) throws(Diagnostics) -> SortedCollection {
        let c = loaded.config
        let order: [Int]
        do {
            order = try Sorter(keys: c.sort, collator: collator).order(count: loaded.items.count) { i, f in
                loaded.items[i].fields[f]
            }
        } catch {
            throw Diagnostics(
                error.problems.map { p in
                    let item = loaded.items[p.index]
                    return Diagnostic(
                        SourceLocation(file: item.source.file, path: "\(item.source.path ?? "").\(p.field)"),
                        "cannot sort collection '\(c.name)' by '\(p.field)': \(p.message)")
                })
        }
        // A field no item has sorts nothing: most likely a misspelt name, which would leave the list
        // in the data's order without a word.
        let absent = c.sort.indices.filter { k in
            !loaded.items.isEmpty && !loaded.items.contains { ($0.fields[c.sort[k].field] ?? .null) != .null }
        }
        if !absent.isEmpty {
            throw Diagnostics(
                absent.map { k in
                    Diagnostic(
                        k < c.sortSources.count ? c.sortSources[k] : SourceLocation(file: "site.yml"),
                        "no item of collection '\(c.name)' has a value for the sort field '\(c.sort[k].field)', "
                            + "so it would not sort anything; check the field's name"
                    )
                })
        }
        // A masonry places a card by its picture's proportions: one of unknown size has no place.
        if case .masonry = c.layout, let f = c.cardImageField {
            let unsized = loaded.items.filter { item in
                item.images[f].map { $0.width == nil || $0.height == nil } ?? false
            }
            if !unsized.isEmpty {
                throw Diagnostics(
                    unsized.map { item in
                        var at = item.source
                        at.path = "\(item.source.path ?? "").\(f)"
                        return Diagnostic(
                            at,
                            "collection '\(c.name)' is a masonry, which places each card by its image's size, "
                                + "and the size of '\(item.images[f]?.source ?? "")' is unknown: name the fields "
                                + "holding it with images: { width: …, height: … }"
                        )
                    })
            }
        }
        let urls = URLScheme(config)
        let itemURLs = loaded.items.map { item in urls.item(c, slug: item.slug) }
        let slices = Pagination.pages(itemCount: order.count, pageSize: c.pageSize)
        let listPaths = slices.map { urls.list(c, page: $0.number) }
        var position = [Int](repeating: 0, count: order.count)
        for (pos, i) in order.enumerated() { position[i] = pos }
        var names: Set<String> = []
        for item in loaded.items { DataNames.collect(of: item.fields, into: &names) }
        DataNames.collect(of: loaded.meta, into: &names)
        // Like a sort field, a terms field no item has is most likely a misspelt name.
        let termless = c.terms.filter { rule in
            !loaded.items.isEmpty && !loaded.items.contains { !TermList.names($0.fields[rule.field] ?? .null).isEmpty }
        }
        if !termless.isEmpty {
            throw Diagnostics(
                termless.map { rule in
                    Diagnostic(
                        file: SiteConfig.fileName,
                        "no item of collection '\(c.name)' has a value for the field '\(rule.field)' of its terms "
                            + "'\(rule.name)', so they would have no page; check the field's name")
                })
        }
        var sorted = SortedCollection(
            loaded: loaded, order: order, position: position, pages: slices, itemURLs: itemURLs,
            listPaths: listPaths, fieldNames: names)
        sorted.terms = c.terms.map { rule in
            TermList.make(rule, of: c, items: loaded.items, order: order, collator: collator, urls: urls)
        }
        return sorted
    }

    /// Item views of the collections in `fresh`, and the related lists of every collection
    /// that is fresh or points at a fresh one (a related list names the other collection's
    /// items, shown without their own related lists, so lists cannot nest without end).
    static func prepareContexts(
        _ pages: inout [SortedCollection], fresh: Set<String>, urls: URLScheme, config: SiteConfig
    ) {
        for ci in pages.indices where fresh.contains(pages[ci].config.name) {
            let c = pages[ci]
            pages[ci].itemViews = c.loaded.items.indices.map { ViewMaker.itemView(c, $0, urls: urls, config: config) }
        }
        let touched = pages.indices.filter { ci in
            !pages[ci].config.related.isEmpty
                && (fresh.contains(pages[ci].config.name)
                    || pages[ci].config.related.contains { fresh.contains($0.collection) })
        }
        for ci in touched {
            let lists = ViewMaker.relatedLists(pages[ci], in: pages)
            // Set once: each change of `itemViews` hashes them all again.
            var views = pages[ci].itemViews
            for i in views.indices { views[i].related = lists[i] }
            pages[ci].itemViews = views
        }
    }

    /// Attaches notes that name an item to that item; returns the standalone ones (indices).
    static func attach(_ notes: [Note], to pages: inout [SortedCollection]) -> ([Int], [Diagnostic]) {
        var problems: [Diagnostic] = []
        var standalone: [Int] = []
        let collectionIndex = Dictionary(uniqueKeysWithValues: pages.enumerated().map { ($1.config.name, $0) })
        for ni in notes.indices {
            guard let a = notes[ni].attachment else { standalone.append(ni); continue }
            let file = notes[ni].file
            guard let ci = collectionIndex[a.collection] else {
                problems.append(
                    Diagnostic(
                        file: file, line: a.line,
                        "note is attached to '\(a.collection)/\(a.slug)', but there is no collection '\(a.collection)'")
                )
                continue
            }
            guard let item = pages[ci].slugIndex[a.slug] else {
                problems.append(
                    Diagnostic(
                        file: file, line: a.line,
                        "note is attached to '\(a.collection)/\(a.slug)', but collection '\(a.collection)' has "
                            + "no item '\(a.slug)'"
                    ))
                continue
            }
            if pages[ci].config.detailURL == nil {
                problems.append(
                    Diagnostic(
                        file: file, line: a.line,
                        "note is attached to '\(a.collection)/\(a.slug)', but collection '\(a.collection)' has "
                            + "no item pages (detail: false)"
                    ))
                continue
            }
            pages[ci].notesByItem[item].append(ni)
        }
        return (standalone, problems)
    }

    /// Standalone notes: newest first, then by title.
    /// The notes the Atom feed lists: the 20 newest standalone notes that have a date (Atom
    /// needs one per entry, and the build's own time would make two builds differ).
    var feedNotes: [Int] { Array(standaloneNotes.lazy.filter { self.notes[$0].date != nil }.prefix(Self.feedLength)) }

    static let feedLength = 20

    static func standaloneOrder(_ standalone: [Int], of notes: [Note], collator: Collator) -> [Int] {
        let sorter = Sorter(
            keys: [
                SortKey(field: "date", direction: .descending, comparison: .date(DateFormat.iso)),
                SortKey(field: "title", comparison: .text)
            ], collator: collator)
        let order =
            (try? sorter.order(count: standalone.count) { i, f in
                let n = notes[standalone[i]]
                return f == "date" ? n.date.map { .string(DateFormat.iso.format($0)) } : .string(n.title)
            }) ?? Array(0..<standalone.count)
        return order.map { standalone[$0] }
    }

    /// Each note's page URL: a standalone note's own, an attached note's item's (its attachment
    /// was checked: `attach`). A standalone note with the same slug at the same place as in
    /// `previous` keeps its URL.
    static func noteURLs(
        _ notes: [Note], config: SiteConfig, collections: [SortedCollection], previous: SiteModel?
    ) -> [String] {
        let old = previous.flatMap {
            $0.notes.count == notes.count && $0.config.notes.url == config.notes.url ? $0 : nil
        }
        let urls = URLScheme(config)
        let byName = Dictionary(collections.enumerated().map { ($1.config.name, $0) }, uniquingKeysWith: { a, _ in a })
        return notes.indices.map { i in
            if let a = notes[i].attachment, let ci = byName[a.collection],
                let item = collections[ci].slugIndex[a.slug], let url = collections[ci].itemURLs[item]
            {
                return url
            }
            if let old, old.notes[i].attachment == nil, old.notes[i].slug == notes[i].slug { return old.noteURLs[i] }
            return urls.note(slug: notes[i].slug)
        }
    }

    /// `taggedNotes`: the standalone notes, with the attached ones that have tags in their order.
    func tagged(collator: Collator) -> [Int] {
        let attached = notes.indices.filter { notes[$0].attachment != nil && !notes[$0].tags.isEmpty }
        guard !attached.isEmpty else { return standaloneNotes }
        return Self.standaloneOrder(standaloneNotes + attached, of: notes, collator: collator)
    }

    /// This model's standalone order carried over to `standalone` (indices into `notes`), when
    /// those are the same notes with the same dates and titles; nil when they must be sorted.
    func sameOrder(_ standalone: [Int], of notes: [Note]) -> [Int]? {
        guard standaloneNotes.count == standalone.count else { return nil }
        // Usually the notes are the same files at the same places (one was edited in place).
        if notes.count == self.notes.count, standalone == standaloneNotes.sorted(),
            standalone.allSatisfy({
                notes[$0].file == self.notes[$0].file && notes[$0].date == self.notes[$0].date
                    && notes[$0].title == self.notes[$0].title
            })
        {
            return standaloneNotes
        }
        let byFile = Dictionary(standalone.map { (notes[$0].file, $0) }, uniquingKeysWith: { a, _ in a })
        var order: [Int] = []
        order.reserveCapacity(standalone.count)
        for old in standaloneNotes {
            guard let n = byFile[self.notes[old].file], notes[n].date == self.notes[old].date,
                notes[n].title == self.notes[old].title
            else { return nil }
            order.append(n)
        }
        return order
    }

    /// The templates `used` (the plan's: `SitePlan.checked`), with their partials, checked
    /// against the names the data provides.
    func checkTemplates(_ used: [String]) -> [Diagnostic] {
        var known = PageViews.names
        for c in collections { known.formUnion(c.fieldNames) }
        for c in config.collections {
            known.insert(c.name)
            for r in c.related { known.insert(r.name) }
            for t in c.terms { known.insert(t.name) }
        }
        // The notes' front matter names are gathered only if a template uses a name nothing
        // else provides (reading every note's fields again on each edit would be wasted).
        var noteNames: Set<String>?
        func notesNames() -> Set<String> {
            if let noteNames { return noteNames }
            var names: Set<String> = []
            for n in notes.indices { DataNames.collect(of: notes[n].fields, into: &names) }
            noteNames = names
            return names
        }
        let records = PageViews.records(
            dataNames: collections.reduce(
                into: Set(config.collections.flatMap { c in c.related.map(\.name) + c.terms.map(\.name) })
            ) {
                $0.formUnion($1.fieldNames)
            })
        let nestedIn = PageViews.nestedIn(records: records)
        return templates.check(
            using: used,
            knows: { name in known.contains(name) || notesNames().contains(name) },
            topLevel: { parts in PageViews.topLevelPart(of: parts, records: records) },
            // Sorted: of equally near names, the same one every build.
            suggest: { name in Spelling.nearest(to: name, among: known.union(notesNames()).sorted()) },
            nestedIn: { name in nestedIn[name] ?? [] })
    }
}
