import Foundation
import SiteCore

/// What decides whether a page is rendered again: its template (with its partials), its path
/// and the versions of the parts of the model its view read when it was last made
/// (`PageReads`). A page whose parts all kept their versions shows the same view, so renders the
/// same bytes: its view is made only from what it read, by code whose only other inputs are its
/// identity and path.
extension BuildPass {
    /// What one page was made from, as of its last render: its template's hash, its path and
    /// the parts it read (ids in `Written.parts`).
    struct PageRecord: Sendable {
        var template: UInt64
        var path: String
        var reads: [Int32]
        /// The digest of the bytes written (`PageRenderer.Rendered`).
        var bytes: UInt64 = 0
    }

    /// Every part some page read, each given a small id once (a page's record holds ids, so
    /// that telling whether one changed is an array lookup), and its version as of the last pass.
    struct PartTable: Sendable {
        private var ids: [ModelPart: Int32] = [:]
        private(set) var parts: [ModelPart] = []
        /// Each part's version as of the last pass (nil: the model had no such part).
        private(set) var versions: [UInt64?] = []

        init() {}

        /// The table a `BuildRecord` kept (its parts are distinct: the record checked).
        init(parts: [ModelPart], versions: [UInt64?]) {
            self.parts = parts
            self.versions = versions
            for (k, part) in parts.enumerated() { ids[part] = Int32(k) }
        }

        /// The id of `part`, given one with `version` if it has none.
        mutating func id(_ part: ModelPart, version: UInt64?) -> Int32 {
            if let id = ids[part] { return id }
            let id = Int32(parts.count)
            ids[part] = id
            parts.append(part)
            versions.append(version)
            return id
        }

        /// Which parts changed between the last pass and `now`, by id; the versions become
        /// `now`'s.
        /// `only`: the parts that may have changed (after `ModelChange.bodies`, the others kept
        /// their versions); nil: any.
        mutating func changes(to now: PartVersions, only: [ModelPart]? = nil) -> [Bool] {
            var changed = [Bool](repeating: false, count: parts.count)
            func compare(_ k: Int) {
                let v = now.version(parts[k])
                // A part gone (nil) is a change to every page that read it: it must be made again.
                if v != versions[k] { changed[k] = true }
                versions[k] = v
            }
            if let only {
                for part in only { if let k = ids[part] { compare(Int(k)) } }
            } else {
                for k in parts.indices { compare(k) }
            }
            return changed
        }
    }

    /// Each template's hash, with the templates it reaches (partials, parents).
    struct TemplateHashes {
        let model: SiteModel
        private var known: [String: UInt64] = [:]

        init(_ model: SiteModel) { self.model = model }

        mutating func hash(_ name: String) -> UInt64 {
            if let h = known[name] { return h }
            var h = StableDigest()
            for t in model.templates.closure(of: name) {
                h.combine(t)
                let text = model.templates.text(of: t)
                h.combine(text != nil)
                h.combine(text ?? "")
            }
            let v = h.value
            known[name] = v
            return v
        }
    }

    /// Of `pages`, those to render: each not written before (`before`, aligned with `pages`,
    /// nil), or whose template, path or a part it read (`changed`, by id) changed; with the
    /// records kept for the others (the dirty ones' are made as they render).
    static func dirtyPages(
        _ pages: [PlannedPage], before: [PageRecord?], changed: [Bool], templates: inout TemplateHashes
    ) -> (dirty: [Int], records: [PageRecord?]) {
        var dirty: [Int] = []
        var records = before
        // Pages are read in place and a run of pages with one template hashes its name once.
        var lastTemplate = "", lastTemplateHash: UInt64 = 0
        for i in pages.indices {
            guard let record = before[i] else { dirty.append(i); continue }
            if pages[i].template != lastTemplate {
                lastTemplate = pages[i].template
                lastTemplateHash = templates.hash(lastTemplate)
            }
            if record.template != lastTemplateHash || record.path != pages[i].path
                || record.reads.contains(where: { changed[Int($0)] })
            {
                dirty.append(i)
                records[i] = nil
            }
        }
        return (dirty, records)
    }

    /// The records of pages just rendered, from what each read (parts new to `table` are
    /// given ids, with their versions in `versions`).
    static func records(
        _ pages: [PlannedPage], rendered: [PageRenderer.Rendered], versions: PartVersions, table: inout PartTable,
        templates: inout TemplateHashes
    ) -> [PageRecord] {
        zip(pages, rendered).map { page, made in
            PageRecord(
                template: templates.hash(page.template), path: page.path,
                reads: made.reads.map { table.id($0, version: versions.version($0)) }, bytes: made.bytes)
        }
    }

    /// The notes' feed's notes and their versions (`PartVersions`: with the HTML of one that
    /// links others), which the feed is made from with the configuration (in the generation).
    static func feedKey(_ model: SiteModel, _ versions: PartVersions?) -> UInt64? {
        guard let versions else { return nil }
        var h = StableDigest()
        for n in model.feedNotes {
            h.combine(model.notes[n].file)
            h.combine(versions.version(.note(model.notes[n].file)) ?? 0)
        }
        return h.value
    }
}
