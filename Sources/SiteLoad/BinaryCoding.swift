import Foundation

/// `Codable` values as tagged bytes, for the note cache: a warm build decodes 10,000 notes
/// (~40 MB of HTML) several times faster than from JSON or a binary property list (`NoteCache`).
///
/// Each value is a tag byte and its payload: integers and doubles in 8 bytes (little-endian),
/// texts as a 4-byte length and their UTF-8, containers as a 4-byte count and their elements (a
/// keyed container's each after its key). Every key is written, nil ones too, in the order the
/// type encodes them, so a synthesized `init(from:)` finds each at the next entry; a key out of
/// order (a dictionary's `allKeys`, an enum's case) is found by indexing the container once.
/// Reading checks every length and tag against the bytes: wrong bytes throw, never trap.
public enum BinaryCoding {
    enum Tag: UInt8 {
        case null, no, yes, int, uint, double, string, keyed, unkeyed
    }

    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let sink = ByteSink()
        try sink.value(value)
        if let failure = sink.failure { throw failure }
        return sink.bytes
    }

    /// The value of type `T` that `raw` holds, all of it.
    public static func decode<T: Decodable>(_ type: T.Type, from raw: UnsafeRawBufferPointer) throws -> T {
        let source = ByteSource(raw)
        let value = try source.value(T.self)
        if let failure = source.failure { throw failure }
        guard source.position == raw.count else {
            throw source.damaged("\(raw.count - source.position) bytes left over")
        }
        return value
    }

    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try data.withUnsafeBytes { try decode(type, from: $0) }
    }
}

// MARK: - Encoding

/// The bytes being written; containers count their elements in place (`slot`, `bump`).
final class ByteSink {
    var bytes: [UInt8] = []
    /// A text past 4 GB, found where nothing can throw (a nested container's key): the bytes are
    /// then thrown away.
    var failure: EncodingError?

    func tag(_ tag: BinaryCoding.Tag) { bytes.append(tag.rawValue) }

    func word(_ w: UInt64) { withUnsafeBytes(of: w.littleEndian) { bytes.append(contentsOf: $0) } }

    func text(_ s: String) {
        guard let n = UInt32(exactly: s.utf8.count) else {
            failure = EncodingError.invalidValue(s.utf8.count, .init(codingPath: [], debugDescription: "past 4 GB"))
            return
        }
        withUnsafeBytes(of: n.littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: s.utf8)
    }

    func string(_ s: String) {
        tag(.string)
        text(s)
    }

    func bool(_ b: Bool) { tag(b ? .yes : .no) }
    func int<I: FixedWidthInteger & SignedInteger>(_ i: I) { tag(.int); word(UInt64(bitPattern: Int64(i))) }
    func uint<I: FixedWidthInteger & UnsignedInteger>(_ i: I) { tag(.uint); word(UInt64(i)) }
    func double(_ d: Double) { tag(.double); word(d.bitPattern) }

    /// A container's tag and the place of its count, which starts at 0.
    func container(_ tag: BinaryCoding.Tag) -> Int {
        self.tag(tag)
        return slot()
    }

    func count(at slot: Int) -> Int {
        Int(bytes[slot]) | Int(bytes[slot + 1]) << 8 | Int(bytes[slot + 2]) << 16 | Int(bytes[slot + 3]) << 24
    }

    func bump(_ slot: Int) {
        let n = UInt32(truncatingIfNeeded: count(at: slot) + 1)
        for i in 0..<4 { bytes[slot + i] = UInt8(truncatingIfNeeded: n >> (8 * i)) }
    }

    /// A value of any type, which must write something (else its entry would be missing).
    func value<T: Encodable>(_ value: T) throws {
        let before = bytes.count
        try value.encode(to: ByteEncoder(sink: self))
        guard bytes.count > before else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "encodes nothing"))
        }
    }
}

struct ByteEncoder: Encoder {
    let sink: ByteSink
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedByteSink<Key>(sink: sink, slot: sink.container(.keyed)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedByteSink(sink: sink, slot: sink.container(.unkeyed))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleByteSink(sink: sink) }
}

