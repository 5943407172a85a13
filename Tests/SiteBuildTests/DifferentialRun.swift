import Foundation
import SiteCore
import Testing
@testable import SiteBuild

/// One seed's run of the differential test: a random site (`SiteSpec.random`) served by a
/// `SiteSession`, then random edits, each followed by `update`. After every edit the live
/// folder must be byte for byte a full build of the same sources into an empty folder; an edit
/// that breaks the site must fail both and leave the live folder as it was.
final class DifferentialRun {
    let seed: UInt64
    let edits: Int
    private var dice: Dice
    private var spec: SiteSpec
    private let site: Fixture
    private var onDisk: [String: Data] = [:]
    /// What was done, one line per edit, for the report.
    private(set) var log: [String]
    /// Updates that failed as a full build did (broken edits).
    private(set) var refused = 0

    var live: URL { site.root.appendingPathComponent("live") }
    var fresh: URL { site.root.appendingPathComponent("fresh") }

    /// Whether a mismatch ends the run (the fixed seeds) or the session is started again from
    /// the current sources and the edits go on (on-demand runs, to find more than one cause).
    let goesOn: Bool

    init(seed: UInt64, edits: Int, goesOn: Bool = false) throws {
        self.seed = seed
        self.edits = edits
        self.goesOn = goesOn
        var dice = Dice(seed: seed)
        let spec = SiteSpec.random(&dice)
        (self.dice, self.spec) = (dice, spec)
        site = try Fixture(files: [:])
        log = ["0. " + spec.summary]
    }

    deinit { site.remove() }

    /// Runs every edit; a mismatch is recorded as an issue naming the seed, the edit and the
    /// edits so far, and ends the run unless it `goesOn`.
    func run() throws {
        _ = try sync(spec.files)
        var session: SiteSession
        do {
            session = try SiteSession(BuildOptions(source: site.root, output: live))
        } catch {
            return fail(0, "the first build failed: \(error.items.prefix(3).map(\.description))")
        }
        guard check(0, updateError: nil) else { return }
        for step in 1..<(edits + 1) {
            var files: [String: Data]
            if dice.chance(0.08) {
                let (what, overlay) = spec.breakage(&dice)
                log.append("\(step). \(what)")
                files = spec.files.merging(overlay) { $1 }
            } else {
                log.append("\(step). \(spec.randomEdit(&dice))")
                files = spec.files
            }
            let changed = try sync(files)
            let before = try site.snapshot(of: live)
            var updateError: Diagnostics?
            do { _ = try session.update(changed) } catch { updateError = error }
            if !check(step, updateError: updateError, before: before) {
                guard goesOn, let restarted = try? SiteSession(BuildOptions(source: site.root, output: live)) else {
                    return
                }
                session = restarted
                log.append("   (a new session from here on)")
            }
        }
        if ProcessInfo.processInfo.environment["DIFFERENTIAL_VERBOSE"] != nil {
            print("differential: seed \(seed): \(edits) edits, \(refused) broken ones refused: \(spec.summary)")
        }
    }

    /// Writes `files` over the site and deletes the files no longer there; returns their paths.
    private func sync(_ files: [String: Data]) throws -> Set<String> {
        var changed: Set<String> = []
        for (path, data) in files where onDisk[path] != data {
            try site.write(path, data)
            changed.insert(path)
        }
        for path in onDisk.keys where files[path] == nil {
            try FileManager.default.removeItem(at: site.root.appendingPathComponent(path))
            changed.insert(path)
        }
        onDisk = files
        return changed
    }

