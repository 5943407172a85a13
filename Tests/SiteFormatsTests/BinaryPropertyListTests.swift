import Foundation
import SiteCore
import Testing
@testable import SiteFormats

private func binary(_ object: Any) throws -> Data {
    try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
}

private func read(_ data: Data) throws -> Value {
    try PropertyListReader.read(data, file: "t.plist")
}

private func expectError(
    _ data: Data, path: String, _ message: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    // Trailer errors add a hint that the file may be cut off.
    let full = path == "trailer" ? message + " (is the file truncated or damaged?)" : message
    #expect(plistFailure(data) == Diagnostic(file: "t.plist", path: path, full), sourceLocation: sourceLocation)
}

@Suite struct BinaryPropertyListValidTests {
    @Test func roundTripsEveryTypeWrittenByFoundation() throws {
        let date = Date(timeIntervalSinceReferenceDate: 730_000_000.5)
        let data = try binary(
            [
                "title": "파묘",
                "ascii": "Exhuma",
                "rank": 1,
                "share": 12.5,
                "open": true,
                "closed": false,
                "released": date,
                "poster": Data([1, 2, 3, 4]),
                "tags": ["horror", 3, ["nested": "yes"]] as [Any],
                "empty": [String: Any](),
                "none": [Any]()
            ] as [String: Any])
        #expect(
            try read(data)
                == .dictionary([
                    "title": .string("파묘"),
                    "ascii": .string("Exhuma"),
                    "rank": .int(1),
                    "share": .double(12.5),
                    "open": .bool(true),
                    "closed": .bool(false),
                    "released": .date(date),
                    "poster": .string("AQIDBA=="),
                    "tags": .array([.string("horror"), .int(3), .dictionary(["nested": .string("yes")])]),
                    "empty": .dictionary([:]),
                    "none": .array([])
                ]))
    }

    @Test func sixtyFourBitIntegers() throws {
        let numbers: [Int64] = [
            .max, .min, -1, 1 << 40, 9_007_199_254_740_993, 255, 256, 65_535, 65_536, 4_294_967_295, 4_294_967_296, 0
        ]
        let data = try binary(numbers.map { NSNumber(value: $0) })
        #expect(try read(data) == .array(numbers.map(Value.int)))
    }

    /// Dates outside the years 0 to 9999 are errors (a far date once trapped the build's day
    /// arithmetic); the years' own ends are read.
    @Test func datesOutsideTheYears0To9999AreErrors() throws {
        let first = Date(timeIntervalSinceReferenceDate: -63_145_526_400)
        let last = Date(timeIntervalSinceReferenceDate: 252_423_993_599)
        #expect(try read(binary(["d": [first, last]])) == .dictionary(["d": .array([.date(first), .date(last)])]))
        for seconds in [252_423_993_600, -63_145_526_401, 1e300, -1e300] {
            expectError(
                try binary(["when": Date(timeIntervalSinceReferenceDate: seconds)]), path: "when",
                "date \(seconds) s from 2001 is outside the years 0 to 9999")
        }
    }

    @Test func unsignedBeyondInt64IsAnError() throws {
        let data = try binary(["big": NSNumber(value: UInt64.max)])
        expectError(data, path: "big", "128-bit integer does not fit in 64 bits")
    }

    @Test func sixteenByteIntegerThatFits() throws {
        var builder = BinaryPlistBuilder()
        builder.add([0x14] + Array(repeating: 0xFF, count: 15) + [0xFE])
        #expect(try read(builder.data) == .int(-2))
    }

    @Test func longStringsAndArrays() throws {
        let long = String(repeating: "가나다", count: 100)
        let strings = (0..<300).map { "item \($0)" }
        let data = try binary(["long": long, "list": strings] as [String: Any])
        #expect(try read(data) == .dictionary(["long": .string(long), "list": .array(strings.map(Value.string))]))
    }

    @Test func emojiInUTF16() throws {
        #expect(try read(try binary(["😀 ok"])) == .array([.string("😀 ok")]))
    }

    @Test func setsBecomeArrays() throws {
        var builder = BinaryPlistBuilder()
        builder.add(builder.array([1, 2], marker: 0xC0))
        builder.add([0x10, 7])
        builder.add(BinaryPlistBuilder.ascii("x"))
        #expect(try read(builder.data) == .array([.int(7), .string("x")]))
    }

    @Test func nullFillAndFloat32() throws {
        var builder = BinaryPlistBuilder()
        builder.add(builder.array([1, 2, 3]))
        builder.add([0x00])
        builder.add([0x0F])
        builder.add([0x22] + BinaryPlistBuilder.bigEndian(Int(Float(1.5).bitPattern), 4))
        #expect(try read(builder.data) == .array([.null, .null, .double(1.5)]))
    }

    @Test func sharedObjectsAreDecodedForEveryReference() throws {
        var builder = BinaryPlistBuilder()
        builder.add(builder.array([1, 1]))
        builder.add(builder.array([2]))
        builder.add(BinaryPlistBuilder.ascii("x"))
        #expect(try read(builder.data) == .array([.array([.string("x")]), .array([.string("x")])]))
    }

    @Test func nestingUpToTheLimitIsAccepted() throws {
        var builder = BinaryPlistBuilder()
        builder.refSize = 2
        builder.offsetSize = 2
        for i in 0..<(maximumNestingDepth - 1) { builder.add([0xA1] + builder.ref(i + 1)) }
        builder.add([0xA0])
        #expect(nestingLevels(try read(builder.data)) == maximumNestingDepth)
    }
}

