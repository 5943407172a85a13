import Foundation
import Synchronization
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

    func failureText(_ r: Result<Data, ContentTree.ReadFailure>) -> String? {
        if case .failure(let f) = r { return f.text }
        return nil
    }

    /// A file to publish is read once whole: not while a program has it open for writing, nor
    /// within the save wait of its last change (then the copy published before stays).
    @Test func aFileBeingWrittenIsWaitedForThenRead() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-settled-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appendingPathComponent("big.bin").path
        try Data("whole".utf8).write(to: URL(fileURLWithPath: path))
        let message =
            "it was still being written after 50 ms (a program has it open for writing, or rewrites it); "
            + "the copy published before is kept until it is left unchanged for 3600000 ms"
        #expect(failureText(ContentTree.settledContents(atPath: path, wait: 3600, patience: 0.05)) == message)
        #expect(try ContentTree.settledContents(atPath: path, wait: 0).get() == Data("whole".utf8))
        let writer = try #require(FileHandle(forWritingAtPath: path))
        #expect(
            failureText(ContentTree.settledContents(atPath: path, wait: 0, patience: 0.05))?.hasPrefix(
                "it was still being written after 50 ms") == true)
        // Closed by the writer in the meantime: read then.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { try? writer.close() }
        #expect(try ContentTree.settledContents(atPath: path, wait: 0, patience: 30).get() == Data("whole".utf8))
        #expect(failureText(ContentTree.settledContents(atPath: root.path + "/none", wait: 0)) == "no such file")
    }

    /// A program rewriting a file in place (truncate, then write in pieces) while it is read:
    /// every read is one whole version, never a truncated or mixed one.
    @Test func aFileRewrittenWhileItIsReadIsReadWhole() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-rewritten-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appendingPathComponent("big.bin").path
        @Sendable func version(_ k: Int) -> Data { Data(repeating: UInt8(65 + k % 26), count: 1 << 20) }
        try version(0).write(to: URL(fileURLWithPath: path))
        let stop = Atomic<Bool>(false)
        let writer = Thread {
            var k = 1
            while !stop.load(ordering: .relaxed) {
                let fd = open(path, O_WRONLY | O_TRUNC)
                let data = version(k)
                for piece in stride(from: 0, to: data.count, by: 1 << 16) {
                    _ = data[piece..<piece + (1 << 16)].withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
                }
                close(fd)
                k += 1
                usleep(1000)  // a writer that rests between versions, as a program saving now and then
            }
        }
        writer.start()
        defer { stop.store(true, ordering: .relaxed) }
        for _ in 0..<10 {
            let read = try ContentTree.settledContents(atPath: path, wait: 0, patience: 30).get()
            #expect(read.count == 1 << 20 && read.allSatisfy { $0 == read.first })
        }
    }
}
