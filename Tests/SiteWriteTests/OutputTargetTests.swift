import Foundation
import Testing
import SiteCore
@testable import SiteWrite

/// Which outputs a build may replace, judged on real paths (issue 31; the command line's cases
/// are end-to-end tests in e2e/test_output_safety.py).
@Suite struct OutputTargetTests {
    let root: String

    init() throws {
        // Resolved: the temporary folder may itself be reached through a link.
        root = RealPath.resolve(
            FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-target-\(UUID().uuidString)").path)
        try FileManager.default.createDirectory(atPath: root + "/a/b", withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }

    @Test func dotDotAfterALinkIsTakenFromTheLinksTarget() throws {
        defer { remove() }
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: "a/b")
        #expect(RealPath.resolve(root + "/link/../x") == root + "/a/x")
        #expect(RealPath.resolve("link/./../b/new/../c", from: root) == root + "/a/b/c")
        #expect(RealPath.resolve(root + "/missing/../a") == root + "/a")
        #expect(
            RealPath.isWithin(root + "/a/b", root + "/a") && RealPath.isWithin("/x", "/")
                && !RealPath.isWithin(root + "/ab", root + "/a"))
    }

    @Test func foldersAreJudgedByTheirMarkerOrTheirShape() throws {
        defer { remove() }
        let fm = FileManager.default
        #expect(OutputFolder.judge(root + "/none") == .absent)
        #expect(OutputFolder.judge(root + "/a/b") == .empty)
        #expect(OutputFolder.judge(root + "/a") == .foreign(entries: 1, example: "b"))
        try fm.createDirectory(atPath: root + "/a/" + OutputFolder.marker, withIntermediateDirectories: false)
        #expect(OutputFolder.judge(root + "/a") == .sitegen)
        let earlier = root + "/earlier"
        try fm.createDirectory(atPath: earlier + "/assets", withIntermediateDirectories: true)
        for name in ["assets/site.0123456789abcdef.css", "index.html", "404.html", "sitemap.xml"] {
            #expect(OutputFolder.judge(earlier) != .sitegen, "not yet: \(name) is missing")
            try Data().write(to: URL(fileURLWithPath: earlier + "/" + name))
        }
        #expect(OutputFolder.judge(earlier) == .sitegen)
        try fm.moveItem(
            atPath: earlier + "/assets/site.0123456789abcdef.css", toPath: earlier + "/assets/site.0123456789abcdeg.css"
        )
        #expect(OutputFolder.judge(earlier) != .sitegen, "not a hex fingerprint")
        try Data().write(to: URL(fileURLWithPath: root + "/file"))
        #expect(OutputFolder.judge(root + "/file") == .notFolder(kind: "a regular file"))
    }

    /// Between the command line's check and the swap the output became someone else's: the swap
    /// leaves it as it is (and the staging folder is discarded), unless forced.
    @Test(arguments: [false, true])
    func anOutputChangedDuringTheBuildIsReplacedOnlyWhenForced(force: Bool) throws {
        defer { remove() }
        let output = URL(fileURLWithPath: root + "/public")
        let stage = try OutputStage(output: output, force: force)
        try stage.write("new", to: "index.html", source: "t")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: false)
        try Data("mine".utf8).write(to: output.appendingPathComponent("mine.txt"))
        if force {
            try stage.commit()
            #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("index.html").path))
        } else {
            #expect(throws: Diagnostic.self) { try stage.commit() }
            stage.discard()
            #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == ["mine.txt"])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["a", "public"])
    }

    /// `--changes` names a file the build replaces when it succeeds: never one of the sources, nor
    /// in the output or the cache, nor a folder, and its folder must exist.
    @Test func aListOfChangesIsRefusedWhereABuildReadsOrReplaces() throws {
        defer { remove() }
        let site = root + "/site"
        for name in ["content", "templates/x", "public", "cache", "folder"] {
            try FileManager.default.createDirectory(atPath: site + "/" + name, withIntermediateDirectories: true)
        }
        try Data("title: t\n".utf8).write(to: URL(fileURLWithPath: site + "/site.yml"))
        func check(_ changes: String) -> String {
            do {
                let target = try OutputTarget.check(
                    source: URL(fileURLWithPath: site), output: site + "/public", cache: site + "/cache",
                    changes: changes, force: false)
                return target.changes?.path ?? "none"
            } catch { return error.description }
        }
        let elsewhere =
            ": the list is written only outside the site's sources, its output and its cache; write it "
            + "elsewhere, e.g. next to site.yml"
        let refused = [
            "public/c.json": "inside the output folder", "public": "the output folder",
            "content/c.json": "inside the site's content folder",
            "templates/x/c.json": "inside the site's templates folder",
            "site.yml": "the site's configuration (site.yml)", "cache/c.json": "inside the cache folder"
        ]
        for (path, what) in refused {
            #expect(check(site + "/" + path) == "--changes '\(site)/\(path)' is \(what)\(elsewhere)")
        }
        #expect(check(site + "/folder") == "--changes '\(site)/folder' is a folder, not a file")
        #expect(
            check(site + "/missing/c.json")
                == "--changes '\(site)/missing/c.json': there is no folder \(site)/missing to write it in")
        #expect(check("").hasPrefix("--changes '' names no file"))
        #expect(check(site + "/c.json") == site + "/c.json")
        #expect(check(site + "/folder/../c.json") == site + "/c.json")
        try FileManager.default.createSymbolicLink(atPath: root + "/link.json", withDestinationPath: site + "/site.yml")
        #expect(check(root + "/link.json").hasSuffix("is the site's configuration (site.yml)\(elsewhere)"))
    }
}