@Suite struct BinaryPropertyListErrorTests {
    @Test func selfReferencingArray() {
        var builder = BinaryPlistBuilder()
        builder.add(builder.array([0]))
        expectError(builder.data, path: "[0]", "object 0 contains itself (reference cycle)")
    }

    @Test func indirectCycle() {
        var builder = BinaryPlistBuilder()
        builder.add(builder.array([1]))
        builder.add(builder.dict([2], [0]))
        builder.add(BinaryPlistBuilder.ascii("k"))
        expectError(builder.data, path: "[0].k", "object 0 contains itself (reference cycle)")
    }

    @Test func dictionaryUsedAsItsOwnKey() {
        var builder = BinaryPlistBuilder()
        builder.add(builder.dict([0], [0]))
        expectError(builder.data, path: "top object", "key 0 is a dictionary, expected a string")
    }

    @Test func errorsNameTheObjectPath() {
        var builder = BinaryPlistBuilder()
        builder.add(builder.array([1, 2, 1, 3]))
        builder.add(BinaryPlistBuilder.ascii("a"))
        builder.add(builder.dict([4], [1]))
        builder.add(builder.dict([4], [5]))
        builder.add(BinaryPlistBuilder.ascii("Caption"))
        builder.add([0x21, 0, 0])
        expectError(builder.data, path: "[3].Caption", "real of 2 bytes, expected 4 or 8")
    }

    @Test func nonStringKey() {
        var builder = BinaryPlistBuilder()
        builder.add(builder.dict([1], [1]))
        builder.add([0x10, 1])
        expectError(builder.data, path: "top object", "key 0 is an integer, expected a string")
    }

    @Test func duplicateKey() {
        var builder = BinaryPlistBuilder()
        builder.add(builder.dict([1, 2], [3, 3]))
        builder.add(BinaryPlistBuilder.ascii("a"))
        builder.add(BinaryPlistBuilder.ascii("a"))
        builder.add([0x09])
        expectError(builder.data, path: "top object", "duplicate key 'a'")
    }

    @Test func uidIsRejected() {
        var builder = BinaryPlistBuilder()
        builder.add(builder.array([1]))
        builder.add([0x80, 0x01])
        expectError(builder.data, path: "[0]", "UID objects (from NSKeyedArchiver) are not supported")
    }

    @Test func unknownMarker() {
        var builder = BinaryPlistBuilder()
        builder.add([0x70])
        expectError(builder.data, path: "top object", "unknown object type 0x70")
    }

    @Test func nonASCIIByteInASCIIString() {
        var builder = BinaryPlistBuilder()
        builder.add([0x52, 0x61, 0xE9])
        expectError(builder.data, path: "top object", "ASCII string holds byte 0xE9")
    }

    @Test func loneSurrogateInUTF16String() {
        var builder = BinaryPlistBuilder()
        builder.add([0x62, 0xD8, 0x3D, 0x00, 0x41])
        expectError(builder.data, path: "top object", "UTF-16 string has a lone surrogate U+D83D")
    }

    @Test func referenceOutOfRange() {
        var builder = BinaryPlistBuilder()
        builder.add(builder.array([5]))
        builder.add([0x09])
        expectError(builder.data, path: "[0]", "reference to object 5, but there are only 2 objects")
    }

    @Test func offsetOutOfRange() {
        var builder = BinaryPlistBuilder()
        builder.add(builder.array([1]))
        builder.add([0x09])
        var (bytes, tableOffset, _) = builder.build()
        bytes[tableOffset + 1] = 0xF0
        expectError(Data(bytes), path: "[0]", "object 1 starts at byte 240, outside the object area (bytes 8 to 10)")
        bytes[tableOffset + 1] = 0x02
        expectError(Data(bytes), path: "[0]", "object 1 starts at byte 2, outside the object area (bytes 8 to 10)")
    }

