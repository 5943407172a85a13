import Foundation
import Testing
import SiteCore
@testable import SiteLoad

/// `ContentTree.contents` reads with system calls: what a file holds, whatever its size says.
@Suite struct SourceFilesTests {
    /// Files of /proc say they are empty and are not: read to their end, as a file that grew
    /// since it was measured would be.
    @Test func aFileIsReadToItsEndWhateverItsSizeSays() throws {
        let proc = ContentTree(root: URL(fileURLWithPath: "/proc/self"), datasets: [], notes: [], staticFiles: [])
        var st = stat()
        try #require(stat("/proc/self/cmdline", &st) == 0 && st.st_size == 0)
        let read = try proc.contents("cmdline").get()
        #expect(read.count > 1)
        #expect(read == FileManager.default.contents(atPath: "/proc/self/cmdline"))
    }

    @Test func aMissingFileAndAFolderSayWhy() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-source-files-\(UUID())")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("folder"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let tree = ContentTree(root: root, datasets: [], notes: [], staticFiles: [])
        #expect(throws: Diagnostic(file: "content/nowhere.md", "cannot read file: no such file")) {
            try tree.read("nowhere.md")
        }
        #expect(throws: Diagnostic(file: "content/folder", "cannot read file: it is a folder, not a regular file")) {
            try tree.read("folder")
        }
        let big = Data((0..<300_000).map { UInt8($0 % 251) })
        try big.write(to: root.appendingPathComponent("big.bin"))
        #expect(try tree.read("big.bin") == big)
    }

    /// The image sizer reads a file's first bytes with `head`: a folder or a FIFO is refused by its
    /// kind before it is opened. The FIFO has a writer and bytes waiting, so a read that got past the
    /// check would answer them instead of blocking the test.
    @Test func headRefusesAFolderAndAFIFO() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-source-head-\(UUID())")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("folder"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let fifo = root.appendingPathComponent("pipe").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let writer = open(fifo, O_RDWR | O_NONBLOCK)
        try #require(writer >= 0)
        defer { close(writer) }
        try #require(write(writer, "GIF8", 4) == 4)
        let tree = ContentTree(root: root, datasets: [], notes: [], staticFiles: [])
        for (name, kind) in [("folder", "a folder"), ("pipe", "a FIFO")] {
            guard case .failure(let failure) = tree.head(name, count: 2) else {
                Issue.record("head(\(name)) read it")
                continue
            }
            #expect(failure.text == "it is \(kind), not a regular file")
        }
    }
}
