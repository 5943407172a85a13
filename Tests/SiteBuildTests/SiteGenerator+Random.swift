import Foundation
import SiteRender

/// The random starting site of a seed, and the texts its parts are drawn from.
extension SiteSpec {
    static let collectionNames = ["books", "films", "birds"]
    static let itemWords = ["Amber", "Birch", "Cobalt", "Dune", "Ember", "Fjord", "Gale", "바람", "Iris", "하늘"]
    static let noteWords = ["Harbour notes", "On birch", "Reading list", "Field log", "Quiet week", "Salt"]
    /// Two pairs differ only in case: one tag page each, named after the first note's spelling.
    static let tagNames = ["swift", "Swift", "web", "data", "Data", "travel"]
    static let genres = ["drama", "poetry", "noir", "essay"]
    /// Small pictures of the repository, two of each format so a file can change but not its kind.
    static let pictures: [(name: String, file: String)] = [
        ("a.png", "fuzz/seeds/vips/a.png"), ("b.png", "content/photos/users/sam_okoro.png"),
        ("c.jpg", "fuzz/seeds/vips/a.jpg"), ("d.jpg", "fuzz/seeds/image/a.jpg")
    ]
    /// Built-in templates a site may override with a copy of its own.
    static let overridable = ["note", "notes", "card-body", "tags", "tag", "home", "base", "detail", "list"]

    static func picture(_ file: String) -> Data {
        (try? Data(contentsOf: Fixture.repository.appendingPathComponent(file))) ?? Data()
    }

    static func random(_ dice: inout Dice) -> SiteSpec {
        var s = SiteSpec(
            title: "Site \(dice.int(1...99))", description: dice.chance(0.5) ? "A random site." : nil,
            language: dice.chance(0.25) ? "ko" : "en", words: [:], collections: [], notes: [:],
            notesCollection: nil, notesTitle: dice.chance(0.3) ? "Journal" : nil,
            tagsURL: dice.chance(0.2) ? "/topics/" : nil, overview: nil, templates: [:], media: [:])
        if dice.chance(0.3) { s.words["empty"] = "Nothing yet" }
        let withImages = dice.chance(0.35)
        if withImages {
            for p in pictures.prefix(dice.int(1...pictures.count)) { s.media["media/" + p.name] = picture(p.file) }
        }
        s.templates["extra"] = "<p class=\"extra\">{{site.title}} · 1</p>\n"
        for i in 0..<dice.int(1...3) { s.collections.append(s.randomCollection(i, images: withImages, &dice)) }
        for i in s.collections.indices.dropFirst() where dice.chance(0.6) { s.collections[i].ownedBy = i - 1 }
        for i in s.collections.indices { s.fillOwners(i, &dice) }
        for c in s.collections { if let t = c.detail, t != "detail" { s.templates[t] = s.itemTemplate(c.name) } }
        if dice.chance(0.5) { s.notesCollection = s.collections.first { $0.detail != nil }?.name }
        if dice.chance(0.4) {
            let shown = dice.pick(s.collections).name
            s.overview = shown
            s.templates["overview"] =
                "{{<base}}\n{{$content}}\n<h1>{{page.title}}</h1>\n{{>overview-part}}\n{{! more }}\n"
                + "{{/content}}\n{{/base}}\n"
            s.templates["overview-part"] = overviewPart(shown)
        }
        for name in overridable where dice.chance(0.12) { s.templates[name] = overridden(name, mark: 0) }
        for _ in 0..<dice.int(0...6) { s.addNote(&dice) }
        return s
    }

    mutating func randomCollection(_ index: Int, images: Bool, _ dice: inout Dice) -> CollectionSpec {
        let name = Self.collectionNames[index]
        let sortFields: [(String, String)] =
            [("rank", "number"), ("title", "text"), ("score", "number")]
            + [("released", "date")]
        var sort: [SortKey] = []
        for _ in 0..<dice.int(0...2) {
            let f = dice.pick(sortFields)
            sort.append(SortKey(field: f.0, descending: dice.chance(0.5), compare: f.1))
        }
        var c = CollectionSpec(
            name: name, title: name.capitalized, description: dice.chance(0.4) ? "About \(name)." : nil,
            format: dice.pick(DataFormat.allCases), items: [], sort: sort,
            pageSize: dice.chance(0.6) ? dice.int(1...3) : nil, layout: dice.pick(["list", "grid", "masonry"]),
            detail: dice.pick([nil, "detail", "detail", "\(name)-item"]),
            listTemplate: dice.chance(0.3) ? "\(name)-list" : "list", ownedBy: nil,
            images: images && dice.chance(0.7), feed: dice.chance(0.3), search: dice.chance(0.3),
            thousands: dice.chance(0.5), menu: dice.chance(0.85))
        if c.listTemplate != "list" { templates[c.listTemplate] = Self.listTemplate }
        for _ in 0..<dice.int(1...6) { c.items.append(randomItem(c, &dice)) }
        if c.sort.contains(where: { $0.field == "released" }) && !c.items.contains(where: { $0.released != nil }) {
            c.items[0].released = (2001, 2, 3)
        }
        return c
    }

