import SiteCore
import SiteLoad

/// One output page, decided before anything renders: where it goes, what renders it, what it
/// is made from (for messages) and what it shows. What its bytes depend on is recorded when its
/// view is made (`PageReads`), not listed here.
struct PlannedPage: Sendable {
    var path: String
    var template: String
    /// What the page is made from, for messages ("collection 'photos' page 2", a note's file).
    var source: String
    var id: PageID
    /// The sitemap's `lastmod` (a note's date, formatted only when a sitemap is written).
    var lastModified: CalendarDate?
    var inSitemap = true
    /// Makes the page's typed view when it renders (the plan holds indices, never a view),
    /// reading the model through a `ViewReader`, which records what it read.
    let content: @Sendable (ViewReader) -> any EncodablePage

    init(
        _ id: PageID, _ path: String, _ template: String, _ source: String,
        content: @escaping @Sendable (ViewReader) -> any EncodablePage
    ) {
        self.path = path
        self.template = template
        self.source = source
        self.id = id
        self.content = content
    }
}

/// Every page of the site, in a stable order (the sitemap's), made from the loaded and sorted
/// model by code that reads no file and renders nothing.
struct SitePlan: Sendable {
    var pages: [PlannedPage]
    /// Every other output file but the sitemap (which lists the pages): content files, resized
    /// images, assets, feeds, search indexes, robots.txt.
    let files: [PlannedFile]
    /// The tags of the standalone notes and of the attached notes that have tags, by slug (tags
    /// whose slugs coincide share a page).
    let tags: [Tag]
    /// The standalone notes' list pages.
    let notePages: [PageSlice]
    /// Each tag name of the standalone notes → its slug (names repeat across notes; a slug is
    /// made once per name).
    let tagSlugs: [String: String]
    /// Each tagged note's tag links (by note index), made once: a note is listed on
    /// many pages.
    let tagLinks: [Int: [TagLink]]

    struct Tag: Sendable, Hashable, Encodable {
        var name: String
        var slug: String
        /// Indices into the notes, in the standalone notes' order.
        var notes: [Int]
    }

    static let notesPageSize = 50
    /// How many of the newest standalone notes the home page lists.
    static let homeNotes = 10

    init(_ model: SiteModel) {
        (tags, tagSlugs) = Self.tags(of: model.taggedNotes, in: model.notes)
        tagLinks = Self.tagLinks(model, tags: tags, slugs: tagSlugs)
        notePages = Pagination.pages(itemCount: model.standaloneNotes.count, pageSize: Self.notesPageSize)
        files = Self.files(model)
        pages = []
        pages = plannedPages(model)
    }

    /// Tags of `standalone` sorted by slug, and each tag name's slug; a tag whose slug is empty
    /// ("!!!") has no page.
    static func tags(of standalone: [Int], in notes: [Note]) -> ([Tag], slugs: [String: String]) {
        var bySlug: [String: Tag] = [:]
        var slugs: [String: String] = [:]
        for n in standalone {
            for name in notes[n].tags {
                let slug: String
                if let known = slugs[name] {
                    slug = known
                } else {
                    slug = Slug.make(name)
                    slugs[name] = slug
                }
                guard Slug.isSafeSegment(slug) else { continue }
                if bySlug[slug]?.notes.last == n { continue }  // the same tag twice on one note
                bySlug[slug, default: Tag(name: name, slug: slug, notes: [])].notes.append(n)
            }
        }
        return (bySlug.values.sorted { $0.slug < $1.slug }, slugs)
    }

    /// A tag's link is made once per name (its slug and URL), then shared by its notes.
    private static func tagLinks(_ model: SiteModel, tags: [Tag], slugs: [String: String]) -> [Int: [TagLink]] {
        var links: [Int: [TagLink]] = [:]
        var linkOf: [String: TagLink?] = [:]
        let known = Set(tags.map(\.slug)), urls = model.urls
        for n in model.taggedNotes where !model.notes[n].tags.isEmpty {
            links[n] = model.notes[n].tags.compactMap { name in
                if let made = linkOf[name] { return made }
                let slug = slugs[name] ?? Slug.make(name)
                let link = known.contains(slug) ? TagLink(name: name, url: urls.tag(slug: slug)) : nil
                linkOf[name] = link
                return link
            }
        }
        return links
    }

    /// The templates the pages render, each once, in the pages' order: what the template check
    /// reads (partials are reached through them).
    var templates: [String] {
        var seen: Set<String> = [], last = ""
        var used: [String] = []
        // Pages of a kind come in runs with one template: a name is looked up once per run.
        for i in pages.indices where pages[i].template != last {
            last = pages[i].template
            if seen.insert(last).inserted { used.append(last) }
        }
        return used
    }

    /// Every page's absolute URL for the sitemap, in the plan's order.
    func sitemapURLs(_ urls: URLScheme) -> [(loc: String, lastModified: String?)] {
        pages.lazy.filter(\.inSitemap).map { (urls.absolute($0.path), $0.lastModified.map(DateFormat.iso.format)) }
    }
}
