import Foundation
import Testing
@testable import SiteWrite

/// Copies and shared files, through the kernel's ways and through the fallbacks a file system
/// without them takes (forced here: this one has both).
@Suite struct FileBytesTests {
    static let kernels: [FileBytes.Kernel] = [
        FileBytes.Kernel(), FileBytes.Kernel(copyRange: false, hardLinks: true),
        FileBytes.Kernel(copyRange: true, hardLinks: false), FileBytes.Kernel(copyRange: false, hardLinks: false)
    ]

    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-bytes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Bytes that span several of the fallback's 64 KiB reads, the last one partial.
    static let bytes: Data = {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<(3 * 65_536 + 17)).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }()

    static func inode(_ path: String) throws -> (inode: UInt64, links: UInt64) {
        var s = stat()
        guard stat(path, &s) == 0 else { throw POSIXError(.ENOENT) }
        return (UInt64(s.st_ino), UInt64(s.st_nlink))
    }

    @Test(arguments: kernels)
    func aCopyIsTheSameBytesInAFileOfItsOwn(kernel: FileBytes.Kernel) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let from = dir.appendingPathComponent("a").path, to = dir.appendingPathComponent("b").path
        try Self.bytes.write(to: URL(fileURLWithPath: from))
        try FileBytes.copy(from, to: to, kernel: kernel)
        #expect(try Data(contentsOf: URL(fileURLWithPath: to)) == Self.bytes)
        #expect(try Self.inode(to).inode != Self.inode(from).inode)
    }

    /// Shared: a hard link where the kernel may make one, else a copy of its own.
    @Test(arguments: kernels)
    func aSharedFileIsALinkOrElseACopy(kernel: FileBytes.Kernel) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let from = dir.appendingPathComponent("a").path, to = dir.appendingPathComponent("b").path
        try Self.bytes.write(to: URL(fileURLWithPath: from))
        try FileBytes.linkOrCopy(from, to: to, kernel: kernel)
        #expect(try Data(contentsOf: URL(fileURLWithPath: to)) == Self.bytes)
        #expect(try (Self.inode(to).inode == Self.inode(from).inode) == kernel.hardLinks)
        #expect(try Self.inode(from).links == (kernel.hardLinks ? 2 : 1))
    }

    /// A write or a copy makes a new file, never writes into an existing one: that one may be a
    /// file of the previous output too (a hard link), which would change with it.
    @Test func aWriteOrACopyNeverWritesIntoAnExistingFile() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let previous = dir.appendingPathComponent("previous").path, new = dir.appendingPathComponent("new").path
        let from = dir.appendingPathComponent("from").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: previous))
        try Self.bytes.write(to: URL(fileURLWithPath: from))
        #expect(link(previous, new) == 0)
        #expect(throws: POSIXError.self) { try FileBytes.write(Data("new".utf8), to: new) }
        for kernel in Self.kernels {
            #expect(throws: POSIXError.self) { try FileBytes.copy(from, to: new, kernel: kernel) }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: previous)) == Data("old".utf8))
    }

    @Test func theFallbacksAreSelectedByName() {
        #expect(FileBytes.Kernel.named("") == FileBytes.Kernel())
        #expect(FileBytes.Kernel.named("copy-range") == FileBytes.Kernel(copyRange: false, hardLinks: true))
        #expect(FileBytes.Kernel.named("hard-links,copy-range") == FileBytes.Kernel(copyRange: false, hardLinks: false))
    }
}
