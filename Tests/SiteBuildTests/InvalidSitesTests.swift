import Foundation
import SiteCore
import Testing
@testable import SiteBuild

/// The invalid-site fixtures of the end-to-end tests (e2e/invalid-sites/: a valid `_base` and a
/// case per folder laid over it, with the build's exact messages in expected.txt), built here by
/// `SiteBuilder` itself, so `swift test` sees a message change too. What the command adds — its
/// summary line (`sitegen: build failed …`), and that the output and the site's folder are left
/// exactly as they were — is the end-to-end test's (test_invalid_sites.py), which runs the binary.
@Suite struct InvalidSitesTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("e2e/invalid-sites")
    static let meta: Set<String> = ["expected.txt", "remove.txt", "symlinks.txt"]

    static func cases() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix("_") && !$0.hasPrefix(".") && $0 != "__pycache__" }
            .filter { FileManager.default.fileExists(atPath: folder.appendingPathComponent("\($0)/expected.txt").path) }
            .sorted()
    }

    @Test func everyCaseIsHere() {
        #expect(Self.cases().count >= 59)
    }

    @Test(arguments: cases())
    func theBuildSaysWhatExpectedSays(name: String) throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-invalid-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let site = work.appendingPathComponent("site")
        try lay(name, at: site)
        let expected = try String(
            contentsOf: Self.folder.appendingPathComponent("\(name)/expected.txt"), encoding: .utf8
        )
        .replacingOccurrences(of: "<SITE>", with: site.path)
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        .filter { !$0.isEmpty && !$0.hasPrefix("sitegen: ") }
        do {
            _ = try SiteBuilder.build(BuildOptions(source: site, output: site.appendingPathComponent("public")))
            Issue.record("\(name): the build succeeded")
        } catch {
            #expect(error.items.map(\.description) == expected, "\(name)")
        }
    }

    /// `_base` with the case's files over it, less the paths of remove.txt, with the links of
    /// symlinks.txt (`path -> target`).
    private func lay(_ name: String, at site: URL) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: site.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fm.copyItem(at: Self.folder.appendingPathComponent("_base"), to: site)
        let caseFolder = Self.folder.appendingPathComponent(name)
        let files = (fm.enumerator(atPath: caseFolder.path)?.allObjects as? [String] ?? []).filter { rel in
            var isFolder: ObjCBool = false
            return fm.fileExists(atPath: caseFolder.appendingPathComponent(rel).path, isDirectory: &isFolder)
                && !isFolder.boolValue
        }
        for rel in files where !Self.meta.contains(rel) {
            let target = site.appendingPathComponent(rel)
            try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            if fm.fileExists(atPath: target.path) { try fm.removeItem(at: target) }
            try fm.copyItem(at: caseFolder.appendingPathComponent(rel), to: target)
        }
        for line in (try? String(contentsOf: caseFolder.appendingPathComponent("remove.txt"), encoding: .utf8))?
            .split(separator: "\n") ?? [] where !line.trimmingCharacters(in: .whitespaces).isEmpty
        {
            try fm.removeItem(at: site.appendingPathComponent(line.trimmingCharacters(in: .whitespaces)))
        }
        for line in (try? String(contentsOf: caseFolder.appendingPathComponent("symlinks.txt"), encoding: .utf8))?
            .split(separator: "\n") ?? [] where !line.trimmingCharacters(in: .whitespaces).isEmpty
        {
            let parts = line.components(separatedBy: " -> ").map { $0.trimmingCharacters(in: .whitespaces) }
            let link = site.appendingPathComponent(parts[0])
            try fm.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
            try fm.createSymbolicLink(atPath: link.path, withDestinationPath: parts[1])
        }
    }
}
