import Foundation

/// Bounds-checked reads from image bytes: every accessor returns nil past the end, so a truncated
/// or hostile file can only make a reader fail, never trap.
///
/// Offsets are relative to the first byte, whatever `Data`'s own indices are (slices keep theirs).
struct ByteView {
    private let data: Data

    init(_ data: Data) { self.data = data }

    var count: Int { data.count }

    func u8(_ offset: Int) -> UInt8? {
        guard offset >= 0, offset < data.count else { return nil }
        return data[data.startIndex + offset]
    }

    func be16(_ offset: Int) -> Int? {
        guard let a = u8(offset), let b = u8(offset + 1) else { return nil }
        return Int(a) << 8 | Int(b)
    }

    func le16(_ offset: Int) -> Int? {
        guard let a = u8(offset), let b = u8(offset + 1) else { return nil }
        return Int(b) << 8 | Int(a)
    }

    func le24(_ offset: Int) -> Int? {
        guard let lo = le16(offset), let hi = u8(offset + 2) else { return nil }
        return Int(hi) << 16 | lo
    }

    func be32(_ offset: Int) -> Int? {
        guard let hi = be16(offset), let lo = be16(offset + 2) else { return nil }
        return hi << 16 | lo
    }

    func le32(_ offset: Int) -> Int? {
        guard let lo = le16(offset), let hi = le16(offset + 2) else { return nil }
        return hi << 16 | lo
    }

    /// `count` bytes read as a four-character code or signature; nil if they run past the end.
    func ascii(_ offset: Int, count: Int) -> String? {
        var scalars = String.UnicodeScalarView()
        for i in 0..<count {
            guard let byte = u8(offset + i) else { return nil }
            scalars.append(Unicode.Scalar(byte))
        }
        return String(scalars)
    }

    func starts(with prefix: [UInt8], at offset: Int = 0) -> Bool {
        for (i, expected) in prefix.enumerated() where u8(offset + i) != expected { return false }
        return true
    }
}