    mutating func randomItem(_ c: CollectionSpec, _ dice: inout Dice) -> ItemSpec {
        ItemSpec(
            id: fresh(String(c.name.prefix(1)) + "-"), title: "\(dice.pick(Self.itemWords)) \(dice.int(1...9))",
            rank: dice.int(1...5) * 1000, score: Double(dice.int(0...10)) / 2,
            released: dice.chance(0.7) ? (dice.int(1990...2025), dice.int(1...12), dice.int(1...28)) : nil,
            genres: (0..<dice.int(0...2)).map { _ in dice.pick(Self.genres) }, owner: nil,
            image: c.images && dice.chance(0.8) ? dice.pick(pictureNames) : nil)
    }

    /// Each item of collection `i` names an item of the collection that lists it (or none).
    mutating func fillOwners(_ i: Int, _ dice: inout Dice) {
        guard let o = collections[i].ownedBy else { return }
        let ids = collections[o].items.map(\.id)
        for k in collections[i].items.indices {
            collections[i].items[k].owner = dice.chance(0.8) ? dice.pick(ids) : nil
        }
    }

    /// A new note: standalone or attached, dated or not, with tags, a draft now and then.
    mutating func addNote(_ dice: inout Dice) {
        let folder = dice.pick(["notes", "notes", "notes/deep", "journal"])
        let file = "\(folder)/\(fresh("n")).md"
        var note = NoteSpec(
            title: dice.chance(0.9) ? "\(dice.pick(Self.noteWords)) \(dice.int(1...9))" : nil,
            date: dice.chance(0.6) ? randomDay(&dice) : nil, slug: dice.chance(0.15) ? fresh("s") : nil,
            tags: randomTags(&dice), summary: dice.chance(0.2) ? "In short." : nil, draft: dice.chance(0.1),
            toc: dice.chance(0.2), item: nil, blocks: [.text("Text of \(file).")])
        if dice.chance(0.3) { note.item = randomItemRef(&dice) }
        for _ in 0..<dice.int(0...3) { note.blocks.append(randomBlock(excluding: file, &dice)) }
        notes[file] = note
    }

    func randomDay(_ dice: inout Dice) -> (Int, Int, Int) { (2026, dice.int(1...2), dice.int(1...4)) }

    func randomTags(_ dice: inout Dice) -> [String] {
        dice.chance(0.5) ? [] : (0..<dice.int(1...2)).map { _ in dice.pick(Self.tagNames) }
    }

    func randomItemRef(_ dice: inout Dice) -> (collection: String, id: String, bare: Bool)? {
        let shown = collections.filter { $0.detail != nil }
        guard !shown.isEmpty else { return nil }
        let c = dice.pick(shown)
        return (c.name, dice.pick(c.items).id, c.name == notesCollection && dice.chance(0.5))
    }

    func randomBlock(excluding file: String, _ dice: inout Dice) -> NoteBlock {
        let linkable = notes.filter { $0.key != file && !$0.value.draft }.keys.sorted()
        switch dice.int(0...5) {
        case 0: return .heading("Part \(dice.int(1...9))")
        case 1: return .code(language: dice.pick(["swift", "text", ""]), text: "let x = \(dice.int(1...9))")
        case 2 where !linkable.isEmpty: return .link(dice.pick(linkable))
        case 3 where !pictureNames.isEmpty: return .image(dice.pick(pictureNames))
        default: return .text("More words, \(dice.int(1...99)).")
        }
    }

    /// A collection's own item page: its fields, related items, notes, neighbours and a partial.
    func itemTemplate(_ collection: String) -> String {
        let related = collections.filter { $0.ownedBy.map { collections[$0].name } == collection }.map {
            "{{#item.related.\($0.name)}}<a href=\"{{url}}\">{{title}}</a>{{/item.related.\($0.name)}}\n"
        }
        return """
            {{<base}}
            {{$title}}{{item.title}} · {{site.title}}{{/title}}
            {{$content}}
            <article class="detail" data-item="{{item.slug}}">
            <h1>{{item.title}}</h1>
            <p>{{item.rank}} · {{item.card.subtitle}}</p>
            {{#item.card.image.detail}}<img src="{{src}}" width="{{width}}" height="{{height}}" alt="">\
            {{/item.card.image.detail}}
            \(related.joined())\
            {{#notes}}<section class="note prose">{{{html}}}</section>{{/notes}}
            {{#prev}}<a rel="prev" href="{{url}}">{{title}}</a>{{/prev}}\
            {{#next}}<a rel="next" href="{{url}}">{{title}}</a>{{/next}}
            {{>extra}}
            {{! more }}
            </article>
            {{/content}}
            {{/base}}

            """
    }

    static let listTemplate = """
        {{<base}}
        {{$title}}{{collection.title}} · {{site.title}}{{/title}}
        {{$content}}
        <h1>{{collection.title}} ({{collection.count}})</h1>
        <ol>{{#items}}<li>{{#url}}<a href="{{url}}">{{card.title}}</a>{{/url}} {{score}}</li>{{/items}}</ol>
        {{>pagination}}
        {{>extra}}
        {{! more }}
        {{/content}}
        {{/base}}

        """

    static func overviewPart(_ collection: String) -> String {
        "<ul>{{#data.\(collection).items}}<li>{{title}} {{rank}}</li>{{/data.\(collection).items}}</ul>\n"
    }

    /// A built-in template with a comment of its own (`mark` tells the versions apart).
    static func overridden(_ name: String, mark: Int) -> String {
        (BuiltinTheme.templates[name] ?? "") + "<!-- \(name) \(mark) -->\n"
    }
}
