import Foundation
import SiteCore

/// Runs `body` over the bytes of `data` without copying them, keeping the typed error
/// (`Data.withUnsafeBytes` only rethrows untyped errors).
func withBytes<R, E: Error>(_ data: Data, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
    let result: Result<R, E> = data.withUnsafeBytes { raw in
        Result { () throws(E) -> R in try body(raw.bindMemory(to: UInt8.self)) }
    }
    return try result.get()
}

/// Byte-level helpers shared by the text readers.
enum ByteText {
    /// Length of the UTF-8 byte order mark at the start of `bytes`, or 0.
    static func bomLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return 3 }
        return 0
    }

    /// 1-based line and column of byte `offset`, counting from `start` (just after a byte order
    /// mark); see `TextPosition`.
    static func lineColumn(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (
        line: Int, column: Int
    ) {
        TextPosition.of([offset], in: bytes, from: start)[0]
    }

    /// `lineColumn` of each of `offsets` in one pass over the bytes.
    static func lineColumns(of offsets: [Int], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> [(
        line: Int, column: Int
    )] {
        TextPosition.of(offsets, in: bytes, from: start)
    }

    /// Length of the well-formed UTF-8 sequence (RFC 3629: no overlongs, no surrogates, at most
    /// U+10FFFF) starting at `i`, or nil when the bytes there are not valid UTF-8.
    @inline(__always)
    static func utf8SequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        let n = bytes.count
        let b0 = bytes[i]
        if b0 < 0x80 { return 1 }
        @inline(__always) func cont(_ index: Int) -> Bool { index < n && bytes[index] & 0xC0 == 0x80 }
        @inline(__always) func inRange(_ index: Int, _ lo: UInt8, _ hi: UInt8) -> Bool {
            index < n && bytes[index] >= lo && bytes[index] <= hi
        }
        switch b0 {
        case 0xC2...0xDF:
            return cont(i + 1) ? 2 : nil
        case 0xE0:
            return inRange(i + 1, 0xA0, 0xBF) && cont(i + 2) ? 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF:
            return cont(i + 1) && cont(i + 2) ? 3 : nil
        case 0xED:
            return inRange(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : nil
        case 0xF0:
            return inRange(i + 1, 0x90, 0xBF) && cont(i + 2) && cont(i + 3) ? 4 : nil
        case 0xF1...0xF3:
            return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : nil
        case 0xF4:
            return inRange(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : nil
        default:
            return nil
        }
    }

    /// Offset of the first byte that is not part of well-formed UTF-8, or nil if all of `bytes` is valid.
    static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        let n = bytes.count
        while i < n {
            if bytes[i] < 0x80 {
                i += 1
            } else if let length = utf8SequenceLength(bytes, at: i) {
                i += length
            } else {
                return i
            }
        }
        return nil
    }

    /// Appends the UTF-8 encoding of `scalar` (already known to be a valid scalar value).
    @inline(__always)
    static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(truncatingIfNeeded: scalar))
        case 0x80..<0x800:
            out.append(UInt8(truncatingIfNeeded: 0xC0 | (scalar >> 6)))
            out.append(UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(truncatingIfNeeded: 0xE0 | (scalar >> 12)))
            out.append(UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F)))
        default:
            out.append(UInt8(truncatingIfNeeded: 0xF0 | (scalar >> 18)))
            out.append(UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 12) & 0x3F)))
            out.append(UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 6) & 0x3F)))
            out.append(UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F)))
        }
    }

    /// A `String` from a range of bytes already validated as UTF-8.
    @inline(__always)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    static func hexByte(_ byte: UInt8) -> String {
        let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }

    static func scalarName(_ value: UInt32) -> String {
        var hex = String(value, radix: 16, uppercase: true)
        while hex.count < 4 { hex = "0" + hex }
        return "U+" + hex
    }

    @inline(__always)
    static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x5F
    }

    /// What is at `i`, for "found …" in messages: `end of file`, `'x'`, a whole word such as `'NaN'`,
    /// a non-ASCII character `'가'`, a control character `U+0007`, or a malformed `byte 0xFF`.
    static func describe(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> String {
        guard i >= 0, i < bytes.count else { return "end of file" }
        let b = bytes[i]
        if isWordByte(b) {
            var end = i + 1
            while end < bytes.count, end - i < 24, isWordByte(bytes[end]) { end += 1 }
            return "'" + string(bytes, i..<end) + "'"
        }
        if b == 0x0A || b == 0x0D { return "a line break" }
        if b < 0x20 || b == 0x7F { return scalarName(UInt32(b)) }
        if b < 0x80 { return "'" + String(UnicodeScalar(b)) + "'" }
        if let length = utf8SequenceLength(bytes, at: i) {
            return "'" + string(bytes, i..<(i + length)) + "'"
        }
        return "byte " + hexByte(b)
    }

    /// Whether the bytes at `i` are exactly `literal` (ASCII).
    @inline(__always)
    static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, _ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard i >= 0, n <= bytes.count - i else { return false }
        let p = literal.utf8Start
        for k in 0..<n where bytes[i + k] != p[k] { return false }
        return true
    }

    /// Whether the bytes in `range` are exactly `literal` (ASCII).
    @inline(__always)
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ literal: StaticString) -> Bool {
        range.count == literal.utf8CodeUnitCount && matches(bytes, at: range.lowerBound, literal)
    }
}

/// Where text that should be UTF-8 is not.
public struct InvalidUTF8: Sendable, Equatable {
    public var line: Int
    public var column: Int
    public var byte: UInt8

    /// The first malformed byte of `data` (a byte order mark is skipped), or nil if it is all UTF-8.
    public static func first(in data: Data) -> InvalidUTF8? {
        withBytes(data) { bytes in
            let start = ByteText.bomLength(bytes)
            guard let bad = ByteText.firstInvalidUTF8(bytes, from: start) else { return nil }
            let (line, column) = ByteText.lineColumn(of: bad, in: bytes, from: start)
            return InvalidUTF8(line: line, column: column, byte: bytes[bad])
        }
    }

    /// "invalid UTF-8 byte 0xE9", as the dataset readers say it.
    public var message: String { "invalid UTF-8 byte \(ByteText.hexByte(byte))" }
}
