import Foundation

/// A 64-bit digest that is the same in every process and on every machine, unlike Swift's
/// `Hasher` (seeded anew in each process): for what one build records and a later one compares
/// (`BuildRecord`). Words are mixed by a 128-bit multiply (the folded product of wyhash), eight
/// bytes at a time, so long strings such as a note's HTML cost little.
public struct StableDigest: Sendable, Hashable {
    public private(set) var value: UInt64 = 0x243f_6a88_85a3_08d3

    public init() {}

    /// The digest of one encodable value (`DigestEncoder`).
    public static func of<T: Encodable>(_ value: T) -> UInt64 {
        var d = StableDigest()
        d.combine(value)
        return d.value
    }

    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let p = a.multipliedFullWidth(by: b)
        return p.high ^ p.low
    }

    public mutating func combine(_ word: UInt64) {
        value = Self.mix(value ^ 0xa076_1d64_78bd_642f, word ^ 0xe703_7ed1_a0b4_28db)
    }

    public mutating func combine(_ int: Int) { combine(UInt64(bitPattern: Int64(int))) }

    public mutating func combine(_ bool: Bool) { combine(bool ? 1 as UInt64 : 2) }

    /// The bytes, then their count (so that "ab" + "c" and "a" + "bc" differ).
    public mutating func combine(bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset + 8 <= bytes.count {
            combine(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        var tail: UInt64 = 0
        for (k, byte) in bytes[offset...].enumerated() { tail |= UInt64(byte) << (8 * UInt64(k)) }
        combine(tail)
        combine(bytes.count)
    }

    public mutating func combine(_ string: String) {
        var s = string
        s.withUTF8 { combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    public mutating func combine(_ data: Data) {
        data.withUnsafeBytes { combine(bytes: $0) }
    }

    /// An encodable value, through its `Encodable` conformance: every stored property of a type
    /// whose conformance is synthesized is covered, so a property added later is too.
    public mutating func combine<T: Encodable>(_ value: T) {
        let sink = DigestEncoder.Sink()
        DigestEncoder.encode(value, into: sink)
        combine(sink.digest.value)
    }
}

/// A type that feeds itself into a digest without `Encodable`'s containers: for the values
/// digested by the hundred thousand (`Value`, every dataset field), where the containers' boxes
/// cost more than the digest. Its `digest` must be an exhaustive `switch` or read every stored
/// property, so that the compiler keeps it whole.
public protocol DirectDigestible {
    func digest(into sink: DigestEncoder.Sink, depth: Int)
}

/// What is digested the same whatever order it is iterated in: a `Set`'s or a `Dictionary`'s
/// order differs between processes, so each element is digested apart and the digests summed.
protocol UnorderedDigestible {
    func digestUnordered(_ sink: DigestEncoder.Sink) -> UInt64
}

extension Set: UnorderedDigestible where Element: Encodable {
    func digestUnordered(_ sink: DigestEncoder.Sink) -> UInt64 {
        var sum: UInt64 = 0
        for element in self { sum &+= sink.apart { DigestEncoder.encode(element, into: sink) } }
        return sum &+ UInt64(count)
    }
}

extension Dictionary: UnorderedDigestible where Key: Encodable, Value: Encodable {
    func digestUnordered(_ sink: DigestEncoder.Sink) -> UInt64 {
        var sum: UInt64 = 0
        for (key, value) in self {
            sum &+= sink.apart {
                DigestEncoder.encode(key, into: sink)
                DigestEncoder.encode(value, into: sink)
            }
        }
        return sum &+ UInt64(count)
    }
}

/// An `Encoder` that feeds what a value encodes into a `StableDigest`: keys and values in the
/// order the type encodes them (a synthesized conformance's order is its declaration's), sets
/// and dictionaries in any order. Each token goes in with its depth: a tree written in preorder
/// with each node's depth is told apart from every other tree, so `[[1], 2]` and `[[1, 2]]`, or
/// a field of a nested value and one of its parent's, never digest alike.
public struct DigestEncoder: Encoder {
    public final class Sink {
        public var digest = StableDigest()

        public func token(_ tag: Tag, _ depth: Int) {
            digest.combine(tag.rawValue &+ UInt64(depth) << 32)
        }

        func key(_ key: some CodingKey, _ depth: Int) {
            token(.key, depth)
            digest.combine(key.stringValue)
        }

        /// The digest of what `body` feeds in, taken apart from the running one (which is left
        /// as it was): an element of a set or dictionary, without a sink of its own.
        func apart(_ body: () -> Void) -> UInt64 {
            let running = digest
            digest = StableDigest()
            body()
            let value = digest.value
            digest = running
            return value
        }
    }

    /// What each token is, so that values of other kinds never digest alike.
    public enum Tag: UInt64 {
        case keyed = 1, unkeyed, single, key, nilValue, unordered, value
    }

    let sink: Sink
    let depth: Int
    public var codingPath: [any CodingKey] = []
    public var userInfo: [CodingUserInfoKey: Any] { [:] }

    public static func encode<T: Encodable>(_ value: T, into sink: Sink, depth: Int = 0) {
        // The common leaves directly, as `Single` digests them (no container is made for them).
        switch value {
        case let string as String:
            sink.token(.single, depth)
            sink.token(.value, depth)
            sink.digest.combine(string)
        case let int as Int:
            sink.token(.single, depth)
            sink.token(.value, depth)
            sink.digest.combine(int)
        case let strings as [String]:
            // As the array's own encoding digests them, without a container or a cast each.
            sink.token(.unkeyed, depth)
            for string in strings {
                sink.token(.single, depth + 1)
                sink.token(.value, depth + 1)
                sink.digest.combine(string)
            }
        case let direct as any DirectDigestible:
            direct.digest(into: sink, depth: depth)
        case let unordered as any UnorderedDigestible:
            sink.token(.unordered, depth)
            sink.digest.combine(unordered.digestUnordered(sink))
        default:
            // Digesting cannot fail: every container below accepts every value.
            try? value.encode(to: DigestEncoder(sink: sink, depth: depth))
        }
    }

    public func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        sink.token(.keyed, depth)
        return KeyedEncodingContainer(Keyed<Key>(sink: sink, depth: depth + 1))
    }

    public func unkeyedContainer() -> any UnkeyedEncodingContainer {
        sink.token(.unkeyed, depth)
        return Unkeyed(sink: sink, depth: depth + 1)
    }

    public func singleValueContainer() -> any SingleValueEncodingContainer {
        sink.token(.single, depth)
        return Single(sink: sink, depth: depth)
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let sink: Sink
        let depth: Int
        var codingPath: [any CodingKey] = []

        mutating func encodeNil(forKey key: Key) {
            sink.key(key, depth)
            sink.token(.nilValue, depth + 1)
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {
            sink.key(key, depth)
            DigestEncoder.encode(value, into: sink, depth: depth + 1)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            sink.key(key, depth)
            return DigestEncoder(sink: sink, depth: depth + 1).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            sink.key(key, depth)
            return DigestEncoder(sink: sink, depth: depth + 1).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { DigestEncoder(sink: sink, depth: depth + 1) }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            sink.key(key, depth)
            return DigestEncoder(sink: sink, depth: depth + 1)
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let sink: Sink
        let depth: Int
        var codingPath: [any CodingKey] = []
        var count = 0

        mutating func encodeNil() {
            count += 1
            sink.token(.nilValue, depth)
        }

        mutating func encode<T: Encodable>(_ value: T) {
            count += 1
            DigestEncoder.encode(value, into: sink, depth: depth)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            count += 1
            return DigestEncoder(sink: sink, depth: depth).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            count += 1
            return DigestEncoder(sink: sink, depth: depth).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { DigestEncoder(sink: sink, depth: depth) }
    }

    /// Primitive values: each as its bytes or its bit pattern, after its token.
    struct Single: SingleValueEncodingContainer {
        let sink: Sink
        let depth: Int
        var codingPath: [any CodingKey] = []

        private func value(_ word: UInt64) {
            sink.token(.value, depth)
            sink.digest.combine(word)
        }

        mutating func encodeNil() { sink.token(.nilValue, depth) }
        mutating func encode(_ value: Bool) { self.value(value ? 1 : 2) }
        mutating func encode(_ value: String) {
            sink.token(.value, depth)
            sink.digest.combine(value)
        }
        mutating func encode(_ value: Double) { self.value(value.bitPattern) }
        mutating func encode(_ value: Float) { self.value(Double(value).bitPattern) }
        mutating func encode(_ value: Int) { self.value(UInt64(bitPattern: Int64(value))) }
        mutating func encode(_ value: Int8) { self.value(UInt64(bitPattern: Int64(value))) }
        mutating func encode(_ value: Int16) { self.value(UInt64(bitPattern: Int64(value))) }
        mutating func encode(_ value: Int32) { self.value(UInt64(bitPattern: Int64(value))) }
        mutating func encode(_ value: Int64) { self.value(UInt64(bitPattern: value)) }
        mutating func encode(_ value: UInt) { self.value(UInt64(value)) }
        mutating func encode(_ value: UInt8) { self.value(UInt64(value)) }
        mutating func encode(_ value: UInt16) { self.value(UInt64(value)) }
        mutating func encode(_ value: UInt32) { self.value(UInt64(value)) }
        mutating func encode(_ value: UInt64) { self.value(value) }
        mutating func encode<T: Encodable>(_ value: T) { DigestEncoder.encode(value, into: sink, depth: depth) }
    }
}
