import Foundation
import SiteRender

/// The ordinary edits of a site's author, drawn by weight: notes, datasets, templates, site.yml.
enum EditKind: CaseIterable {
    case noteAdd, noteRemove, noteRename, noteTitle, noteDate, noteDraft, noteTags, noteAttach, noteBody
    case noteToc, noteSlug
    case itemRank, itemTitle, itemScore, itemReleased, itemAdd, itemRemove, itemImage, itemOwner, itemGenres
    case pictureBytes, templateKey, partialEdit, overrideToggle
    case siteTitle, siteDescription, siteWords, pageSize, sortChange, collectionTitle, notesTitle, language
    case contentFile

    var weight: Int {
        switch self {
        case .noteAdd, .noteDate, .noteTags, .noteBody, .itemRank: 6
        case .noteRemove, .noteRename, .noteTitle, .noteDraft, .noteAttach, .itemAdd, .itemRemove: 4
        case .templateKey, .partialEdit, .overrideToggle, .itemReleased, .itemTitle: 3
        case .siteTitle, .siteDescription, .siteWords, .pageSize, .sortChange, .collectionTitle, .notesTitle: 1
        default: 2
        }
    }
}

extension SiteSpec {
    /// Applies one random edit that keeps the site valid and says what it did.
    mutating func randomEdit(_ dice: inout Dice) -> String {
        let weights = EditKind.allCases.map(\.weight)
        for _ in 0..<100 {
            var copy = self
            let kind = EditKind.allCases[dice.weighted(weights)]
            guard let what = copy.apply(kind, &dice), copy.problems.isEmpty else { continue }
            self = copy
            return what
        }
        return "no edit"
    }

    /// The edit of `kind`, or nil where the site has nothing it applies to.
    mutating func apply(_ kind: EditKind, _ dice: inout Dice) -> String? {
        switch kind {
        case .noteAdd, .noteRemove, .noteRename, .noteTitle, .noteDate, .noteDraft, .noteTags, .noteAttach,
            .noteBody, .noteToc, .noteSlug:
            return editNote(kind, &dice)
        case .itemRank, .itemTitle, .itemScore, .itemReleased, .itemAdd, .itemRemove, .itemImage, .itemOwner,
            .itemGenres:
            return editItems(kind, &dice)
        case .pictureBytes, .templateKey, .partialEdit, .overrideToggle, .contentFile:
            return editFiles(kind, &dice)
        default:
            return editConfiguration(kind, &dice)
        }
    }

    /// A note added, removed, renamed (links to it follow), or its front matter or body changed.
    mutating func editNote(_ kind: EditKind, _ dice: inout Dice) -> String? {
        if kind == .noteAdd {
            let before = Set(notes.keys)
            addNote(&dice)
            let file = Set(notes.keys).subtracting(before).first ?? ""
            return "add note \(file): \(notes[file].map(Self.frontMatterLine) ?? "")"
        }
        guard !notes.isEmpty else { return nil }
        let file = dice.pick(notes.keys.sorted())
        var n = notes[file]!
        let what: String
        switch kind {
        case .noteRemove:
            notes[file] = nil
            return "remove note \(file)" + dropLinks(to: file)
        case .noteRename:
            let to = "\(dice.pick(["notes", "journal", "notes/deep"]))/\(fresh("n")).md"
            notes[file] = nil
            notes[to] = n
            retarget(file, to)
            return "rename note \(file) to \(to)"
        case .noteTitle:
            n.title = dice.chance(0.8) ? "\(dice.pick(Self.noteWords)) \(dice.int(1...9))" : nil
            what = "title \(n.title ?? "removed")"
        case .noteDate:
            n.date = n.date != nil && dice.chance(0.4) ? nil : randomDay(&dice)
            what = "date \(n.date.map { dayText($0.0, $0.1, $0.2) } ?? "removed")"
        case .noteDraft:
            n.draft.toggle()
            notes[file] = n
            return "note \(file): draft \(n.draft)" + (n.draft ? dropLinks(to: file) : "")
        case .noteTags:
            n.tags = dice.chance(0.3) ? [] : randomTags(&dice)
            what = "tags \(n.tags)"
        case .noteAttach:
            n.item = n.item == nil ? randomItemRef(&dice) : nil
            what = "item \(n.item.map { "\($0.collection)/\($0.id)" } ?? "removed")"
        case .noteBody:
            if !n.blocks.isEmpty && dice.chance(0.35) {
                n.blocks.remove(at: dice.int(0...n.blocks.count - 1))
            } else {
                n.blocks.insert(randomBlock(excluding: file, &dice), at: dice.int(0...n.blocks.count))
            }
            what = "body \(n.blocks.map(\.markdown).joined(separator: " | ").prefix(100))"
        case .noteToc:
            n.toc.toggle()
            what = "toc \(n.toc)"
        default:
            n.slug = n.slug == nil ? fresh("s") : nil
            what = "slug \(n.slug ?? "removed")"
        }
        notes[file] = n
        return "note \(file): \(what)"
    }

