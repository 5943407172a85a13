import Foundation
import SiteCore

/// A parser for binary property lists (`bplist00`), hardened against hostile input: every offset,
/// size and count is checked against the file before use, arithmetic on input values cannot trap,
/// reference cycles and excessive nesting are errors, and containers are walked with an explicit
/// stack. Objects reached more than once (writers share equal objects) are decoded once.
struct BinaryPlistParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    let offsetSize: Int
    let refSize: Int
    let objectCount: Int
    let topObject: Int
    /// Start of the offset table, which is also the end of the object area `8..<tableOffset`.
    let tableOffset: Int

    struct Frame {
        var object: Int
        var isDict: Bool
        var count: Int
        /// Offset of the first object reference (for dicts: of the keys; values follow them).
        var refsStart: Int
        var next = 0
        var array: [Value] = []
        var dict: [String: Value] = [:]
        var key = ""
        /// Nesting height of the deepest finished child (0 if none are containers).
        var childHeight = 0
        /// Values in the finished children once shared objects are expanded.
        var childSize = 0
    }
    var stack: [Frame] = []
    /// Per object: `unseen`, `open` (its container is on the stack, so reaching it again is a
    /// cycle), or `cacheBase + i` for `cache[i]`. An array rather than a dictionary because lookups
    /// dominate; it costs 4 bytes per declared object, and the trailer checks bound the object
    /// count by the file size.
    var slots: [UInt32]
    static let unseen: UInt32 = 0
    static let open: UInt32 = 1
    static let cacheBase: UInt32 = 2
    /// Decoded strings and containers with their nesting height and expanded size.
    var cache: [(value: Value, height: Int, size: Int)] = []
    /// Most values the file may stand for once shared objects are expanded. Sharing lets a few
    /// hundred bytes stand for billions of values (each container listing the previous one ten
    /// times), which everything after parsing would walk; writers share little beyond equal
    /// strings and numbers, so a generous multiple of the file size is never reached otherwise.
    var maximumSize: Int { max(1_000_000, 16 * bytes.count) }

    init(bytes: UnsafeBufferPointer<UInt8>, file: String) throws(Diagnostic) {
        self.bytes = bytes
        self.file = file
        func fail(_ path: String, _ message: String) -> Diagnostic {
            // The trailer is the file's last 32 bytes: nonsense there usually means a cut-off copy.
            Diagnostic(
                file: file, path: path, path == "trailer" ? message + " (is the file truncated or damaged?)" : message)
        }

        guard ByteText.matches(bytes, at: 0, "bplist00") else {
            let version = bytes.count >= 8 ? ByteText.string(bytes, 6..<8).debugDescription : "missing"
            throw fail("header", "unsupported binary property list version \(version), expected bplist00")
        }
        // Header, at least one one-byte object, a one-byte offset table and the trailer.
        guard bytes.count >= 8 + 1 + 1 + 32 else {
            throw fail("trailer", "file is too short for a binary property list (\(bytes.count) bytes)")
        }
        let t = bytes.count - 32
        offsetSize = Int(bytes[t + 6])
        refSize = Int(bytes[t + 7])
        guard (1...8).contains(offsetSize) else {
            throw fail("trailer", "offset size is \(offsetSize), expected 1 to 8")
        }
        guard (1...8).contains(refSize) else {
            throw fail("trailer", "object reference size is \(refSize), expected 1 to 8")
        }
        let rawCount = Self.bigEndian(bytes, at: t + 8, size: 8)
        let rawTop = Self.bigEndian(bytes, at: t + 16, size: 8)
        let rawTable = Self.bigEndian(bytes, at: t + 24, size: 8)
        guard rawCount >= 1 else { throw fail("trailer", "object count is 0") }
        guard rawTop < rawCount else {
            throw fail("trailer", "top object \(rawTop) is not below the object count \(rawCount)")
        }
        guard rawTable >= 9, rawTable < UInt64(t) else {
            throw fail(
                "trailer",
                "offset table starts at byte \(rawTable), outside the area between the header and the trailer "
                    + "(bytes 9 to \(t - 1))"
            )
        }
        tableOffset = Int(rawTable)
        // Compare by division: count × size could overflow.
        guard rawCount <= UInt64((t - tableOffset) / offsetSize) else {
            throw fail(
                "trailer",
                "offset table of \(rawCount) entries of \(offsetSize) bytes at byte \(tableOffset) runs past the "
                    + "trailer"
            )
        }
        objectCount = Int(rawCount)
        topObject = Int(rawTop)
        slots = Array(repeating: Self.unseen, count: objectCount)
    }

    @inline(__always)
    static func bigEndian(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in offset..<(offset + size) { value = value << 8 | UInt64(bytes[i]) }
        return value
    }

    // MARK: Errors

    /// The object path of the innermost open container's current child (or of the container itself).
    func path(includingChild: Bool = true) -> String {
        var components: [PathComponent] = []
        for (i, frame) in stack.enumerated() where includingChild || i < stack.count - 1 {
            components.append(frame.isDict ? .key(frame.key) : .index(frame.next))
        }
        // A path hundreds of levels long says less than its ends and its length.
        if components.count > 12 {
            return
                "\(Array(components.prefix(4)).dotted)…(\(components.count - 8) more "
                + "levels)…\(Array(components.suffix(4)).dotted)"
        }
        let dotted = components.dotted
        return dotted.isEmpty ? "top object" : dotted
    }

    func error(_ message: String, includingChild: Bool = true) -> Diagnostic {
        Diagnostic(file: file, path: path(includingChild: includingChild), message)
    }

    // MARK: Objects

    mutating func parse() throws(Diagnostic) -> Value {
        var finished = try begin(topObject)
        while true {
            if let (value, height, size) = finished {
                guard let top = stack.indices.last else { return value }
                if stack[top].isDict {
                    let key = stack[top].key
                    stack[top].dict[key] = value
                } else {
                    stack[top].array.append(value)
                }
                stack[top].childHeight = max(stack[top].childHeight, height)
                stack[top].childSize += size
                if stack[top].childSize >= maximumSize {
                    throw error(
                        "shared objects expand the property list to more than \(maximumSize) values",
                        includingChild: false)
                }
                stack[top].next += 1
            }
            let top = stack.count - 1
            let (next, count, isDict, refsStart) = (
                stack[top].next, stack[top].count, stack[top].isDict, stack[top].refsStart
            )
            if next == count {
                let frame = stack.removeLast()
                let value: Value = isDict ? .dictionary(frame.dict) : .array(frame.array)
                let height = frame.childHeight + 1
                remember(frame.object, value, height: height, size: frame.childSize + 1)
                finished = (value, height, frame.childSize + 1)
                continue
            }
            if isDict {
                let keyRef = try reference(at: refsStart + next * refSize, includingChild: false)
                guard let key = try string(keyRef) else {
                    throw error("key \(next) is \(try typeName(keyRef)), expected a string", includingChild: false)
                }
                if stack[top].dict[key] != nil {
                    throw error("duplicate key '\(key)'", includingChild: false)
                }
                stack[top].key = key
            }
            let valueStart = isDict ? refsStart + count * refSize : refsStart
            finished = try begin(try reference(at: valueStart + next * refSize))
        }
    }

    /// The object number stored at `offset` in a container's reference list.
    func reference(at offset: Int, includingChild: Bool = true) throws(Diagnostic) -> Int {
        let ref = Self.bigEndian(bytes, at: offset, size: refSize)
        guard ref < UInt64(objectCount) else {
            throw error(
                "reference to object \(ref), but there are only \(objectCount) objects", includingChild: includingChild)
        }
        return Int(ref)
    }

    /// Where object `object` starts, checked to lie in the object area.
    func offset(of object: Int, includingChild: Bool = true) throws(Diagnostic) -> Int {
        let raw = Self.bigEndian(bytes, at: tableOffset + object * offsetSize, size: offsetSize)
        guard raw >= 8, raw < UInt64(tableOffset) else {
            throw error(
                "object \(object) starts at byte \(raw), outside the object area (bytes 8 to \(tableOffset - 1))",
                includingChild: includingChild)
        }
        return Int(raw)
    }

    /// Bytes left in the object area from `offset`.
    @inline(__always)
    func remaining(from offset: Int) -> Int { tableOffset - offset }

    /// Decodes a leaf object (or a cached or empty container) and returns it with its nesting height
    /// and expanded size,
    /// or opens a container on the stack and returns nil.
    mutating func begin(_ object: Int) throws(Diagnostic) -> (Value, Int, Int)? {
        switch slots[object] {
        case Self.unseen:
            break
        case Self.open:
            throw error("object \(object) contains itself (reference cycle)")
        case let slot:
            let cached = cache[Int(slot - Self.cacheBase)]
            if stack.count + cached.height > maximumNestingDepth { throw depthError() }
            return cached
        }
        let start = try offset(of: object)
        let marker = bytes[start]
        let info = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00, 0x0F: return (.null, 0, 1)
            case 0x08: return (.bool(false), 0, 1)
            case 0x09: return (.bool(true), 0, 1)
            default: throw error("unknown object type \(ByteText.hexByte(marker))")
            }
        case 0x1:
            return (.int(try integer(at: start)), 0, 1)
        case 0x2:
            let size = info == 2 ? 4 : info == 3 ? 8 : 0
            guard size > 0 else { throw error("real of \(1 << min(info, 15)) bytes, expected 4 or 8") }
            guard remaining(from: start + 1) >= size else { throw error("real runs past the object area") }
            let bits = Self.bigEndian(bytes, at: start + 1, size: size)
            let value =
                size == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) : Double(bitPattern: bits)
            return (.double(value), 0, 1)
        case 0x3:
            guard marker == 0x33 else { throw error("unknown object type \(ByteText.hexByte(marker))") }
            guard remaining(from: start + 1) >= 8 else { throw error("date runs past the object area") }
            let seconds = Double(bitPattern: Self.bigEndian(bytes, at: start + 1, size: 8))
            guard seconds.isFinite else { throw error("date is not a finite number of seconds") }
            // Years 0 to 9999, as XML plists and every other date sitegen reads are written.
            guard (-63_145_526_400..<252_423_993_600).contains(seconds) else {
                throw error("date \(seconds) s from 2001 is outside the years 0 to 9999")
            }
            return (.date(Date(timeIntervalSinceReferenceDate: seconds)), 0, 1)
        case 0x4:
            let (count, dataStart) = try length(at: start, unit: 1, what: "data")
            let base64 = Data(UnsafeBufferPointer(rebasing: bytes[dataStart..<(dataStart + count)]))
                .base64EncodedString()
            return (.string(base64), 0, 1)
        case 0x5, 0x6:
            guard let s = try string(object, at: start) else { throw error("expected a string object") }
            return (.string(s), 0, 1)
        case 0x8:
            throw error("UID objects (from NSKeyedArchiver) are not supported")
        case 0xA, 0xC, 0xD:
            let isDict = marker >> 4 == 0xD
            let what = isDict ? "dictionary" : marker >> 4 == 0xA ? "array" : "set"
            let (count, refsStart) = try length(at: start, unit: isDict ? 2 * refSize : refSize, what: what)
            if stack.count >= maximumNestingDepth { throw depthError() }
            if count == 0 { return (isDict ? .dictionary([:]) : .array([]), 1, 1) }
            var frame = Frame(object: object, isDict: isDict, count: count, refsStart: refsStart)
            if isDict { frame.dict.reserveCapacity(count) } else { frame.array.reserveCapacity(count) }
            stack.append(frame)
            slots[object] = Self.open
            return nil
        default:
            throw error("unknown object type \(ByteText.hexByte(marker))")
        }
    }

    func depthError() -> Diagnostic {
        error("arrays and dictionaries are nested more than \(maximumNestingDepth) deep")
    }

    /// An integer object (marker 0x1n) at `start`. 1-, 2- and 4-byte integers are unsigned,
    /// 8- and 16-byte ones two's complement; 16-byte values must fit in 64 bits.
    func integer(at start: Int, includingChild: Bool = true) throws(Diagnostic) -> Int64 {
        let marker = bytes[start]
        guard marker >> 4 == 0x1, marker & 0x0F <= 4 else {
            throw error(
                "integer of marker \(ByteText.hexByte(marker)), expected 1, 2, 4, 8 or 16 bytes",
                includingChild: includingChild)
        }
        let size = 1 << Int(marker & 0x0F)
        guard remaining(from: start + 1) >= size else {
            throw error("integer runs past the object area", includingChild: includingChild)
        }
        switch size {
        case 16:
            let high = Self.bigEndian(bytes, at: start + 1, size: 8)
            let low = Self.bigEndian(bytes, at: start + 9, size: 8)
            let negative = low >> 63 == 1
            guard high == (negative ? UInt64.max : 0) else {
                throw error("128-bit integer does not fit in 64 bits", includingChild: includingChild)
            }
            return Int64(bitPattern: low)
        case 8:
            return Int64(bitPattern: Self.bigEndian(bytes, at: start + 1, size: 8))
        default:
            return Int64(Self.bigEndian(bytes, at: start + 1, size: size))
        }
    }

    /// The element count of the variable-length object at `start` and where its contents begin,
    /// checked so that `count × unit` bytes fit in the object area.
    func length(at start: Int, unit: Int, what: String, includingChild: Bool = true) throws(Diagnostic) -> (
        count: Int, contents: Int
    ) {
        let info = Int(bytes[start] & 0x0F)
        var count = info
        var contents = start + 1
        if info == 0x0F {
            guard contents < tableOffset else {
                throw error("\(what) length runs past the object area", includingChild: includingChild)
            }
            let size = try integer(at: contents, includingChild: includingChild)
            guard size >= 0, let fits = Int(exactly: size) else {
                throw error("\(what) has negative length \(size)", includingChild: includingChild)
            }
            count = fits
            contents += 1 + (1 << Int(bytes[contents] & 0x0F))
        }
        guard contents <= tableOffset, count <= remaining(from: contents) / unit else {
            throw error(
                "\(what) of \(count) elements does not fit in the \(max(0, remaining(from: contents))) bytes "
                    + "left in the object area",
                includingChild: includingChild)
        }
        return (count, contents)
    }

    /// The string object `object`, or nil if it is not a string.
    mutating func string(_ object: Int) throws(Diagnostic) -> String? {
        let slot = slots[object]
        if slot >= Self.cacheBase { return cache[Int(slot - Self.cacheBase)].value.stringValue }
        let start = try offset(of: object, includingChild: false)
        return try string(object, at: start, includingChild: false)
    }

    /// Decodes the ASCII (0x5n) or UTF-16BE (0x6n) string object at `start`; nil for other types.
    mutating func string(_ object: Int, at start: Int, includingChild: Bool = true) throws(Diagnostic) -> String? {
        let kind = bytes[start] >> 4
        let result: String
        if kind == 0x5 {
            let (count, contents) = try length(at: start, unit: 1, what: "string", includingChild: includingChild)
            for i in contents..<(contents + count) where bytes[i] >= 0x80 {
                throw error("ASCII string holds byte \(ByteText.hexByte(bytes[i]))", includingChild: includingChild)
            }
            result = ByteText.string(bytes, contents..<(contents + count))
        } else if kind == 0x6 {
            let (count, contents) = try length(at: start, unit: 2, what: "string", includingChild: includingChild)
            var utf8: [UInt8] = []
            utf8.reserveCapacity(count)
            var i = 0
            while i < count {
                let unit = UInt32(Self.bigEndian(bytes, at: contents + 2 * i, size: 2))
                i += 1
                switch unit {
                case 0xD800...0xDBFF:
                    let low = i < count ? UInt32(Self.bigEndian(bytes, at: contents + 2 * i, size: 2)) : 0
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw error(
                            "UTF-16 string has a lone surrogate \(ByteText.scalarName(unit))",
                            includingChild: includingChild)
                    }
                    i += 1
                    ByteText.appendUTF8(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), to: &utf8)
                case 0xDC00...0xDFFF:
                    throw error(
                        "UTF-16 string has a lone surrogate \(ByteText.scalarName(unit))",
                        includingChild: includingChild)
                default:
                    ByteText.appendUTF8(unit, to: &utf8)
                }
            }
            result = String(decoding: utf8, as: UTF8.self)
        } else {
            return nil
        }
        remember(object, .string(result), height: 0, size: 1)
        return result
    }

    mutating func remember(_ object: Int, _ value: Value, height: Int, size: Int) {
        // The cache cannot outgrow the object count, which the trailer checks keep below 2^32 - 2
        // for any file under 4 GiB; past that, objects are simply decoded again.
        guard cache.count < Int(UInt32.max - Self.cacheBase) else {
            slots[object] = Self.unseen
            return
        }
        slots[object] = Self.cacheBase + UInt32(cache.count)
        cache.append((value, height, size))
    }

    /// A phrase naming the type of object `object`, for messages.
    func typeName(_ object: Int) throws(Diagnostic) -> String {
        let marker = bytes[try offset(of: object, includingChild: false)]
        switch marker >> 4 {
        case 0x0: return marker == 0x08 || marker == 0x09 ? "a boolean" : "null"
        case 0x1: return "an integer"
        case 0x2: return "a real"
        case 0x3: return "a date"
        case 0x4: return "data"
        case 0x8: return "a UID"
        case 0xA: return "an array"
        case 0xC: return "a set"
        case 0xD: return "a dictionary"
        default: return "an object of unknown type \(ByteText.hexByte(marker))"
        }
    }
}
