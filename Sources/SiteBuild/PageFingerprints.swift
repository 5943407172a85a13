import Foundation
import SiteCore

/// What decides whether a page is rendered again: a fingerprint of its template (with its
/// partials), its path and the versions of the parts of the model its view read when it was
/// last made (`PageReads`). A page whose parts all kept their versions shows the same view, so
/// renders the same bytes: its view is made only from what it read, by code whose only other
/// inputs are its identity and path.
extension BuildPass {
    /// What one page read and the fingerprint it had, as of its last render.
    struct PageRecord: Sendable {
        var print: Int
        var reads: [ModelPart]
    }

    /// Each template's hash, with the templates it reaches (partials, parents).
    struct TemplateHashes {
        let model: SiteModel
        private var known: [String: Int] = [:]

        init(_ model: SiteModel) { self.model = model }

        mutating func hash(_ name: String) -> Int {
            if let h = known[name] { return h }
            var h = Hasher()
            for t in model.templates.closure(of: name) { h.combine(t); h.combine(model.templates.text(of: t)) }
            let v = h.finalize()
            known[name] = v
            return v
        }
    }

    /// Of `pages`, those to render: each whose record (`before`, aligned with `pages`; nil for
    /// a page not written before) no longer matches its parts' versions, with the records
    /// kept for the others (the dirty ones' are made when they render).
    static func dirtyPages(
        _ pages: [PlannedPage], before: [PageRecord?], versions: PartVersions, templates: inout TemplateHashes
    ) -> (dirty: [Int], records: [PageRecord?]) {
        var dirty: [Int] = []
        var records = before
        // Pages are read in place and a run of pages with one template hashes its name once.
        var lastTemplate = "", lastTemplateHash = 0
        for i in pages.indices {
            guard let record = before[i] else { dirty.append(i); continue }
            if pages[i].template != lastTemplate {
                lastTemplate = pages[i].template
                lastTemplateHash = templates.hash(lastTemplate)
            }
            let now = versions.fingerprint(template: lastTemplateHash, path: pages[i].path, reads: record.reads)
            if now != record.print {
                dirty.append(i)
                records[i] = nil
            }
        }
        return (dirty, records)
    }

    /// The records of pages just rendered, from what each read.
    static func records(
        _ pages: [PlannedPage], reads: [[ModelPart]], versions: PartVersions, templates: inout TemplateHashes
    ) -> [PageRecord] {
        zip(pages, reads).map { page, parts in
            let print = versions.fingerprint(template: templates.hash(page.template), path: page.path, reads: parts)
            // A page always reads its parts from this model, so each has a version here.
            return PageRecord(print: print ?? 0, reads: parts)
        }
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