    /// Compares the update's outcome with a full build's; false (with an issue) on a mismatch.
    private func check(_ step: Int, updateError: Diagnostics?, before: [String: Data?] = [:]) -> Bool {
        try? FileManager.default.removeItem(at: fresh)
        var buildError: Diagnostics?
        do { _ = try SiteBuilder.build(BuildOptions(source: site.root, output: fresh)) } catch { buildError = error }
        guard let liveNow = try? site.snapshot(of: live), let full = try? site.snapshot(of: fresh) else {
            fail(step, "cannot read the output folders")
            return false
        }
        switch (updateError, buildError) {
        case (nil, nil):
            let differing = Self.differing(liveNow, full)
            if differing.isEmpty { return true }
            fail(step, "the live folder differs from a full build", Self.excerpts(differing, liveNow, full))
        case (let u?, nil):
            fail(step, "the update failed where a full build succeeds: \(u.items.prefix(3).map(\.description))")
        case (nil, let b?):
            fail(step, "the update succeeded where a full build fails: \(b.items.prefix(3).map(\.description))")
        case (_?, _?):
            refused += 1
            let differing = Self.differing(before, liveNow)
            if differing.isEmpty { return true }
            fail(
                step, "a failed update changed the live folder",
                Self.excerpts(differing, before, liveNow, names: ("folder before", "folder after")))
        }
        return false
    }

    private func fail(_ step: Int, _ what: String, _ details: String = "") {
        let reproduce = "DIFFERENTIAL_SEEDS=\(seed) DIFFERENTIAL_EDITS=\(step) scripts/differential.sh"
        Issue.record(
            Comment(
                rawValue: "seed \(seed), edit \(step) of \(edits): \(what)\n\(details)"
                    + "edits so far (\(reproduce)):\n  " + log.joined(separator: "\n  ")))
    }

    /// Paths (files and folders) whose presence or bytes differ, sorted.
    static func differing(_ a: [String: Data?], _ b: [String: Data?]) -> [String] {
        Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted()
    }

    /// The differing paths (the first 20), and the first differing line of the first four.
    static func excerpts(
        _ paths: [String], _ a: [String: Data?], _ b: [String: Data?], names: (String, String) = ("live", "full build")
    ) -> String {
        var out = "\(paths.count) differing paths: \(paths.prefix(20).joined(separator: ", "))\n"
        for path in paths.prefix(4) {
            out += "  \(path): "
            switch (a[path], b[path]) {
            case (nil, _): out += "only in the \(names.1)\n"
            case (_, nil): out += "only in the \(names.0)\n"
            case (.some(.some(let x)), .some(.some(let y))): out += lineExcerpt(x, y, names)
            default: out += "a folder in one, a file in the other\n"
            }
        }
        return out
    }

    /// The first line where two texts differ, clipped around the first differing character.
    static func lineExcerpt(_ x: Data, _ y: Data, _ names: (String, String)) -> String {
        guard let s = String(data: x, encoding: .utf8), let t = String(data: y, encoding: .utf8) else {
            return "binary, \(x.count) and \(y.count) bytes\n"
        }
        let l = s.split(separator: "\n", omittingEmptySubsequences: false)
        let m = t.split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(l, m).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(l.count, m.count)
        let u = line < l.count ? Array(l[line]) : [], v = line < m.count ? Array(m[line]) : []
        let common = zip(u, v).prefix { $0 == $1 }.count
        func clip(_ c: [Character]) -> String {
            let start = max(0, common - 50)
            return start < c.count ? String(c[start..<min(c.count, start + 160)]) : "(no such line)"
        }
        return "line \(line + 1)\n    \(names.0): \(clip(u))\n    \(names.1): \(clip(v))\n"
    }
}

extension SiteSpec {
    /// The site at a glance: its collections, notes and templates of its own.
    var summary: String {
        let cs = collections.map { c in
            "\(c.name) (\(c.format), \(c.items.count) items, sort \(c.sort.map(\.field)), pageSize "
                + "\(c.pageSize.map(String.init) ?? "-"), \(c.layout), detail \(c.detail ?? "false")"
                + "\(c.images ? ", images" : "")\(c.ownedBy.map { ", related to \(collections[$0].name)" } ?? ""))"
        }
        return "site: \(cs.joined(separator: "; ")); \(notes.count) notes; templates \(templates.keys.sorted())"
    }
}