/// The primitives every container writes the same way, once its key (if any) is written.
protocol BytePrimitives {
    var sink: ByteSink { get }
    /// Called before each element: writes its key, counts it.
    mutating func entry(_ key: (any CodingKey)?)
}

extension BytePrimitives {
    mutating func put(_ key: (any CodingKey)?, _ write: (ByteSink) throws -> Void) throws {
        entry(key)
        try write(sink)
    }
}

struct KeyedByteSink<Key: CodingKey>: KeyedEncodingContainerProtocol, BytePrimitives {
    let sink: ByteSink
    let slot: Int
    var codingPath: [any CodingKey] { [] }

    mutating func entry(_ key: (any CodingKey)?) {
        sink.text(key?.stringValue ?? "")
        sink.bump(slot)
    }

    mutating func encodeNil(forKey key: Key) throws { try put(key) { $0.tag(.null) } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try put(key) { $0.bool(value) } }
    mutating func encode(_ value: String, forKey key: Key) throws { try put(key) { $0.string(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws { try put(key) { $0.double(value) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { try put(key) { $0.double(Double(value)) } }
    mutating func encode(_ value: Int, forKey key: Key) throws { try put(key) { $0.int(value) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try put(key) { $0.int(value) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try put(key) { $0.int(value) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try put(key) { $0.int(value) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try put(key) { $0.int(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try put(key) { $0.uint(value) } }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(key) { $0.uint(value) } }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(key) { $0.uint(value) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(key) { $0.uint(value) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(key) { $0.uint(value) } }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try put(key) { try $0.value(value) } }

    // nil is written too (the defaults leave the key out), so that keys are read in order.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try optional(value, key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try optional(value, key) }

    private mutating func optional<T: Encodable>(_ value: T?, _ key: Key) throws {
        // A nil's `.null`, a value's own encoding (the same bytes as `encode`).
        try put(key) { sink throws in if let value { try sink.value(value) } else { sink.tag(.null) } }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        entry(key)
        return ByteEncoder(sink: sink).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        entry(key)
        return ByteEncoder(sink: sink).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        sink.text("super")
        sink.bump(slot)
        return ByteEncoder(sink: sink)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        entry(key)
        return ByteEncoder(sink: sink)
    }
}

struct UnkeyedByteSink: UnkeyedEncodingContainer, BytePrimitives {
    let sink: ByteSink
    let slot: Int
    var codingPath: [any CodingKey] { [] }
    var count: Int { sink.count(at: slot) }

    mutating func entry(_ key: (any CodingKey)?) { sink.bump(slot) }

    mutating func encodeNil() throws { try put(nil) { $0.tag(.null) } }
    mutating func encode(_ value: Bool) throws { try put(nil) { $0.bool(value) } }
    mutating func encode(_ value: String) throws { try put(nil) { $0.string(value) } }
    mutating func encode(_ value: Double) throws { try put(nil) { $0.double(value) } }
    mutating func encode(_ value: Float) throws { try put(nil) { $0.double(Double(value)) } }
    mutating func encode(_ value: Int) throws { try put(nil) { $0.int(value) } }
    mutating func encode(_ value: Int8) throws { try put(nil) { $0.int(value) } }
    mutating func encode(_ value: Int16) throws { try put(nil) { $0.int(value) } }
    mutating func encode(_ value: Int32) throws { try put(nil) { $0.int(value) } }
    mutating func encode(_ value: Int64) throws { try put(nil) { $0.int(value) } }
    mutating func encode(_ value: UInt) throws { try put(nil) { $0.uint(value) } }
    mutating func encode(_ value: UInt8) throws { try put(nil) { $0.uint(value) } }
    mutating func encode(_ value: UInt16) throws { try put(nil) { $0.uint(value) } }
    mutating func encode(_ value: UInt32) throws { try put(nil) { $0.uint(value) } }
    mutating func encode(_ value: UInt64) throws { try put(nil) { $0.uint(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws { try put(nil) { try $0.value(value) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        sink.bump(slot)
        return ByteEncoder(sink: sink).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        sink.bump(slot)
        return ByteEncoder(sink: sink).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        sink.bump(slot)
        return ByteEncoder(sink: sink)
    }
}

struct SingleByteSink: SingleValueEncodingContainer {
    let sink: ByteSink
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { sink.tag(.null) }
    mutating func encode(_ value: Bool) throws { sink.bool(value) }
    mutating func encode(_ value: String) throws { sink.string(value) }
    mutating func encode(_ value: Double) throws { sink.double(value) }
    mutating func encode(_ value: Float) throws { sink.double(Double(value)) }
    mutating func encode(_ value: Int) throws { sink.int(value) }
    mutating func encode(_ value: Int8) throws { sink.int(value) }
    mutating func encode(_ value: Int16) throws { sink.int(value) }
    mutating func encode(_ value: Int32) throws { sink.int(value) }
    mutating func encode(_ value: Int64) throws { sink.int(value) }
    mutating func encode(_ value: UInt) throws { sink.uint(value) }
    mutating func encode(_ value: UInt8) throws { sink.uint(value) }
    mutating func encode(_ value: UInt16) throws { sink.uint(value) }
    mutating func encode(_ value: UInt32) throws { sink.uint(value) }
    mutating func encode(_ value: UInt64) throws { sink.uint(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try sink.value(value) }
}

// MARK: - Decoding

/// The bytes being read and the place reached. Every read checks its length first.
final class ByteSource {
    let raw: UnsafeRawBufferPointer
    var position = 0
    /// Wrong bytes found where nothing can throw (`allKeys`): the decoding then fails.
    var failure: DecodingError?
    /// The keyed containers indexed (`KeyedByteSource.indexed`), and where each ended, by the
    /// place of its tag: a value whose container was read out of order ends there.
    var indexings = 0
    var ends: [Int: Int] = [:]

    init(_ raw: UnsafeRawBufferPointer) { self.raw = raw }

    func damaged(_ why: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: "\(why) at byte \(position)"))
    }

    func need(_ n: Int) throws {
        guard n <= raw.count - position else { throw damaged("cut short (\(n) bytes wanted)") }
    }

    func tag() throws -> BinaryCoding.Tag {
        try need(1)
        guard let tag = BinaryCoding.Tag(rawValue: raw[position]) else { throw damaged("unknown tag \(raw[position])") }
        position += 1
        return tag
    }

    func peekTag() -> BinaryCoding.Tag? { position < raw.count ? BinaryCoding.Tag(rawValue: raw[position]) : nil }

    func expect(_ wanted: BinaryCoding.Tag) throws {
        let found = try tag()
        guard found == wanted else { throw damaged("\(found) where \(wanted) was expected") }
    }

    func word() throws -> UInt64 {
        try need(8)
        defer { position += 8 }
        return UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
    }

    func count32() throws -> Int {
        try need(4)
        defer { position += 4 }
        return Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
    }

    /// The UTF-8 bytes of a text (without tag), skipped.
    func textBytes() throws -> UnsafeRawBufferPointer {
        let n = try count32()
        try need(n)
        defer { position += n }
        return UnsafeRawBufferPointer(rebasing: raw[position..<position + n])
    }

    func text() throws -> String { String(decoding: try textBytes(), as: UTF8.self) }

    /// Passes over the text here if it is `bytes` (else stays): never throws, whatever is here.
    func skipText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard raw.count - position >= 4 + bytes.count,
            UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt32.self)) == bytes.count,
            UnsafeRawBufferPointer(rebasing: raw[position + 4..<position + 4 + bytes.count]).elementsEqual(bytes)
        else { return false }
        position += 4 + bytes.count
        return true
    }

    func string() throws -> String {
        try expect(.string)
        return try text()
    }

    func bool() throws -> Bool {
        switch try tag() {
        case .yes: return true
        case .no: return false
        case let other: throw damaged("\(other) where a boolean was expected")
        }
    }

    func double() throws -> Double {
        try expect(.double)
        return Double(bitPattern: try word())
    }

    func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        let tag = try tag()
        let w = try word()
        let value: I? =
            switch tag {
            case .int: I(exactly: Int64(bitPattern: w))
            case .uint: I(exactly: w)
            default: throw damaged("\(tag) where an integer was expected")
            }
        guard let value else { throw damaged("\(w) does not fit \(I.self)") }
        return value
    }

    /// A container's count (its tag read), no more than the bytes left could hold.
    func container(_ tag: BinaryCoding.Tag) throws -> Int {
        try expect(tag)
        let n = try count32()
        guard n <= raw.count - position else { throw damaged("a count of \(n)") }
        return n
    }

    /// The value here, of type `T`; the source then at its end, though its keys were read out
    /// of order (where the last one read ended is not the container's end then).
    func value<T: Decodable>(_ type: T.Type) throws -> T {
        let start = position, indexed = indexings
        let value = try T(from: ByteDecoder(source: self))
        if indexings != indexed, let end = ends[start] { position = end }
        return value
    }

    /// Passes over the value here, whatever it is.
    func skip() throws {
        switch try tag() {
        case .null, .no, .yes: return
        case .int, .uint, .double: _ = try word()
        case .string: _ = try textBytes()
        case .keyed:
            let n = try count32()
            for _ in 0..<n {
                _ = try textBytes()
                try skip()
            }
        case .unkeyed:
            let n = try count32()
            for _ in 0..<n { try skip() }
        }
    }
}

struct ByteDecoder: Decoder {
    let source: ByteSource
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try KeyedByteSource<Key>(source))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { try UnkeyedByteSource(source) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleByteSource(source: source) }
}

/// A keyed container's entries, read in the order they were written: the next entry starts
/// where the source is (the values before it read, nested ones too, as a decoder reads them
/// depth first). A key asked out of that order is found in an index of them all, made once.
final class KeyedByteSource<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let source: ByteSource
    let count: Int
    let start: Int
    /// The entry expected next.
    var next = 0
    /// Each entry's key and the place of its value, and where the container ends.
    var index: (entries: [(key: UnsafeRawBufferPointer, value: Int)], end: Int)?

    var codingPath: [any CodingKey] { [] }

    init(_ source: ByteSource) throws {
        self.source = source
        count = try source.container(.keyed)
        start = source.position
    }

    var allKeys: [Key] {
        let entries: [(key: UnsafeRawBufferPointer, value: Int)]
        do { entries = try indexed().entries } catch {
            source.failure = error as? DecodingError ?? source.damaged("\(error)")
            return []
        }
        return entries.compactMap { Key(stringValue: String(decoding: $0.key, as: UTF8.self)) }
    }

    private func indexed() throws -> (entries: [(key: UnsafeRawBufferPointer, value: Int)], end: Int) {
        if let index { return index }
        let resume = source.position
        defer { source.position = resume }
        source.position = start
        var entries: [(key: UnsafeRawBufferPointer, value: Int)] = []
        for _ in 0..<count {
            let key = try source.textBytes()
            entries.append((key, source.position))
            try source.skip()
        }
        index = (entries, source.position)
        source.indexings += 1
        source.ends[start - 5] = source.position  // the tag and the count before `start`
        return (entries, source.position)
    }

    /// Moves the source to `key`'s value; false when the container has no such key.
    private func find(_ key: Key) throws -> Bool {
        var name = key.stringValue
        if next < count, name.withUTF8({ source.skipText($0) }) {
            next += 1
            return true
        }
        let entries = try indexed().entries
        guard let i = name.withUTF8({ n in entries.firstIndex { $0.key.elementsEqual(n) } }) else { return false }
        source.position = entries[i].value
        next = i + 1
        return true
    }

    /// The value at `key`, read by `read`; the next entry is expected where it ended.
    private func value<T>(_ key: Key, _ read: () throws -> T) throws -> T {
        guard try find(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "no such key"))
        }
        return try read()
    }

    /// nil for a missing key or a null; else the value `read` reads.
    private func optional<T>(_ key: Key, _ read: () throws -> T) throws -> T? {
        guard try find(key) else { return nil }
        if source.peekTag() == .null {
            source.position += 1
            return nil
        }
        return try read()
    }

    func contains(_ key: Key) -> Bool {
        let (resumeNext, resume) = (next, source.position)
        defer { (next, source.position) = (resumeNext, resume) }
        return (try? find(key)) ?? false
    }

    /// Whether `key`'s value is null (then read); any other is left for `decode`.
    func decodeNil(forKey key: Key) throws -> Bool {
        let (resumeNext, resume) = (next, source.position)
        guard try find(key), source.peekTag() == .null else {
            (next, source.position) = (resumeNext, resume)
            return false
        }
        source.position += 1
        return true
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(key, source.bool) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(key, source.string) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(key, source.double) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try value(key, source.double)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try value(key) { try source.value(T.self) }
    }

    private func integer<I: FixedWidthInteger>(_ key: Key) throws -> I { try value(key) { try source.integer(I.self) } }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(key, source.bool) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(key, source.string) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(key, source.double) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try optional(key) { Float(try source.double()) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optionalInteger(key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optionalInteger(key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optionalInteger(key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optionalInteger(key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optionalInteger(key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optionalInteger(key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optionalInteger(key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optionalInteger(key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optionalInteger(key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optionalInteger(key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try optional(key) { try source.value(T.self) }
    }

    private func optionalInteger<I: FixedWidthInteger>(_ key: Key) throws -> I? {
        try optional(key) { try source.integer(I.self) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try value(key) { KeyedDecodingContainer(try KeyedByteSource<NestedKey>(source)) }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try value(key) { try UnkeyedByteSource(source) }
    }

    func superDecoder() throws -> any Decoder { try superDecoder(named: "super") }

    func superDecoder(forKey key: Key) throws -> any Decoder { try superDecoder(named: key.stringValue) }

    private func superDecoder(named name: String) throws -> any Decoder {
        guard let key = Key(stringValue: name), try find(key) else {
            throw DecodingError.keyNotFound(
                AnyKey(name), .init(codingPath: [], debugDescription: "no such key"))
        }
        return ByteDecoder(source: source)
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

struct UnkeyedByteSource: UnkeyedDecodingContainer {
    let source: ByteSource
    let total: Int
    var currentIndex = 0
    var codingPath: [any CodingKey] { [] }
    var count: Int? { total }
    var isAtEnd: Bool { currentIndex >= total }

    init(_ source: ByteSource) throws {
        self.source = source
        total = try source.container(.unkeyed)
    }

    /// The next element, read by `read`.
    private mutating func element<T>(_ read: () throws -> T) throws -> T {
        guard !isAtEnd else { throw source.damaged("past the end of a list of \(total)") }
        let value = try read()
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, source.peekTag() == .null else { return false }
        source.position += 1
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try element(source.bool) }
    mutating func decode(_ type: String.Type) throws -> String { try element(source.string) }
    mutating func decode(_ type: Double.Type) throws -> Double { try element(source.double) }
    mutating func decode(_ type: Float.Type) throws -> Float { Float(try element(source.double)) }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let source = source
        return try element { try source.value(T.self) }
    }

    private mutating func integer<I: FixedWidthInteger>() throws -> I {
        let source = source
        return try element { try source.integer(I.self) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let source = source
        return try element { KeyedDecodingContainer(try KeyedByteSource<NestedKey>(source)) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let source = source
        return try element { try UnkeyedByteSource(source) }
    }

    mutating func superDecoder() throws -> any Decoder {
        let source = source
        return try element { ByteDecoder(source: source) }
    }
}

struct SingleByteSource: SingleValueDecodingContainer {
    let source: ByteSource
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool {
        guard source.peekTag() == .null else { return false }
        source.position += 1
        return true
    }

    func decode(_ type: Bool.Type) throws -> Bool { try source.bool() }
    func decode(_ type: String.Type) throws -> String { try source.string() }
    func decode(_ type: Double.Type) throws -> Double { try source.double() }
    func decode(_ type: Float.Type) throws -> Float { Float(try source.double()) }
    func decode(_ type: Int.Type) throws -> Int { try source.integer(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try source.integer(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try source.integer(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try source.integer(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try source.integer(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try source.integer(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try source.integer(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try source.integer(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try source.integer(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try source.integer(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try source.value(T.self) }
}
