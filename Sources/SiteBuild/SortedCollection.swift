import Foundation
import SiteCore
import SiteImages
import SiteLoad
import Synchronization

/// A collection sorted and paginated: its items in display order, their URLs and views, the
/// per-collection state the renderer needs.
struct SortedCollection: Sendable {
    var loaded: LoadedCollection
    /// Item indices in display order.
    var order: [Int]
    /// Each item's place in `order` (for its neighbours, without a scan per page).
    var position: [Int]
    var pages: [PageSlice]
    var itemURLs: [String?]
    /// Each list page's path (`URLScheme.list`).
    var listPaths: [String]
    /// The notes attached to each item (indices into the notes).
    var notesByItem: [[Int]]
    /// The terms of each of the collection's `terms` rules, in their order.
    var terms: [TermList] = []
    /// Every field name the items and meta hold (for the template check).
    var fieldNames: Set<String>
    /// Item index by slug.
    var slugIndex: [String: Int]
    /// Each item's place for messages ("content/bounties.json items[3]"), made once: every
    /// edit plans every item's page again.
    var itemSources: [String]
    /// Each item's view (fields, images, card, related lists), made once per model.
    var itemViews: [ItemView] = [] {
        didSet { itemViewsToken = Self.nextToken() }
    }
    /// Which making of `itemViews` this is, the same in every copy of the collection: their digest
    /// (`LoadedDigests.itemViews`) is taken once per token, and only where versions are compared
    /// (digesting 10,000 views on each edit would cost more than the rest of a rebuild, and a
    /// plain build needs no digest).
    private(set) var itemViewsToken: UInt64 = 0
    private static let tokens = Mutex<UInt64>(0)

    private static func nextToken() -> UInt64 {
        tokens.withLock { last in
            last += 1
            return last
        }
    }
    /// Resized images of every collection (the image phase's result).
    var published: [ImageUse: PublishedImage] = [:]

    /// The resized copies of `info` shown in `field`, if it is resized.
    func published(_ field: String, _ info: ImageInfo) -> PublishedImage? {
        info.isExternal ? nil : published[ImageUse(collection: config.name, field: field, source: info.source)]
    }

    init(
        loaded: LoadedCollection, order: [Int], position: [Int], pages: [PageSlice], itemURLs: [String?],
        listPaths: [String],
        fieldNames: Set<String>
    ) {
        self.loaded = loaded
        self.order = order
        self.position = position
        self.pages = pages
        self.itemURLs = itemURLs
        self.listPaths = listPaths
        self.notesByItem = Array(repeating: [], count: loaded.items.count)
        self.fieldNames = fieldNames
        self.slugIndex = Dictionary(loaded.items.enumerated().map { ($1.slug, $0) }, uniquingKeysWith: { a, _ in a })
        self.itemSources = loaded.items.map { item in
            item.source.path.map { "\(item.source.file) \($0)" } ?? item.source.file + " "
        }
    }

    var config: CollectionConfig { loaded.config }
}
