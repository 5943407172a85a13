import Foundation
import SiteCore
import Testing
@testable import SiteBuild

/// One seed's run of the differential test: a random site (`SiteSpec.random`) served by a
/// `SiteSession`, then random edits, each followed by `update`. After every edit the live
/// folder must be byte for byte a full build of the same sources into an empty folder; an edit
/// that breaks the site must fail both and leave the live folder as it was. A warm build (a
/// build into the same output with the same cache each time, `sitegen build` run again) is held
/// to the same after the edits `warm` picks, its cache and output now and then damaged first.
final class DifferentialRun {
    let seed: UInt64
    let edits: Int
    let warm: WarmSchedule
    private var dice: Dice
    /// The warm build's own choices (which edits, what damage): a stream of their own, so the
    /// sites and edits of a seed are those it made before warm builds were checked.
    private var warmDice: Dice
    private var spec: SiteSpec
    private let site: Fixture
    private var onDisk: [String: Data] = [:]
    /// What was done, one line per edit, for the report.
    private(set) var log: [String]
    /// Updates that failed as a full build did (broken edits).
    private(set) var refused = 0
    /// Warm builds compared, and how many of them followed a damage.
    private(set) var warmBuilds = 0
    private(set) var damages = 0

    var live: URL { site.root.appendingPathComponent("live") }
    var fresh: URL { site.root.appendingPathComponent("fresh") }
    /// The cold build's cache, emptied before each: what it writes must not help the next.
    var coldCache: URL { site.root.appendingPathComponent("fresh-cache") }
    var warmOutput: URL { site.root.appendingPathComponent("warm") }
    var warmCache: URL { site.root.appendingPathComponent("warm-cache") }

    /// Whether a mismatch ends the run (the fixed seeds) or the session is started again from
    /// the current sources and the edits go on (on-demand runs, to find more than one cause).
    let goesOn: Bool

    init(seed: UInt64, edits: Int, warm: WarmSchedule = .every, goesOn: Bool = false) throws {
        self.seed = seed
        self.edits = edits
        self.warm = warm
        self.goesOn = goesOn
        var dice = Dice(seed: seed)
        let spec = SiteSpec.random(&dice)
        (self.dice, self.spec) = (dice, spec)
        warmDice = Dice(seed: seed ^ 0x5741_524D)
        site = try Fixture(files: [:])
        log = ["0. " + spec.summary]
    }

    deinit { site.remove() }

    /// Runs every edit; a mismatch is recorded as an issue naming the seed, the edit, the path
    /// (serve or warm build) and the edits so far, and ends the run unless it `goesOn`.
    func run() throws {
        _ = try sync(spec.files)
        var session: SiteSession
        do {
            session = try SiteSession(BuildOptions(source: site.root, output: live))
        } catch {
            return fail(0, .serve, "the first build failed: \(error.items.prefix(3).map(\.description))")
        }
        let cold = coldBuild()
        guard check(0, .serve, error: nil, after: live, cold: cold), warm == .none || checkWarm(0, cold: cold)
        else { return }
        for step in 1..<(edits + 1) {
            let changed = try sync(nextEdit(step))
            let before = try site.snapshot(of: live)
            var updateError: Diagnostics?
            do { _ = try session.update(changed) } catch { updateError = error }
            let cold = coldBuild()
            if !check(step, .serve, error: updateError, before: before, after: live, cold: cold) {
                guard goesOn, let restarted = try? SiteSession(BuildOptions(source: site.root, output: live)) else {
                    return
                }
                session = restarted
                log.append("   (a new session from here on)")
            }
            if warmDue(), !checkWarm(step, cold: cold) {
                guard goesOn else { return }
                for folder in [warmOutput, warmCache] { try? FileManager.default.removeItem(at: folder) }
                log.append("   (the warm output and cache emptied from here on)")
            }
        }
        if ProcessInfo.processInfo.environment["DIFFERENTIAL_VERBOSE"] != nil {
            print(
                "differential: seed \(seed): \(edits) edits, \(refused) broken ones refused, \(warmBuilds) warm "
                    + "builds (\(damages) after a damage): \(spec.summary)")
        }
    }

