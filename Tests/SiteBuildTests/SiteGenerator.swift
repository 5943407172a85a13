import Foundation
import SiteCore
import SiteRender

/// Random choices drawn from one seed (SplitMix64), so a run is the same on every machine.
struct Dice {
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    /// A number in `range` (modulo bias is irrelevant at these sizes).
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(rng.next() % UInt64(range.count))
    }

    mutating func chance(_ p: Double) -> Bool { Double(rng.next() % 10_000) < p * 10_000 }

    mutating func pick<T>(_ options: [T]) -> T { options[int(0...options.count - 1)] }

    /// An index chosen by weight.
    mutating func weighted(_ weights: [Int]) -> Int {
        var n = int(0...weights.reduce(0, +) - 1)
        for (i, w) in weights.enumerated() {
            if n < w { return i }
            n -= w
        }
        return weights.count - 1
    }
}

/// A collection item with the fields sorting, cards, feeds and `related:` use.
struct ItemSpec {
    var id: String
    var title: String
    var rank: Int
    var score: Double
    var released: (Int, Int, Int)?
    var genres: [String]
    /// The id of an item of the collection whose `related:` lists this one's collection.
    var owner: String?
    /// A picture under content/ (`images: { fields: image }`).
    var image: String?

    var value: DataValue {
        var r: [(String, DataValue)] = [
            ("id", .string(id)), ("title", .string(title)), ("rank", .integer(rank)), ("score", .real(score))
        ]
        if let d = released { r.append(("released", .day(d.0, d.1, d.2))) }
        r.append(("genres", .list(genres.map { .string($0) })))
        if let owner { r.append(("owner", .string(owner))) }
        if let image { r.append(("image", .string(image))) }
        return .record(r)
    }
}

struct SortKey {
    var field: String
    var descending: Bool
    var compare: String
}

struct CollectionSpec {
    var name: String
    var title: String
    var description: String?
    var format: DataFormat
    var items: [ItemSpec]
    var sort: [SortKey]
    var pageSize: Int?
    var layout: String
    /// nil: `detail: false`; "detail": the built-in page; else a template in templates/.
    var detail: String?
    var listTemplate: String
    /// The collection whose `related:` shows this one's items by their `owner`.
    var ownedBy: Int?
    var images: Bool
    var feed: Bool
    var search: Bool
    var thousands: Bool
    var menu: Bool

    var dataPath: String {
        format == .binaryPlist ? "\(name)/items.\(format.fileExtension)" : "\(name).\(format.fileExtension)"
    }
}

/// A note's body, block by block, so edits can add, drop and retarget links and pictures.
enum NoteBlock {
    case text(String)
    case heading(String)
    case code(language: String, text: String)
    /// A link to another note, by its file under content/.
    case link(String)
    case image(String)

    var markdown: String {
        switch self {
        case .text(let t): t
        case .heading(let h): "## \(h)"
        case .code(let lang, let text): "```\(lang)\n\(text)\n```"
        case .link(let file): "See [the other note](/\(file)#top)."
        case .image(let path): "![a picture](/\(path))"
        }
    }
}

struct NoteSpec {
    var title: String?
    var date: (Int, Int, Int)?
    var slug: String?
    var tags: [String]
    var summary: String?
    var draft: Bool
    var toc: Bool
    /// (collection, item id); `bare` writes the id alone (the notes' collection).
    var item: (collection: String, id: String, bare: Bool)?
    var blocks: [NoteBlock]

    var text: String {
        var fm: [String] = []
        if let title { fm.append("title: \(title)") }
        if let d = date { fm.append("date: \(dayText(d.0, d.1, d.2))") }
        if let slug { fm.append("slug: \(slug)") }
        if !tags.isEmpty { fm.append("tags: [\(tags.joined(separator: ", "))]") }
        if let summary { fm.append("summary: \(summary)") }
        if draft { fm.append("draft: true") }
        if toc { fm.append("toc: true") }
        if let item { fm.append("item: " + (item.bare ? item.id : "\(item.collection)/\(item.id)")) }
        let body = blocks.map(\.markdown).joined(separator: "\n\n") + "\n"
        return fm.isEmpty ? body : "---\n" + fm.joined(separator: "\n") + "\n---\n" + body
    }
}

/// A whole random site as values: `files` writes it, edits change it. Every edit keeps the
/// invariants of `problems` (a valid site), but for the deliberate breakages of `SiteEdits`.
struct SiteSpec {
    var title: String
    var description: String?
    var language: String
    var words: [String: String]
    var collections: [CollectionSpec]
    /// By file under content/.
    var notes: [String: NoteSpec]
    var notesCollection: String?
    var notesTitle: String?
    var tagsURL: String?
    /// The collection a page of its own (`pages: overview`) shows through `data` in a partial.
    var overview: String?
    /// templates/<name>.mustache.
    var templates: [String: String]
    /// Pictures and other files under content/, by path.
    var media: [String: Data]
    var counter = 0

    mutating func fresh(_ prefix: String) -> String {
        counter += 1
        return "\(prefix)\(counter)"
    }

