import Foundation
import Testing
@testable import SiteCore

/// `ProgramIdentity`: the linker's build ID when the program has one, found through the program
/// headers; the whole file's digest otherwise.
@Suite struct ProgramIdentityTests {
    /// A 64-bit ELF header with one PT_NOTE program header pointing at one note of `type`.
    static func elf(noteType: UInt32, id: [UInt8]) -> Data {
        var bytes = [UInt8](repeating: 0, count: 0x100)
        func put(_ at: Int, _ value: UInt64, _ size: Int) {
            for k in 0..<size { bytes[at + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(k))) }
        }
        bytes.replaceSubrange(0..<6, with: [0x7f, 0x45, 0x4c, 0x46, 2, 1])
        put(0x20, 0x40, 8)  // e_phoff
        put(0x36, 56, 2)  // e_phentsize
        put(0x38, 1, 2)  // e_phnum
        put(0x40, 4, 4)  // p_type: PT_NOTE
        put(0x48, 0x80, 8)  // p_offset
        put(0x60, UInt64(12 + 4 + id.count), 8)  // p_filesz
        put(0x80, 4, 4)  // namesz
        put(0x84, UInt64(id.count), 4)  // descsz
        put(0x88, UInt64(noteType), 4)
        bytes.replaceSubrange(0x8c..<0x90, with: Array("GNU\0".utf8))
        bytes.replaceSubrange(0x90..<0x90 + id.count, with: id)
        return Data(bytes)
    }

    @Test func findsTheBuildID() {
        let id: [UInt8] = (1...20).map { UInt8($0) }
        #expect(ProgramIdentity.buildID(Self.elf(noteType: 3, id: id)) == Data(id))
        #expect(ProgramIdentity.buildID(Self.elf(noteType: 1, id: id)) == nil, "another kind of note")
        #expect(ProgramIdentity.buildID(Data("not an ELF file".utf8)) == nil)
        #expect(ProgramIdentity.buildID(Self.elf(noteType: 3, id: id).prefix(0x95)) == nil, "cut short")
    }

    /// Two programs that differ only in their build IDs are told apart; a file without one is
    /// digested whole.
    @Test func identitiesDiffer() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a"), b = folder.appendingPathComponent("b")
        try Self.elf(noteType: 3, id: [1, 2, 3, 4]).write(to: a)
        try Self.elf(noteType: 3, id: [1, 2, 3, 5]).write(to: b)
        #expect(ProgramIdentity.identity(of: a.path) != ProgramIdentity.identity(of: b.path))
        #expect(ProgramIdentity.current != 0)
    }
}
