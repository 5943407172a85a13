import Foundation
import SiteCore
import SiteLoad

/// The note cache's choice of encoding, measured on a site's notes (loaded once as a build loads
/// them): all of them encoded and decoded on one thread with Foundation's JSON, its binary
/// property lists and `BinaryCoding` (one value per note, as the cache stores them), and the
/// digest that checks the cache file.
func noteCoding(site: URL, rounds: Int) {
    guard let text = try? String(contentsOf: site.appendingPathComponent("site.yml"), encoding: .utf8),
        let config = try? SiteConfig.parse(text, file: "site.yml"),
        let content = try? ContentTree.scan(site.appendingPathComponent("content"))
    else {
        FileHandle.standardError.write(Data("cannot read the site at \(site.path)\n".utf8))
        exit(66)
    }
    let loader = NoteLoader(
        content: content, notesCollection: config.notes.collection, includeDrafts: false,
        rootPath: config.baseURL.root, markdown: config.markdown, words: config.words,
        highlight: config.highlight != nil)
    let notes = (try? loader.loadAll()) ?? []
    let html = notes.reduce(0) { $0 + $1.html.utf8.count }
    print("note coding: \(notes.count) notes, \(html / 1_000_000) MB of HTML")
    let json = try! JSONEncoder().encode(notes)
    let plistEncoder = PropertyListEncoder()
    plistEncoder.outputFormat = .binary
    let plist = try! plistEncoder.encode(notes)
    let blobs = notes.map { try! BinaryCoding.encode($0) }
    let binary = blobs.reduce(0) { $0 + $1.count }
    print("sizes: JSON \(json.count / 1000) kB, plist \(plist.count / 1000) kB, binary \(binary / 1000) kB")
    measure("JSONEncoder", rounds: rounds) { (try? JSONEncoder().encode(notes))?.count ?? 0 }
    measure("JSONDecoder", rounds: rounds) { (try? JSONDecoder().decode([Note].self, from: json))?.count ?? 0 }
    measure("PropertyListEncoder (binary)", rounds: rounds) { (try? plistEncoder.encode(notes))?.count ?? 0 }
    measure("PropertyListDecoder (binary)", rounds: rounds) {
        (try? PropertyListDecoder().decode([Note].self, from: plist))?.count ?? 0
    }
    measure("BinaryCoding encode", rounds: rounds) {
        notes.reduce(0) { $0 + ((try? BinaryCoding.encode($1))?.count ?? 0) }
    }
    measure("BinaryCoding decode", rounds: rounds) {
        blobs.reduce(0) { n, blob in
            n + ((try? blob.withUnsafeBytes { try BinaryCoding.decode(Note.self, from: $0) }) != nil ? 1 : 0)
        }
    }
    let all = blobs.flatMap { $0 }
    measure("ContentHash.digest (XXH64 ×2)", rounds: rounds) {
        Int(all.withUnsafeBytes { ContentHash.digest($0) }.low & 1)
    }
    measure("ContentHash.wide (FNV-1a ×2)", rounds: rounds) { ContentHash.wide(Data(all)).count }
}
