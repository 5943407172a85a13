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

extension ContentHash {
    /// 128 bits of XXH64 (Yann Collet's, seeds 0 and 1, in one pass) over raw bytes: for cache
    /// keys and checksums over megabytes, where FNV's byte at a time (`wide`, ~0.7 GB/s) would
    /// cost a warm build tens of milliseconds and XXH64's 32-byte stripes cost a few.
    public static func digest(_ raw: UnsafeRawBufferPointer) -> Digest {
        var a = XXH64(seed: 0), b = XXH64(seed: 1)
        var offset = 0
        while offset + 32 <= raw.count {
            let w0 = raw.word(offset), w1 = raw.word(offset + 8), w2 = raw.word(offset + 16), w3 = raw.word(offset + 24)
            a.stripe(w0, w1, w2, w3)
            b.stripe(w0, w1, w2, w3)
            offset += 32
        }
        return Digest(a.finish(raw, from: offset), b.finish(raw, from: offset))
    }

    public static func digest(_ data: Data) -> Digest { data.withUnsafeBytes { digest($0) } }

    /// A 128-bit digest, compared and stored as two words.
    public struct Digest: Sendable, Hashable, Codable {
        public var high: UInt64
        public var low: UInt64

        public init(_ high: UInt64, _ low: UInt64) {
            self.high = high
            self.low = low
        }

        public var hex: String {
            [high, low].map {
                let s = String($0, radix: 16); return String(repeating: "0", count: 16 - s.count) + s
            }.joined()
        }
    }

    /// XXH64 of `raw` with `seed` (one stream: what `digest` computes two of).
    static func xxh64(_ raw: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        var h = XXH64(seed: seed)
        var offset = 0
        while offset + 32 <= raw.count {
            h.stripe(raw.word(offset), raw.word(offset + 8), raw.word(offset + 16), raw.word(offset + 24))
            offset += 32
        }
        return h.finish(raw, from: offset)
    }

    /// XXH64's state (https://github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md).
    struct XXH64 {
        static let p1: UInt64 = 0x9E37_79B1_85EB_CA87, p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        static let p3: UInt64 = 0x1656_67B1_9E37_79F9, p4: UInt64 = 0x85EB_CA77_C2B2_AE63
        static let p5: UInt64 = 0x27D4_EB2F_1656_67C5
        let seed: UInt64
        var v1: UInt64, v2: UInt64, v3: UInt64, v4: UInt64
        var stripes = false

        init(seed: UInt64) {
            self.seed = seed
            v1 = seed &+ Self.p1 &+ Self.p2
            v2 = seed &+ Self.p2
            v3 = seed
            v4 = seed &- Self.p1
        }

        static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
            (acc &+ input &* p2).rotated(31) &* p1
        }

        mutating func stripe(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) {
            v1 = Self.round(v1, w0)
            v2 = Self.round(v2, w1)
            v3 = Self.round(v3, w2)
            v4 = Self.round(v4, w3)
            stripes = true
        }

        /// The digest, with the bytes of `raw` from `offset` on (fewer than 32) and its length.
        func finish(_ raw: UnsafeRawBufferPointer, from offset: Int) -> UInt64 {
            var h: UInt64
            if stripes {
                h = v1.rotated(1) &+ v2.rotated(7) &+ v3.rotated(12) &+ v4.rotated(18)
                for v in [v1, v2, v3, v4] { h = (h ^ Self.round(0, v)) &* Self.p1 &+ Self.p4 }
            } else {
                h = seed &+ Self.p5
            }
            h &+= UInt64(raw.count)
            var i = offset
            while i + 8 <= raw.count {
                h = (h ^ Self.round(0, raw.word(i))).rotated(27) &* Self.p1 &+ Self.p4
                i += 8
            }
            if i + 4 <= raw.count {
                let w = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt32.self)))
                h = (h ^ (w &* Self.p1)).rotated(23) &* Self.p2 &+ Self.p3
                i += 4
            }
            while i < raw.count {
                h = (h ^ (UInt64(raw[i]) &* Self.p5)).rotated(11) &* Self.p1
                i += 1
            }
            h ^= h >> 33
            h &*= Self.p2
            h ^= h >> 29
            h &*= Self.p3
            return h ^ (h >> 32)
        }
    }
}

extension UInt64 {
    fileprivate func rotated(_ n: UInt64) -> UInt64 { (self << n) | (self >> (64 - n)) }
}

extension UnsafeRawBufferPointer {
    /// The little-endian word at `offset`.
    fileprivate func word(_ offset: Int) -> UInt64 {
        UInt64(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