    static func frontMatterLine(_ n: NoteSpec) -> String {
        let lines = n.text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == "---", let end = lines.dropFirst().firstIndex(of: "---") else { return "no front matter" }
        return lines[1..<end].joined(separator: "; ")
    }

    /// Removes the links to `file` from the other notes (as an author would), naming them.
    mutating func dropLinks(to file: String) -> String {
        var edited: [String] = []
        for (f, n) in notes where n.blocks.contains(where: { if case .link(file) = $0 { true } else { false } }) {
            notes[f]?.blocks.removeAll { if case .link(file) = $0 { true } else { false } }
            edited.append(f)
        }
        return edited.isEmpty ? "" : " (links to it removed from \(edited.sorted()))"
    }

    mutating func retarget(_ from: String, _ to: String) {
        for (f, n) in notes {
            notes[f]?.blocks = n.blocks.map { if case .link(from) = $0 { .link(to) } else { $0 } }
        }
    }
}

extension SiteSpec {
    /// An item added or removed (its notes detached), or a field changed: the order may re-sort.
    mutating func editItems(_ kind: EditKind, _ dice: inout Dice) -> String? {
        let ci = dice.int(0...collections.count - 1)
        var c = collections[ci]
        if kind == .itemAdd {
            c.items.insert(randomItem(c, &dice), at: dice.int(0...c.items.count))
            collections[ci] = c
            fillOwners(ci, &dice)
            return "\(c.name): add an item"
        }
        let k = dice.int(0...c.items.count - 1)
        var item = c.items[k]
        let what: String
        switch kind {
        case .itemRemove:
            c.items.remove(at: k)
            collections[ci] = c
            var detached: [String] = []
            for (f, n) in notes where n.item?.collection == c.name && n.item?.id == item.id {
                notes[f]?.item = nil
                detached.append(f)
            }
            return "\(c.name): remove item \(item.id)"
                + (detached.isEmpty ? "" : " (notes \(detached.sorted()) detached)")
        case .itemRank:
            item.rank = dice.int(1...5) * 1000 + dice.int(0...2)
            what = "rank \(item.rank)"
        case .itemTitle:
            item.title = "\(dice.pick(Self.itemWords)) \(dice.int(1...9))"
            what = "title \(item.title)"
        case .itemScore:
            item.score = Double(dice.int(0...10)) / 2
            what = "score \(item.score)"
        case .itemReleased:
            item.released = dice.chance(0.3) ? nil : (dice.int(1990...2025), dice.int(1...12), dice.int(1...28))
            what = "released \(item.released.map { dayText($0.0, $0.1, $0.2) } ?? "removed")"
        case .itemImage:
            guard c.images else { return nil }
            item.image = dice.chance(0.2) ? nil : dice.pick(pictureNames)
            what = "image \(item.image ?? "removed")"
        case .itemOwner:
            guard let o = c.ownedBy else { return nil }
            item.owner = dice.chance(0.2) ? nil : dice.pick(collections[o].items).id
            what = "owner \(item.owner ?? "removed")"
        default:
            item.genres = (0..<dice.int(0...2)).map { _ in dice.pick(Self.genres) }
            what = "genres \(item.genres)"
        }
        c.items[k] = item
        collections[ci] = c
        return "\(c.name) item \(item.id): \(what)"
    }

