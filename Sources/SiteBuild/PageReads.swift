import SiteCore
import SiteLoad

// What a page depends on is recorded as its view is made, not listed by page kind: the view
// reads the model only through `ViewReader` (and `TemplateEncoding`, for the items a related
// list shows), each read records a `ModelPart`, and a page is rendered again exactly when the
// version of one of its parts (`PartVersions`), its template or its path changes.

/// A part of the model a page's view can read, named by what does not move when others are
/// added or removed (a note's file, a collection's name), so a page whose parts kept their
/// versions is kept even when indices shift.
enum ModelPart: Hashable, Sendable {
    /// The site-wide values: the configuration, `site`, the navigation, the assets' names.
    case site
    /// A collection: its items, order, pages, item views (images and related lists included)
    /// and which notes are attached to which item.
    case collection(String)
    /// A note (by file): its fields, HTML, headings, URL and tag links.
    case note(String)
    /// Which notes are standalone, in which order, on which list pages.
    case notes
    /// The standalone notes' tags: names, slugs and notes.
    case tags
}

/// The parts one page's view read, in the order first read (so a page's fingerprint is the
/// same each time the same parts are read). One per page, used by the one thread making it.
final class PageReads {
    private var seen: Set<ModelPart> = []
    private(set) var parts: [ModelPart] = []
    /// false: nothing is kept (`sitegen build` renders every page once and compares none).
    private let keeps: Bool

    init(keeps: Bool = true) { self.keeps = keeps }

    func record(_ part: ModelPart) {
        guard keeps else { return }
        if seen.insert(part).inserted { parts.append(part) }
    }
}

/// Each part's version in one model: a digest of everything the part holds (`ViewMaker.versions`).
struct PartVersions {
    var site: UInt64
    var collections: [String: UInt64]
    var notes: [String: UInt64]
    var standalone: UInt64
    var tags: UInt64

    /// The part's version; nil when this model has no such part (a removed note or collection).
    func version(_ part: ModelPart) -> UInt64? {
        switch part {
        case .site: site
        case .collection(let name): collections[name]
        case .note(let file): notes[file]
        case .notes: standalone
        case .tags: tags
        }
    }
}
