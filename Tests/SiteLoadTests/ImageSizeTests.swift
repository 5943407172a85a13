import Foundation
import Testing
import SiteCore
@testable import SiteLoad
import ImageProbe

/// Image sizes read from the files' first bytes, and from the whole file when those are not enough.
@Suite struct ImageSizeTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-sizes-\(UUID().uuidString)")

    static func be16(_ n: Int) -> [UInt8] { [UInt8(n >> 8), UInt8(n & 0xFF)] }

    /// A JPEG whose frame header comes after `padding` bytes of application segments (an embedded
    /// preview, a colour profile), as camera files have.
    static func jpeg(width: Int, height: Int, padding: Int) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8]
        var left = padding
        while left > 0 {
            let n = min(left, 60_000)
            bytes += [0xFF, 0xE2] + be16(n + 2) + [UInt8](repeating: 0x20, count: n)
            left -= n
        }
        bytes += [0xFF, 0xC0] + be16(11) + [8] + be16(height) + be16(width) + [1, 0x01, 0x11, 0x00]
        bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x12, 0x34, 0xFF, 0xD9]
        return Data(bytes)
    }

    func sizes(_ files: [String: Data]) throws -> [String: [Int]] {
        defer { try? FileManager.default.removeItem(at: root) }
        let items = files.keys.sorted().map { "{\"name\": \"\($0)\", \"pic\": \"\($0)\"}" }.joined(separator: ",")
        for (path, data) in files.merging(["c.json": Data("[\(items)]".utf8)], uniquingKeysWith: { a, _ in a }) {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try data.write(to: root.appendingPathComponent(path))
        }
        let yaml =
            "title: T\nbaseURL: https://x.org/\ncollections:\n  c:\n    data: c.json\n    slug: name\n    images: { fields: pic, resize: false }\n"
        let config = try #require(try SiteConfig.parse(yaml, file: "site.yml").collections.first)
        let loaded = try CollectionLoader(content: try ContentTree.scan(root), language: "en").load(
            config, imageSizes: ImageSizeCache())
        var out: [String: [Int]] = [:]
        for item in loaded.items { if let i = item.images["pic"] { out[i.source] = [i.width ?? -1, i.height ?? -1] } }
        return out
    }

    @Test func aFramePastTheFirstBytesIsStillFound() throws {
        let near = Self.jpeg(width: 640, height: 480, padding: 1_000)
        let far = Self.jpeg(width: 4000, height: 3000, padding: 150_000)
        // The frame of `far` is not in the head the loader reads first.
        #expect(throws: Diagnostic.self) {
            try ImageProbe.size(of: far.prefix(ImageSizeCache.headBytes), file: "far.jpg")
        }
        // The viewBox that decides this one's size is past the head: the root tag is cut, no size.
        let svg = Data(
            ("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"30\" height=\"20\" data-note=\""
                + String(repeating: "padding ", count: 10_000) + "\" viewBox=\"0 0 300 200\"></svg>").utf8)
        #expect(throws: Diagnostic.self) {
            try ImageProbe.size(of: svg.prefix(ImageSizeCache.headBytes), file: "big.svg")
        }
        let padded = near + Data(count: 200_000)  // a long tail after the picture changes nothing
        #expect(
            try sizes(["near.jpg": padded, "far.jpg": far, "big.svg": svg])
                == ["near.jpg": [640, 480], "far.jpg": [4000, 3000], "big.svg": [300, 200]])
    }
}
