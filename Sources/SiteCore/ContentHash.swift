import Foundation
/// A short fingerprint of bytes for cache-busting file names (`sitegen.3f2a9c1e0b7d4a65.css`):
/// 64-bit FNV-1a, which changes whenever the bytes do (a collision between two versions of one
/// file is a 1-in-2^64 chance) and is the same on every machine.
public enum ContentHash {
    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        let digits = String(h, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// `name` with the fingerprint of `bytes` before its extension: `a/photos.css` → `a/photos.<hex>.css`.
    public static func fingerprinted<Bytes: Sequence>(_ name: String, _ bytes: Bytes) -> String
    where Bytes.Element == UInt8 {
        let hash = hex(bytes)
        let slash = name.lastIndex(of: "/").map { name.index(after: $0) } ?? name.startIndex
        guard let dot = name[slash...].lastIndex(of: "."), dot > slash else { return "\(name).\(hash)" }
        return "\(name[..<dot]).\(hash)\(name[dot...])"
    }

    /// 128 bits of FNV-1a over the bytes (two 64-bit lanes with different offsets), as hex: for
    /// cache keys, where a collision would reuse another entry.
    public static func wide(_ data: Data) -> String {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x6c62_272e_07bb_0142
        data.withUnsafeBytes { raw in
            for byte in raw {
                a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
        return [a, b].map {
            let s = String($0, radix: 16); return String(repeating: "0", count: 16 - s.count) + s
        }.joined()
    }
}