    /// The pictures items and notes can show (content/media/).
    var pictureNames: [String] { media.keys.filter { $0.hasPrefix("media/") }.sorted() }

    func collection(named name: String) -> CollectionSpec? { collections.first { $0.name == name } }

    /// Every source file: site.yml, the datasets, notes, media and templates.
    var files: [String: Data] {
        var out: [String: Data] = ["site.yml": Data(siteYAML.utf8)]
        for c in collections { out["content/" + c.dataPath] = c.format.encode(c.items.map(\.value)) }
        for (file, note) in notes { out["content/" + file] = Data(note.text.utf8) }
        for (path, data) in media { out["content/" + path] = data }
        for (name, text) in templates { out["templates/\(name).mustache"] = Data(text.utf8) }
        return out
    }

    var siteYAML: String {
        var y = "title: \(title)\nbaseURL: https://example.org/\nlanguage: \(language)\n"
        if let description { y += "description: \(description)\n" }
        if !words.isEmpty {
            y += "words:\n" + words.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)\n" }.joined()
        }
        y += "collections:\n" + collections.map { collectionYAML($0) }.joined()
        if overview != nil {
            y += "pages:\n  overview: { url: /overview/, title: Overview }\n"
        }
        var notesKeys: [String] = []
        if let notesCollection { notesKeys.append("collection: \(notesCollection)") }
        if let notesTitle { notesKeys.append("title: \(notesTitle)") }
        if let tagsURL { notesKeys.append("tags: \(tagsURL)") }
        if !notesKeys.isEmpty { y += "notes:\n" + notesKeys.map { "  \($0)\n" }.joined() }
        return y
    }

    func collectionYAML(_ c: CollectionSpec) -> String {
        var y = "  \(c.name):\n    title: \(c.title)\n    data: \(c.dataPath)\n    slug: id\n"
        if let d = c.description { y += "    description: \(d)\n" }
        if c.format == .wrappedJSON { y += "    items: results\n" }
        if !c.sort.isEmpty {
            y += "    sort:\n"
            for k in c.sort {
                y +=
                    "      - { field: \(k.field), order: \(k.descending ? "descending" : "ascending"), "
                    + "compare: \(k.compare) }\n"
            }
        }
        if let p = c.pageSize { y += "    pageSize: \(p)\n" }
        if c.thousands { y += "    derived:\n      rankText: { from: rank, format: thousands }\n" }
        let subtitle = c.thousands ? "rankText" : "score"
        y += "    card: { title: title, subtitle: \(subtitle)\(c.images ? ", image: image" : "") }\n"
        if c.images { y += "    images: { fields: image, formats: [webp, jpeg] }\n" }
        y += "    layout: { kind: \(c.layout) }\n"
        if c.listTemplate != "list" { y += "    list: { template: \(c.listTemplate) }\n" }
        switch c.detail {
        case nil: y += "    detail: false\n"
        case "detail": break
        case let t?: y += "    detail: { template: \(t) }\n"
        }
        let owned = collections.filter { $0.ownedBy.map { collections[$0].name } == c.name }
        if !owned.isEmpty {
            y += "    related:\n"
            for o in owned { y += "      \(o.name): { collection: \(o.name), via: owner, key: id }\n" }
        }
        if c.feed { y += "    feed: { date: released, limit: 3 }\n" }
        if c.search { y += "    search: { url: /\(c.name)/search.json, fields: [title, genres] }\n" }
        // Terms where the genres are searched (no die of its own, so the seeds make the sites
        // they made), while some item has a genre (a terms field no item has is an error).
        if c.search, c.items.contains(where: { !$0.genres.isEmpty }) {
            y += "    terms:\n      genres: { field: genres, title: Genres }\n"
        }
        if !c.menu { y += "    menu: false\n" }
        return y
    }

    /// What would make the site invalid (or the generator's notion of it wrong); empty when valid.
    var problems: [String] {
        var out: [String] = []
        for c in collections {
            if c.items.isEmpty { out.append("\(c.name) is empty") }
            if Set(c.items.map(\.id)).count != c.items.count { out.append("\(c.name) repeats an id") }
            if c.sort.contains(where: { $0.field == "released" }) && !c.items.contains(where: { $0.released != nil }) {
                out.append("\(c.name) sorts by a date no item has")
            }
        }
        var slugs: Set<String> = []
        for (file, n) in notes {
            let slug = n.slug ?? SiteSpec.slug(ofFile: file)
            if !slugs.insert(slug).inserted { out.append("slug \(slug) twice") }
            if let item = n.item {
                let c = collection(named: item.collection)
                if c?.detail == nil || !(c?.items.contains { $0.id == item.id } ?? false) {
                    out.append("\(file) names a missing item")
                }
            }
            for case .link(let target) in n.blocks where notes[target]?.draft ?? true {
                out.append("\(file) links a missing note")
            }
        }
        return out
    }

    static func slug(ofFile file: String) -> String {
        String((file as NSString).lastPathComponent.dropLast(3))
    }
}