    /// A picture's bytes, a template's keys, a partial, a built-in template overridden or not, a
    /// plain content file.
    mutating func editFiles(_ kind: EditKind, _ dice: inout Dice) -> String? {
        switch kind {
        case .pictureBytes:
            guard !pictureNames.isEmpty else { return nil }
            let name = dice.pick(pictureNames)
            let kin = Self.pictures.filter { ($0.name as NSString).pathExtension == (name as NSString).pathExtension }
            let other = kin.map { Self.picture($0.file) }.first { $0 != media[name] } ?? Data()
            media[name] = other
            return "replace the picture content/\(name)"
        case .templateKey:
            let editable = templates.keys.sorted().filter { templates[$0]!.contains("{{! more }}") }
            guard !editable.isEmpty else { return nil }
            let name = dice.pick(editable)
            if let r = templates[name]!.range(of: #"<p>\{\{[a-z.]+\}\}</p>\n"#, options: .regularExpression),
                dice.chance(0.3)
            {
                templates[name]!.removeSubrange(r)
                return "templates/\(name).mustache: remove a key"
            }
            let key = dice.pick(name.hasSuffix("-item") ? Self.itemKeys : Self.pageKeys)
            templates[name] = templates[name]!.replacingOccurrences(
                of: "{{! more }}", with: "<p>{{\(key)}}</p>\n{{! more }}")
            return "templates/\(name).mustache: add {{\(key)}}"
        case .partialEdit:
            if let shown = overview, dice.chance(0.4) {
                let other = dice.pick(collections).name
                templates["overview-part"] = Self.overviewPart(other)
                overview = other
                return "templates/overview-part.mustache: show data.\(other) instead of data.\(shown)"
            }
            templates["extra"] = "<p class=\"extra\">{{\(dice.pick(Self.pageKeys))}} · \(dice.int(1...99))</p>\n"
            return "templates/extra.mustache: \(templates["extra"]!.dropLast())"
        case .overrideToggle:
            let name = dice.pick(Self.overridable)
            if templates[name] != nil && dice.chance(0.5) {
                templates[name] = nil
                return "remove templates/\(name).mustache (the built-in one again)"
            }
            templates[name] = Self.overridden(name, mark: dice.int(1...99))
            return "override templates/\(name).mustache: \(templates[name]!.suffix(20).dropLast())"
        default:
            if media["files/readme.txt"] != nil {
                media["files/readme.txt"] = nil
                return "remove content/files/readme.txt"
            }
            media["files/readme.txt"] = Data("hello \(dice.int(1...9))\n".utf8)
            return "add content/files/readme.txt"
        }
    }

    static let itemKeys = ["item.title", "item.score", "collection.count", "site.title", "item.card.subtitle"]
    static let pageKeys = [
        "site.title", "site.language", "page.title", "site.root", "site.description", "site.feed", "site.tags"
    ]

    /// site.yml: the site's title, description, words and language, a collection's page size,
    /// sort and title, the notes' title.
    mutating func editConfiguration(_ kind: EditKind, _ dice: inout Dice) -> String? {
        let ci = dice.int(0...collections.count - 1)
        switch kind {
        case .siteTitle:
            title = "Site \(dice.int(1...99))"
            return "site.yml: title \(title)"
        case .siteDescription:
            description = description == nil ? "Words \(dice.int(1...9))." : nil
            return "site.yml: description \(description ?? "removed")"
        case .siteWords:
            let (key, word) = dice.pick([("empty", "Nothing yet"), ("tags", "Topics"), ("close", "Shut")])
            words[key] = words[key] == nil ? word : nil
            return "site.yml: words.\(key) \(words[key] ?? "removed")"
        case .pageSize:
            collections[ci].pageSize = dice.chance(0.3) ? nil : dice.int(1...3)
            return
                "site.yml: \(collections[ci].name).pageSize \(collections[ci].pageSize.map(String.init) ?? "removed")"
        case .sortChange:
            if collections[ci].sort.isEmpty || dice.chance(0.3) {
                collections[ci].sort.insert(
                    SortKey(field: "title", descending: dice.chance(0.5), compare: "text"), at: 0)
            } else {
                collections[ci].sort[0].descending.toggle()
            }
            let s = collections[ci].sort.map { "\($0.field) \($0.descending ? "desc" : "asc")" }
            return "site.yml: \(collections[ci].name).sort \(s)"
        case .collectionTitle:
            collections[ci].title = "\(collections[ci].name.capitalized) \(dice.int(1...9))"
            return "site.yml: \(collections[ci].name).title \(collections[ci].title)"
        case .notesTitle:
            notesTitle = notesTitle == nil ? "Journal" : nil
            return "site.yml: notes.title \(notesTitle ?? "removed")"
        default:
            language = language == "en" ? "ko" : "en"
            return "site.yml: language \(language)"
        }
    }
}

extension SiteSpec {
    /// Files that make the site invalid for one step (written over `files`), and what they break:
    /// the update must throw and leave the output alone, and the next edit must converge.
    func breakage(_ dice: inout Dice) -> (String, [String: Data]) {
        let c = dice.pick(collections)
        switch dice.int(0...5) {
        case 0:
            let file = notes.keys.sorted().first ?? "notes/broken.md"
            return ("break \(file): unclosed YAML list", ["content/" + file: Data("---\ntitle: [x\n---\nBody\n".utf8)])
        case 1:
            let text = (BuiltinTheme.templates["home"] ?? "") + "{{#site.title}}\n"
            return ("break templates/home.mustache: an unclosed section", ["templates/home.mustache": Data(text.utf8)])
        case 2:
            return ("break content/\(c.dataPath): cut short", ["content/" + c.dataPath: Data("[{\"id\": ".utf8)])
        case 3:
            return ("break site.yml: an unknown key", ["site.yml": Data((siteYAML + "titel: Typo\n").utf8)])
        case 4:
            let text = "---\nitem: \(c.name)/no-such-item\n---\nLost.\n"
            return ("break: a note names a missing item", ["content/notes/lost.md": Data(text.utf8)])
        default:
            guard let twin = notes.keys.sorted().first(where: { !notes[$0]!.draft }) else {
                return ("break site.yml: an unknown key", ["site.yml": Data((siteYAML + "titel: Typo\n").utf8)])
            }
            let taken = notes[twin]!.slug ?? Self.slug(ofFile: twin)
            let text = "---\nslug: \(taken)\n---\nTwin.\n"
            return ("break: a second note takes the slug \(taken)", ["content/notes/twin.md": Data(text.utf8)])
        }
    }
}
