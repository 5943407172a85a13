import Foundation
import SiteCore

/// What decides whether a page is rendered again: a fingerprint of everything it is made from.
extension BuildPass {
    /// Each plan page's fingerprint: its template (with its partials), the site-wide values and
    /// the versions of the inputs its plan names.
    static func fingerprints(_ model: SiteModel, _ plan: SitePlan, _ written: Written) -> [Int] {
        var templateHashes: [String: Int] = [:]
        func templateHash(_ name: String) -> Int {
            if let h = templateHashes[name] { return h }
            var h = Hasher()
            for t in model.templates.closure(of: name) { h.combine(t); h.combine(model.templates.text(of: t)) }
            let v = h.finalize()
            templateHashes[name] = v
            return v
        }
        let own = model.collections.map { written.collectionVersions[$0.config.name] ?? 0 }
        let effective = model.collections.map { c -> Int in
            var h = Hasher()
            h.combine(written.collectionVersions[c.config.name] ?? 0)
            for rule in c.config.related {
                h.combine(rule.collection); h.combine(written.collectionVersions[rule.collection] ?? 0)
            }
            return h.finalize()
        }
        // Each note once: its file and version; and the HTML of one that links other notes or
        // shows local images, which changes with them (a slug, a photo resized in the background).
        let noteHashes = model.notes.indices.map { n in
            var h = Hasher()
            h.combine(model.notes[n].file)
            h.combine(written.noteVersions[model.notes[n].file] ?? 0)
            if !model.notes[n].noteLinks.isEmpty || !model.notes[n].images.isEmpty { h.combine(model.noteHTML[n]) }
            return h.finalize()
        }
        var global = Hasher()
        global.combine(written.generation)
        global.combine(model.standaloneNotes.isEmpty)
        // Every page may name a stylesheet or script by its fingerprinted name.
        for (path, named) in model.assetNames.sorted(by: { $0.key < $1.key }) {
            global.combine(path); global.combine(named)
        }
        let globalHash = global.finalize()
        // Pages are read in place and a run of pages with one template hashes its name once:
        // copying each planned page cost more reference counting than the hashing itself.
        let pages = plan.pages
        var prints: [Int] = []
        prints.reserveCapacity(pages.count)
        var lastTemplate = "", lastTemplateHash = 0
        for i in pages.indices {
            if pages[i].template != lastTemplate {
                lastTemplate = pages[i].template
                lastTemplateHash = templateHash(lastTemplate)
            }
            var h = Hasher()
            h.combine(globalHash)
            h.combine(lastTemplateHash)
            for input in pages[i].inputs {
                switch input {
                case .collectionData(let ci): h.combine(1); h.combine(own[ci])
                case .collection(let ci): h.combine(2); h.combine(effective[ci])
                case .dataShownBy(let template):
                    h.combine(3)
                    if let shown = model.templates.dataCollections(of: template) {
                        for (ci, c) in model.collections.enumerated() where shown.contains(c.config.name) {
                            h.combine(c.config.name); h.combine(effective[ci])
                        }
                    } else {
                        h.combine(effective)
                    }
                case .note(let n): h.combine(4); h.combine(noteHashes[n])
                case .identity(let view): h.combine(5); h.combine(view)
                case .count(let n): h.combine(6); h.combine(n)
                case .text(let s): h.combine(7); h.combine(s)
                }
            }
            prints.append(h.finalize())
        }
        return prints
    }

    /// The notes' feed's notes (by file) and their versions: the feed is made from nothing else
    /// but the site's configuration, which a session keeps.
    static func feedKey(_ model: SiteModel, _ written: Written) -> Int {
        var h = Hasher()
        h.combine(written.generation)
        for n in model.feedNotes {
            h.combine(model.notes[n].file); h.combine(written.noteVersions[model.notes[n].file] ?? 0)
        }
        return h.finalize()
    }
}
