import Foundation
import Synchronization
import Testing
@testable import SiteImages

/// The cache's temporary files and the builds that clean them while others write (issue 31).
@Suite struct ImageCacheTests {
    /// A writer holds its temporary file's lock from its creation to its rename: another build
    /// deleting leftovers meanwhile never takes a file being written (a store would then fail
    /// or lose its entry).
    @Test func leftoversAreCleanedWhileAnotherBuildWrites() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let cache = ImageCache(folder: folder)
        let image = ProcessedImage(
            variants: [ImageVariant(format: .jpeg, width: 10, height: 10)], color: "#000000", preview: "")
        let bytes = Data(repeating: 7, count: 1 << 20)
        let done = Mutex(false)
        let cleaner = Thread {
            while !done.withLock({ $0 }) { cache.removeLeftovers() }
        }
        cleaner.start()
        var failures: [String] = []
        for n in 0..<150 {
            do throws(ImageFailure) { try cache.store("k\(n)", image, files: [bytes]) } catch {
                failures.append(error.message)
            }
        }
        done.withLock { $0 = true }
        #expect(failures == [])
        #expect((0..<150).allSatisfy { cache.lookup("k\($0)") != nil })
    }
}
