import Foundation
import Testing
import SiteCore
@testable import SiteLoad

/// Each bad input gives `file:line:column: error: message` (or the item index and key where the
/// format has no lines).
@Suite struct LoadErrorTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-load-\(UUID().uuidString)")

    func tree(_ files: [String: Data]) throws -> ContentTree {
        for (path, data) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        return try ContentTree.scan(root)
    }

    func collection(_ yamlBody: String) throws -> CollectionConfig {
        let c = try SiteConfig.parse(
            "title: T\nbaseURL: https://x.org/\ncollections:\n  c:\n" + yamlBody, file: "site.yml")
        return try #require(c.collections.first)
    }

    func loadErrors(_ files: [String: String], _ yamlBody: String) throws -> [String] {
        defer { try? FileManager.default.removeItem(at: root) }
        let content = try tree(files.mapValues { Data($0.utf8) })
        let config = try collection(yamlBody)
        do {
            _ = try CollectionLoader(content: content, language: "ko").load(config, imageSizes: ImageSizeCache())
            return []
        } catch {
            return error.items.map(\.description)
        }
    }

    @Test func malformedJSON() throws {
        let e = try loadErrors(["d.json": "[\n {\"a\": 1,}\n]"], "    data: d.json\n    slug: a\n")
        #expect(e.count == 1 && e[0].hasPrefix("content/d.json:2:"), "\(e)")
    }

    /// A CSV dataset's cells are text typed by `fields:`; a cell not of its type is an error at
    /// the cell, an empty one is missing.
    @Test func csvCellsAreTypedByTheirFields() throws {
        let csv = "name,year,rating,seen,note\nArrival,2016,7.9,true,\nAlien,19x9,8.5,maybe,\"a, b\"\nHer,,x,false,\n"
        let fields = "    fields: { year: integer, rating: number, seen: boolean, note: string }\n"
        let e = try loadErrors(["d.csv": csv], "    data: d.csv\n    slug: name\n" + fields)
        #expect(
            e == [
                "content/d.csv:3:16: error: field 'seen' of item 1 must be a boolean, found a string (\"maybe\")",
                "content/d.csv:3:7: error: field 'year' of item 1 must be an integer, found a string (\"19x9\")",
                "content/d.csv:4:6: error: field 'rating' of item 2 must be a number, found a string (\"x\")",
                "content/d.csv:4:1: error: item 2 has no field 'year' (an integer)"
            ])
        let content = try tree(
            ["e.csv": Data("name,year,rating,seen,note\nArrival,2016,7.9,true,\nHer,2013,8,false,\"\"\n".utf8)])
        defer { try? FileManager.default.removeItem(at: root) }
        let loaded = try CollectionLoader(content: content, language: "en").load(
            try collection("    data: e.csv\n    slug: name\n" + fields), imageSizes: ImageSizeCache())
        #expect(loaded.items.map { $0.fields["year"] } == [.int(2016), .int(2013)])
        #expect(loaded.items.map { $0.fields["rating"] } == [.double(7.9), .int(8)])
        #expect(loaded.items.map { $0.fields["seen"] } == [.bool(true), .bool(false)])
        #expect(loaded.items.map { $0.fields["note"] } == [.string(""), .string("")], "an empty text is text")
    }

    @Test func missingDataset() throws {
        let e = try loadErrors([:], "    data: nowhere.json\n    slug: a\n")
        #expect(
            e == [
                "content/nowhere.json: error: cannot read the dataset of collection 'c' (named by its 'data' in site.yml): no such file"
            ])
    }

    @Test func keyPathThatLeadsNowhere() throws {
        let e = try loadErrors(
            ["d.json": "{\"boxOfficeResult\": {\"list\": []}}"],
            "    data: d.json\n    items: boxOfficeResult.dailyBoxOfficeList\n    slug: a\n")
        #expect(
            e == [
                "content/d.json: error: key path 'boxOfficeResult.dailyBoxOfficeList' leads nowhere: dailyBoxOfficeList not found in 'boxOfficeResult' (keys there: list)"
            ])
    }

    @Test func missingFieldAndWrongType() throws {
        let json =
            "[\n  {\"name\": \"a\", \"bounty\": 1},\n  {\"name\": \"b\"},\n  {\"name\": \"c\", \"bounty\": \"lots\"}\n]"
        let e = try loadErrors(["d.json": json], "    data: d.json\n    slug: name\n    fields: { bounty: integer }\n")
        #expect(
            e == [
                "content/d.json:3:3: error: item 1 has no field 'bounty' (an integer)",
                "content/d.json:4:27: error: field 'bounty' of item 2 must be an integer, found a string (\"lots\")"
            ])
    }

    /// A renamed field's problems are located at the key written in the file (`movieNm`), not at
    /// the name the site uses (`title`), which exists nowhere in the data.
    @Test func renamedFieldsAreLocatedAtTheirKeyInTheFile() throws {
        let json =
            "[\n  {\"movieCd\": \"a\", \"movieNm\": 7, \"audiAcc\": \"x\", \"poster\": 5},\n  {\"movieCd\": \"../b\", \"movieNm\": \"B\", \"audiAcc\": 1, \"poster\": \"https://img.example/b.jpg\"}\n]"
        let e = try loadErrors(
            ["d.json": json],
            """
                data: d.json
                slug: code
                rename: { movieCd: code, movieNm: title, audiAcc: audience, poster: picture }
                fields: { title: string }
                derived: { people: { from: audience, format: thousands } }
                images: { fields: [picture], external: true }

            """)
        #expect(
            e == [
                "content/d.json:2:31: error: field 'title' of item 0 must be a string, found an integer (7)",
                "content/d.json:2:45: error: item 0: field 'audience' is not a number: \"x\" (for derived field 'people')",
                "content/d.json:2:60: error: image field 'picture' of item 0 must be a file name or URL, found an integer (5)",
                "content/d.json:3:15: error: slug '../b' of item 1 cannot be a URL segment (\(Slug.segmentRule))"
            ])
        defer { try? FileManager.default.removeItem(at: root) }
        let plist = try PropertyListSerialization.data(
            fromPropertyList: [["movieCd": "a", "movieNm": 7]], format: .binary, options: 0)
        let content = try tree(["p.plist": plist])
        let config = try collection(
            "    data: p.plist\n    slug: code\n    rename: { movieCd: code, movieNm: title }\n    fields: { title: string }\n"
        )
        #expect(throws: Diagnostics.self) {
            try CollectionLoader(content: content, language: "ko").load(config, imageSizes: ImageSizeCache())
        }
        do {
            _ = try CollectionLoader(content: content, language: "ko").load(config, imageSizes: ImageSizeCache())
        } catch {
            #expect(
                error.items.map(\.description) == [
                    "content/p.plist: error: at [0].movieNm: field 'title' of item 0 must be a string, found an integer (7)"
                ])
        }
    }

    @Test func duplicateSlugs() throws {
        let e = try loadErrors(["d.json": "[{\"id\": \"x\"},\n{\"id\": \"x\"}]"], "    data: d.json\n    slug: id\n")
        #expect(
            e.count == 1
                && e[0].hasPrefix(
                    "content/d.json:2:1: error: duplicate slug 'x' in collection 'c': item 1 and the item at content/d.json:1"
                ), "\(e)")
    }

    @Test func imageOutsideContentAndMissingImage() throws {
        let json = "[{\"id\": \"a\", \"img\": \"../../etc/passwd\"},\n {\"id\": \"b\", \"img\": \"missing.png\"}]"
        let e = try loadErrors(["d.json": json], "    data: d.json\n    slug: id\n    images: { fields: img }\n")
        #expect(
            e == [
                "content/d.json:1:21: error: image reference refused: '../../etc/passwd' points outside content/",
                "content/d.json:2:21: error: image 'content/missing.png' does not exist"
            ])
    }

    @Test func binaryPlistErrorsNameIndexAndKey() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let plist = try PropertyListSerialization.data(
            fromPropertyList: [["Caption": "a"], ["Caption": 3]], format: .binary, options: 0)
        let content = try tree(["p.plist": plist])
        let config = try collection("    data: p.plist\n    slug: { from: Caption }\n    fields: { Caption: string }\n")
        do {
            _ = try CollectionLoader(content: content, language: "ko").load(config, imageSizes: ImageSizeCache())
            Issue.record("expected an error")
        } catch {
            #expect(
                error.items.map(\.description) == [
                    "content/p.plist: error: at [1].Caption: field 'Caption' of item 1 must be a string, found an integer (3)"
                ])
        }
    }

    @Test func xmlPlistDatasetsLoad() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array>
            <dict><key>Caption</key><string>Tommy</string><key>Count</key><integer>9000000000</integer></dict>
            </array></plist>
            """
        let content = try tree(["p.plist": Data(xml.utf8)])
        let loaded = try CollectionLoader(content: content, language: "ko").load(
            try collection(
                "    data: p.plist\n    slug: { from: Caption }\n    derived: { n: { from: Count, format: thousands } }\n"
            ), imageSizes: ImageSizeCache())
        #expect(loaded.items.map(\.slug) == ["tommy"])
        #expect(loaded.items[0].fields["n"] == .string("9,000,000,000"))
    }

    @Test func notesAttachAndReportBadFrontMatter() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let content = try tree([
            "notes/a.md": Data("---\ntitle: A\nitem: luffy\n---\nHi *there*\n".utf8),
            "notes/b.md": Data("---\ntitle: B\ndate: someday\n---\n".utf8),
            "notes/c.md": Data("---\ntitle: [x\n---\n".utf8)
        ])
        do {
            _ = try NoteLoader(content: content, notesCollection: "bounties", includeDrafts: false).loadAll()
            Issue.record("expected errors")
        } catch {
            let e = error.items.map(\.description)
            #expect(e.count == 2)
            #expect(
                e.contains(
                    "content/notes/b.md:3: error: front matter 'date' must be a date like 2024-01-31, found \"someday\""
                ))
            #expect(e.contains { $0.hasPrefix("content/notes/c.md:3:") }, "\(e)")
        }
        try FileManager.default.removeItem(at: root.appendingPathComponent("notes/b.md"))
        try FileManager.default.removeItem(at: root.appendingPathComponent("notes/c.md"))
        let notes = try NoteLoader(
            content: try ContentTree.scan(root), notesCollection: "bounties", includeDrafts: false
        ).loadAll()
        #expect(notes.count == 1)
        #expect(
            notes[0].attachment?.collection == "bounties" && notes[0].attachment?.slug == "luffy"
                && notes[0].attachment?.line == 3)
        #expect(notes[0].html == "<p>Hi <em>there</em></p>\n")
    }

    /// Each front matter key of the wrong type is an error at its own line, naming what it
    /// must be.
    @Test(arguments: [
        ("draft: maybe", "front matter 'draft' must be true or false"),
        ("slug: [a, b]", "front matter 'slug' must be text, found an array"),
        ("tags: [one, [two]]", "front matter 'tags' must be a list of texts"),
        ("tags: { a: 1 }", "front matter 'tags' must be a list of texts"),
        ("item: a/b/c", "front matter 'item' must be <collection>/<slug> or a slug, found 'a/b/c'"),
        ("item: /luffy", "front matter 'item' must be <collection>/<slug> or a slug, found '/luffy'"),
        ("unsafeHTML: 1", "front matter 'unsafeHTML' must be true or false"),
        ("date: 2024-13-45", "front matter 'date' must be a date like 2024-01-31, found \"2024-13-45\""),
        ("slug: a%20b", "slug 'a%20b' cannot be a URL segment (\(Slug.segmentRule))")
    ])
    func frontMatterOfTheWrongTypeIsAnErrorAtItsLine(line: String, message: String) throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let content = try tree(["notes/n.md": Data("---\ntitle: N\n\(line)\n---\nText\n".utf8)])
        #expect(throws: Diagnostic(file: "content/notes/n.md", line: 3, message)) {
            try NoteLoader(content: content, notesCollection: "bounties", includeDrafts: false).load("notes/n.md")
        }
    }

    /// Lone CRs end lines (a classic Mac file): the draft stays out and an error is at its line.
    @Test func frontMatterWithLoneCRsIsReadAndLocatedByItsLines() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let content = try tree([
            "notes/d.md": Data("---\rtitle: D\rdraft: true\r---\rSecret\r".utf8),
            "notes/n.md": Data("---\rtitle: N\rdate: someday\r---\rText\r".utf8)
        ])
        let loader = NoteLoader(content: content, notesCollection: "bounties", includeDrafts: false)
        #expect(try loader.load("notes/d.md") == nil)
        #expect(
            throws: Diagnostic(
                file: "content/notes/n.md", line: 3,
                "front matter 'date' must be a date like 2024-01-31, found \"someday\"")
        ) { try loader.load("notes/n.md") }
    }

    /// A bare slug in `item` needs a notes collection to belong to.
    @Test func aBareItemSlugWithoutANotesCollectionIsAnError() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let content = try tree(["notes/n.md": Data("---\nitem: luffy\n---\n".utf8)])
        #expect(
            throws: Diagnostic(
                file: "content/notes/n.md", line: 2,
                "front matter 'item' must be <collection>/<slug> (no notes collection is configured for a bare slug), found 'luffy'"
            )
        ) {
            try NoteLoader(content: content, notesCollection: nil, includeDrafts: false).load("notes/n.md")
        }
    }

    /// Numbers and booleans where text is wanted are taken as written; tags may be one text.
    @Test func frontMatterTextMayBeWrittenAsANumber() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let content = try tree([
            "notes/n.md": Data(
                "---\ntitle: 2024\nslug: 42\ntags: solo\nitem: bounties/luffy\nunsafeHTML: true\n---\n<b>x</b>\n".utf8)
        ])
        let note = try #require(
            try NoteLoader(content: content, notesCollection: nil, includeDrafts: false).load("notes/n.md"))
        #expect(note.title == "2024" && note.slug == "42" && note.tags == ["solo"])
        #expect(
            note.attachment?.collection == "bounties" && note.attachment?.slug == "luffy" && note.attachment?.line == 5)
        #expect(note.html == "<p><b>x</b></p>\n")
    }

    /// A link to a sibling whose name starts like the content folder's (`content-private/`) leaves
    /// it too; a link inside it does not.
    @Test func symlinkToASiblingWithTheSamePrefixIsAnError() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let sibling = root.appendingPathExtension("private")
        defer { try? FileManager.default.removeItem(at: sibling) }
        try FileManager.default.createDirectory(at: sibling, withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: sibling.appendingPathComponent("s.txt"))
        _ = try tree(["a/b.txt": Data("x".utf8)])
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("inside").path,
            withDestinationPath: root.appendingPathComponent("a").path)
        #expect(try ContentTree.scan(root).staticFiles.sorted() == ["a/b.txt", "inside/b.txt"])
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("next").path, withDestinationPath: sibling.path)
        #expect(throws: Diagnostics.self) { try ContentTree.scan(root) }
        do {
            _ = try ContentTree.scan(root)
        } catch {
            #expect(
                error.items.map(\.description) == [
                    "content/next: error: symbolic link leads outside content/ (to \(sibling.standardizedFileURL.path))"
                ])
        }
    }

    @Test func symlinkLeavingContentIsAnError() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try tree(["a.txt": Data("x".utf8)])
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("escape").path, withDestinationPath: "/etc")
        #expect(throws: Diagnostics.self) { try ContentTree.scan(root) }
    }
}