    /// The sources after one more edit: an ordinary one, or one in 12 a breakage (for this step
    /// only: the next edit starts from the valid site).
    private func nextEdit(_ step: Int) -> [String: Data] {
        if dice.chance(0.08) {
            let (what, overlay) = spec.breakage(&dice)
            log.append("\(step). \(what)")
            return spec.files.merging(overlay) { $1 }
        }
        log.append("\(step). \(spec.randomEdit(&dice))")
        return spec.files
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

    /// What the other outputs are held to: a full build into an empty folder with an empty cache.
    struct Cold {
        var files: [String: Data?]?
        var error: Diagnostics?
    }

    private func coldBuild() -> Cold {
        for folder in [fresh, coldCache] { try? FileManager.default.removeItem(at: folder) }
        var cold = Cold()
        do {
            _ = try SiteBuilder.build(BuildOptions(source: site.root, output: fresh, cacheDir: coldCache))
        } catch { cold.error = error }
        cold.files = try? site.snapshot(of: fresh)
        return cold
    }

    /// Whether this edit is followed by a warm build.
    private func warmDue() -> Bool {
        switch warm {
        case .every: true
        case .some: warmDice.chance(0.5)
        case .none: false
        }
    }

    /// Now and then damages the warm build's cache or output (`WarmDamage`), then builds warm and
    /// compares the outcome with the cold build's.
    private func checkWarm(_ step: Int, cold: Cold) -> Bool {
        var note = "warm build"
        if warmDice.chance(0.25) {
            let damage = WarmDamage.allCases[warmDice.int(0...WarmDamage.allCases.count - 1)]
            note += " after: " + damage.apply(cache: warmCache, output: warmOutput, &warmDice)
            damages += 1
        }
        log[log.count - 1] += " · " + note
        warmBuilds += 1
        let before = (try? site.snapshot(of: warmOutput)) ?? [:]
        var buildError: Diagnostics?
        do {
            var options = BuildOptions(source: site.root, output: warmOutput, cacheDir: warmCache)
            options.incremental = true
            _ = try SiteBuilder.build(options)
        } catch { buildError = error }
        return check(step, .warm, error: buildError, before: before, after: warmOutput, cold: cold)
    }

    /// The two outputs held to the cold build: `sitegen serve`'s live folder, the warm build's.
    enum Path {
        case serve, warm

        var name: String { self == .serve ? "serve path" : "warm build" }
        var run: String { self == .serve ? "the update" : "the warm build" }
        var folder: String { self == .serve ? "the live folder" : "the warm folder" }
    }

    /// Compares an output's outcome (`error`, the folder `after`) with the cold build's: the same
    /// files, or both failed and the folder as it was `before`. False (with an issue) on a mismatch.
    private func check(
        _ step: Int, _ path: Path, error: Diagnostics?, before: [String: Data?] = [:], after: URL, cold: Cold
    ) -> Bool {
        guard let now = try? site.snapshot(of: after), let full = cold.files else {
            fail(step, path, "cannot read the output folders")
            return false
        }
        switch (error, cold.error) {
        case (nil, nil):
            let differing = Self.differing(now, full)
            if differing.isEmpty { return true }
            fail(
                step, path, "\(path.folder) differs from a full build",
                Self.excerpts(differing, now, full, names: (path == .serve ? "live" : "warm", "full build")))
        case (let u?, nil):
            fail(step, path, "\(path.run) failed where a full build succeeds: \(u.items.prefix(3).map(\.description))")
        case (nil, let b?):
            fail(step, path, "\(path.run) succeeded where a full build fails: \(b.items.prefix(3).map(\.description))")
        case (_?, _?):
            if path == .serve { refused += 1 }
            let differing = Self.differing(before, now)
            if differing.isEmpty { return true }
            fail(
                step, path, "a failed \(path == .serve ? "update" : "warm build") changed \(path.folder)",
                Self.excerpts(differing, before, now, names: ("folder before", "folder after")))
        }
        return false
    }

    private func fail(_ step: Int, _ path: Path, _ what: String, _ details: String = "") {
        let reproduce =
            "DIFFERENTIAL_SEEDS=\(seed) DIFFERENTIAL_EDITS=\(step) DIFFERENTIAL_WARM=\(warm) scripts/differential.sh"
        Issue.record(
            Comment(
                rawValue: "seed \(seed), edit \(step) of \(edits), \(path.name): \(what)\n\(details)"
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
