import Foundation
import SiteCore
@testable import SiteRender

/// A template library loaded from `files` (name → text) written to a temporary templates folder.
func templateLibrary(_ files: [String: String]) throws(Diagnostics) -> TemplateLibrary {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-templates-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    for (name, text) in files {
        let url = dir.appendingPathComponent("\(name).mustache")
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(text.utf8).write(to: url)
    }
    return try TemplateLibrary.load(
        directory: dir, files: files.keys.map { "\($0).mustache" }, builtin: BuiltinTheme.partials)
}
