import Foundation
import SiteCore
import SiteImages
import SiteLoad

/// The names data provides, for the template check.
enum PageContext {
    /// Every key of `fields` and of the dictionaries nested in them (a joined record's `cast`
    /// is a name a template may use inside a section).
    static func collectNames(of fields: [String: Value], into names: inout Set<String>) {
        var stack: [Value] = []
        for (k, v) in fields {
            names.insert(k)
            if case .array = v { stack.append(v) } else if case .dictionary = v { stack.append(v) }
        }
        while let v = stack.popLast() {
            switch v {
            case .dictionary(let d):
                for (k, child) in d {
                    names.insert(k)
                    if case .array = child { stack.append(child) } else if case .dictionary = child { stack.append(child) }
                }
            case .array(let a):
                for child in a {
                    if case .array = child { stack.append(child) } else if case .dictionary = child { stack.append(child) }
                }
            default: break
            }
        }
    }
}

/// The per-collection state the renderer needs: sorted items and their URLs.
struct CollectionPages: Sendable {
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
    /// Every field name the items and meta hold (for the template check).
    var fieldNames: Set<String>
    /// Item index by slug.
    var slugIndex: [String: Int]
    /// Each item's place for messages ("content/bounties.json items[3]"), made once: every
    /// edit plans every item's page again.
    var itemSources: [String]
    /// Each item's view (fields, images, card, related lists), made once per model.
    var itemViews: [ItemView] = []
    /// Resized images of every collection (the image phase's result).
    var published: [ImageUse: PublishedImage] = [:]

    /// The resized copies of `info` shown in `field`, if it is resized.
    func published(_ field: String, _ info: ImageInfo) -> PublishedImage? {
        info.isExternal ? nil : published[ImageUse(collection: config.name, field: field, source: info.source)]
    }

    init(loaded: LoadedCollection, order: [Int], position: [Int], pages: [PageSlice], itemURLs: [String?], listPaths: [String],
         fieldNames: Set<String>) {
        self.loaded = loaded
        self.order = order
        self.position = position
        self.pages = pages
        self.itemURLs = itemURLs
        self.listPaths = listPaths
        self.notesByItem = Array(repeating: [], count: loaded.items.count)
        self.fieldNames = fieldNames
        self.slugIndex = Dictionary(loaded.items.enumerated().map { ($1.slug, $0) }, uniquingKeysWith: { a, _ in a })
        self.itemSources = loaded.items.map { item in item.source.path.map { "\(item.source.file) \($0)" } ?? item.source.file + " " }
    }

    var config: CollectionConfig { loaded.config }
}
