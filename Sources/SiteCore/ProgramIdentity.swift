import Foundation

/// Which build of sitegen this process runs: what a record kept between builds (`BuildRecord`)
/// must have been made by, since another build may render the same parts differently. The
/// version alone cannot tell two builds apart; the linker's build ID (a digest of the program
/// it wrote) can, and costs one read of the program's first page. A program without one is
/// digested whole.
public enum ProgramIdentity {
    /// The digest of this process's program, read once.
    public static let current: UInt64 = identity(of: "/proc/self/exe")

    /// The identity of the program or library at `path` (0: it cannot be read).
    public static func identity(of path: String) -> UInt64 {
        guard let handle = FileHandle(forReadingAtPath: path) else { return 0 }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 1 << 16)) ?? Data()
        var digest = StableDigest()
        if let id = buildID(head) {
            digest.combine(id)
        } else {
            try? handle.seek(toOffset: 0)
            digest.combine((try? handle.readToEnd()) ?? Data())
        }
        return digest.value
    }

    /// The `NT_GNU_BUILD_ID` note of a 64-bit little-endian ELF file whose program headers and
    /// notes lie in `head`, else nil.
    static func buildID(_ head: Data) -> Data? {
        let bytes = [UInt8](head)
        func word(_ at: Int, _ size: Int) -> Int? {
            guard at >= 0, size <= 8, at + size <= bytes.count else { return nil }
            var v: UInt64 = 0
            for k in 0..<size { v |= UInt64(bytes[at + k]) << (8 * UInt64(k)) }
            return v > UInt64(Int.max) ? nil : Int(v)
        }
        guard bytes.starts(with: [0x7f, 0x45, 0x4c, 0x46, 2, 1]), let phoff = word(0x20, 8),
            let phentsize = word(0x36, 2), let phnum = word(0x38, 2)
        else { return nil }
        for k in 0..<phnum {
            let header = phoff + k * phentsize
            guard word(header, 4) == 4, var at = word(header + 8, 8), let size = word(header + 32, 8) else {
                continue  // not PT_NOTE
            }
            let end = at + size
            while at + 12 <= end, let nameSize = word(at, 4), let descSize = word(at + 4, 4),
                let type = word(at + 8, 4)
            {
                let name = at + 12, desc = name + (nameSize + 3) / 4 * 4
                if type == 3, nameSize == 4, name + 4 <= bytes.count,
                    Array(bytes[name..<name + 4]) == [0x47, 0x4e, 0x55, 0],
                    desc + descSize <= bytes.count
                {
                    return Data(bytes[desc..<desc + descSize])
                }
                at = desc + (descSize + 3) / 4 * 4
            }
        }
        return nil
    }
}
