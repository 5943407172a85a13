import Foundation
import SiteCore
@testable import SiteBuild

/// Temporary site folders for end-to-end builds.
struct Fixture {
    let root: URL

    static let repository: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let sharedCache = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-test-image-cache")

    /// A copy of the repository's example site (site.yml, content/, templates/).
    static func exampleSite() throws -> Fixture {
        let f = try Fixture(files: [:])
        for name in ["site.yml", "content", "templates"] {
            try FileManager.default.copyItem(
                at: repository.appendingPathComponent(name), to: f.root.appendingPathComponent(name))
        }
        // One image cache for every copy: the photos are resized once per test run (sharing a
        // cache between concurrent builds is supported, and exercised here).
        try FileManager.default.createDirectory(at: sharedCache, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: f.root.appendingPathComponent(".sitegen-cache"), withDestinationURL: sharedCache)
        return f
    }

    init(files: [String: String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (path, text) in files { try write(path, text) }
    }

    func write(_ path: String, _ text: String) throws {
        try write(path, Data(text.utf8))
    }

    func write(_ path: String, _ data: Data) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    var output: URL { root.appendingPathComponent("public") }

    func build(baseURL: String? = nil, drafts: Bool = false) -> Result<BuildReport, Diagnostics> {
        Result { () throws(Diagnostics) in
            try SiteBuilder.build(BuildOptions(source: root, output: output, baseURL: baseURL, includeDrafts: drafts))
        }
    }

    /// The diagnostics of a build that must fail.
    func errors() -> [String] {
        switch build() {
        case .success: return []
        case .failure(let d): return d.items.map(\.description)
        }
    }

    /// Every file under the output folder (or `folder`) with its bytes, to prove a failed build
    /// changed nothing; folders map to nil (an empty folder left behind is a difference too).
    func snapshot(of folder: URL? = nil) throws -> [String: Data?] {
        let root = folder ?? output
        var out: [String: Data?] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return out }
        while let rel = walker.nextObject() as? String {
            var isDir: ObjCBool = false
            let url = root.appendingPathComponent(rel)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) {
                out[rel] = isDir.boolValue ? .some(nil) : try Data(contentsOf: url)
            }
        }
        return out
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}