    @Test func countLargerThanTheFile() {
        var builder = BinaryPlistBuilder()
        builder.add([0xAF, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        expectError(
            builder.data, path: "top object",
            "array of 9223372036854775807 elements does not fit in the 0 bytes left in the object area")
    }

    /// A UTF-16 string's length counts 2-byte units: 3 of them need 6 bytes, so 5 left is an
    /// error, never a read into the offset table; exactly 6 left is a string.
    @Test func utf16LengthCountsTwoBytesPerUnit() throws {
        var short = BinaryPlistBuilder()
        short.add([0x63, 0x00, 0x41, 0x00, 0x42, 0x00])
        expectError(
            short.data, path: "top object", "string of 3 elements does not fit in the 5 bytes left in the object area")
        var exact = BinaryPlistBuilder()
        exact.add([0x63, 0x00, 0x41, 0x00, 0x42, 0xD5, 0x5C])
        #expect(try read(exact.data) == .string("AB한"))
    }

    /// Arrays and dictionaries count references of `refSize` bytes (two per dictionary entry).
    @Test func containerLengthsCountTheirReferenceSize() throws {
        // The container is the last object, so nothing but its own bytes is left after its marker.
        var array = BinaryPlistBuilder()
        array.refSize = 2
        array.add([0x10, 0x07])
        array.top = array.add([0xA2, 0x00, 0x00, 0x00])
        expectError(
            array.data, path: "top object", "array of 2 elements does not fit in the 3 bytes left in the object area")
        array.objects[1] = [0xA2, 0x00, 0x00, 0x00, 0x00]
        #expect(try read(array.data) == .array([.int(7), .int(7)]))
        var dict = BinaryPlistBuilder()
        dict.add(BinaryPlistBuilder.ascii("k"))
        dict.add([0x10, 0x07])
        dict.top = dict.add([0xD2, 0x00, 0x00, 0x01])
        expectError(
            dict.data, path: "top object",
            "dictionary of 2 elements does not fit in the 3 bytes left in the object area")
        dict.objects[2] = [0xD1, 0x00, 0x01]
        #expect(try read(dict.data) == .dictionary(["k": .int(7)]))
    }

    @Test func negativeCount() {
        var builder = BinaryPlistBuilder()
        builder.add([0x5F, 0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        expectError(builder.data, path: "top object", "string has negative length -1")
    }

    @Test func dataCountPastEnd() {
        var builder = BinaryPlistBuilder()
        builder.add([0x4F, 0x10, 0x20, 1, 2, 3])
        expectError(
            builder.data, path: "top object", "data of 32 elements does not fit in the 3 bytes left in the object area")
    }

    @Test func integerPastEnd() {
        var builder = BinaryPlistBuilder()
        builder.add([0x13, 1, 2])
        expectError(builder.data, path: "top object", "integer runs past the object area")
    }

    @Test func badTrailerSizes() {
        var builder = BinaryPlistBuilder()
        builder.add(builder.array([1]))
        builder.add([0x09])
        let (good, _, trailer) = builder.build()
        func mutated(_ change: (inout [UInt8]) -> Void) -> Data {
            var bytes = good
            change(&bytes)
            return Data(bytes)
        }
        expectError(mutated { $0[trailer + 6] = 0 }, path: "trailer", "offset size is 0, expected 1 to 8")
        expectError(mutated { $0[trailer + 6] = 9 }, path: "trailer", "offset size is 9, expected 1 to 8")
        expectError(mutated { $0[trailer + 7] = 0 }, path: "trailer", "object reference size is 0, expected 1 to 8")
        expectError(mutated { $0[trailer + 7] = 200 }, path: "trailer", "object reference size is 200, expected 1 to 8")
        expectError(mutated { $0[trailer + 15] = 0 }, path: "trailer", "object count is 0")
        expectError(mutated { $0[trailer + 23] = 2 }, path: "trailer", "top object 2 is not below the object count 2")
        expectError(
            mutated { for i in 8..<16 { $0[trailer + i] = 0xFF } }, path: "trailer",
            "offset table of 18446744073709551615 entries of 1 bytes at byte 11 runs past the trailer")
        expectError(
            mutated { for i in 24..<32 { $0[trailer + i] = 0xFF } }, path: "trailer",
            "offset table starts at byte 18446744073709551615, outside the area between the header and the trailer (bytes 9 to 12)"
        )
        expectError(
            mutated { $0[trailer + 31] = 3 }, path: "trailer",
            "offset table starts at byte 3, outside the area between the header and the trailer (bytes 9 to 12)")
    }

    @Test func tooShort() {
        expectError(Data("bplist00".utf8), path: "trailer", "file is too short for a binary property list (8 bytes)")
    }

    @Test func unsupportedVersion() {
        expectError(
            Data("bplist15".utf8 + [UInt8](repeating: 0, count: 40)), path: "header",
            #"unsupported binary property list version "15", expected bplist00"#)
    }

    @Test func truncatedFilesFailCleanly() throws {
        let data = try binary(
            ["a": [1, 2.5, "x", Date(timeIntervalSinceReferenceDate: 0)], "b": Data([9])] as [String: Any])
        for length in 0..<data.count {
            let diagnostic = plistFailure(data.prefix(length))
            #expect(diagnostic != nil, "prefix of \(length) bytes")
        }
        #expect(plistFailure(data) == nil)
    }

    @Test func mutatedFilesNeverCrash() throws {
        let data = try binary(
            [
                "list": [1, -5, 1 << 40, 2.5, "ascii", "한글", true, Data([1, 2, 3])] as [Any],
                "nested": ["deeper": ["x": Date(timeIntervalSinceReferenceDate: 10)]]
            ] as [String: Any])
        let original = [UInt8](data)
        let replacements: [UInt8] = [
            0x00, 0x01, 0x08, 0x0F, 0x10, 0x13, 0x14, 0x23, 0x33, 0x4F, 0x5F, 0x6F, 0x7F, 0x80, 0xA1, 0xAF, 0xD1, 0xDF,
            0xFF
        ]
        var failures = 0
        for index in original.indices {
            for replacement in replacements + [original[index] ^ 0x01] {
                var bytes = original
                bytes[index] = replacement
                if let diagnostic = plistFailure(Data(bytes)) {
                    failures += 1
                    #expect(diagnostic.location.line == nil || !bytes.starts(with: Array("bplist00".utf8)))
                }
            }
        }
        #expect(failures > 0)
    }

    @Test func deepArraysAreAnErrorNotACrash() {
        var builder = BinaryPlistBuilder()
        builder.refSize = 2
        builder.offsetSize = 4
        for i in 0..<9_999 { builder.add([0xA1] + builder.ref(i + 1)) }
        builder.add([0xA0])
        let diagnostic = plistFailure(builder.data)
        #expect(diagnostic?.message == "arrays and dictionaries are nested more than 512 deep")
        #expect(diagnostic?.location.path == "[0][0][0][0]…(504 more levels)…[0][0][0][0]")
    }

    @Test func sharedSubtreeDeeperThanTheLimitWhereReusedIsAnError() {
        // Top is [S, C]: S nests 400 arrays, C nests 200 arrays around S, so S's second use is 601 deep.
        var builder = BinaryPlistBuilder()
        builder.refSize = 2
        builder.offsetSize = 2
        let shared = 1
        let chain = shared + 400
        builder.add(builder.array([shared, chain]))
        for i in 0..<399 { builder.add([0xA1] + builder.ref(shared + i + 1)) }
        builder.add([0xA0])
        for i in 0..<199 { builder.add([0xA1] + builder.ref(chain + i + 1)) }
        builder.add([0xA1] + builder.ref(shared))
        #expect(builder.objects.count == chain + 200)
        #expect(plistFailure(builder.data)?.message == "arrays and dictionaries are nested more than 512 deep")
    }

    /// A "billion laughs" property list: each of 12 arrays lists the next one 10 times, so about
    /// 250 bytes stand for 10^12 strings. An error, found before anything walks the value.
    @Test func sharingThatExpandsBeyondTheLimitIsAnError() {
        var builder = BinaryPlistBuilder()
        for level in 0..<12 { builder.add(builder.array(Array(repeating: level + 1, count: 10))) }
        builder.add(BinaryPlistBuilder.ascii("lol"))
        let diagnostic = plistFailure(builder.data)
        #expect(
            diagnostic?.message == "shared objects expand the property list to more than 1000000 values",
            "\(String(describing: diagnostic))")
    }

    /// The limit exactly: 9 × 111,111 = 999,999 values under the top array pass; one more value
    /// is past 1,000,000 (the top array included) and is an error.
    @Test func expansionLimitIsExact() throws {
        var builder = BinaryPlistBuilder()
        let leaf = builder.add(BinaryPlistBuilder.ascii("lol"))
        var level = leaf
        for _ in 0..<5 { level = builder.add(builder.array(Array(repeating: level, count: 10))) }  // 111,111 values
        builder.top = builder.add(builder.array(Array(repeating: level, count: 9)))
        #expect(plistFailure(builder.data) == nil)
        builder.objects[builder.top] = builder.array(Array(repeating: level, count: 9) + [leaf])
        #expect(
            plistFailure(builder.data)?.message == "shared objects expand the property list to more than 1000000 values"
        )
    }

    @Test func modestSharingIsFine() throws {
        // 5 levels of 10: 111,111 values from a few bytes, below the limit.
        var builder = BinaryPlistBuilder()
        for level in 0..<5 { builder.add(builder.array(Array(repeating: level + 1, count: 10))) }
        builder.add(BinaryPlistBuilder.ascii("lol"))
        #expect(plistFailure(builder.data) == nil)
    }
}
