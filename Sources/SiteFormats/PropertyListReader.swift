import Foundation
import SiteCore

/// Reads property lists, binary (`bplist00`) or XML, into `Value`.
///
/// Mapping: `<dict>` → `.dictionary`, `<array>` and binary sets → `.array`, `<integer>` → `.int`
/// (must fit in 64 bits), `<real>` → `.double`, `<date>` → `.date`, booleans → `.bool`,
/// binary null/fill → `.null`. `Value` has no bytes case, so `<data>` becomes `.string` holding the
/// base64 text without whitespace (binary data objects are base64-encoded the same way).
///
/// XML errors carry 1-based line and column (columns count Unicode scalars, as in `JSONReader`);
/// binary errors carry an object path such as `[3].Caption`, or `trailer`.
public enum PropertyListReader {
    /// Parses a property list: binary (`bplist00` magic) or XML, detected from the bytes.
    public static func read(_ data: Data, file: String) throws(Diagnostic) -> Value {
        try withBytes(data) { bytes throws(Diagnostic) in
            if ByteText.matches(bytes, at: 0, "bplist") {
                var parser = try BinaryPlistParser(bytes: bytes, file: file)
                return try parser.parse()
            }
            var parser = XMLPlistParser(bytes: bytes, file: file, target: nil)
            return try parser.parseDocument()
        }
    }

    /// As JSONReader.location, for XML plists; nil for binary plists (they have no lines).
    public static func location(of path: [PathComponent], in data: Data) -> (line: Int, column: Int)? {
        withBytes(data) { bytes in
            if ByteText.matches(bytes, at: 0, "bplist") { return nil }
            var parser = XMLPlistParser(bytes: bytes, file: "", target: path)
            guard (try? parser.parseDocument()) != nil else { return nil }
            return parser.cursor.foundLocation
        }
    }

    /// As `JSONReader.read(_:file:locatingElementsOf:)`: the element locations are nil for
    /// binary plists (they have no lines).
    public static func read(_ data: Data, file: String, locatingElementsOf path: [PathComponent]) throws(Diagnostic)
        -> (value: Value, elements: [(line: Int, column: Int)]?)
    {
        try withBytes(data) { bytes throws(Diagnostic) in
            if ByteText.matches(bytes, at: 0, "bplist") {
                var parser = try BinaryPlistParser(bytes: bytes, file: file)
                return (try parser.parse(), nil)
            }
            var parser = XMLPlistParser(bytes: bytes, file: file, target: path, collectsElements: true)
            let value = try parser.parseDocument()
            guard case .array? = value.value(at: path) else { return (value, nil) }
            return (value, parser.cursor.elementLocations)
        }
    }

    /// As JSONReader.elementLocations, for XML plists; nil for binary plists.
    public static func elementLocations(of path: [PathComponent], in data: Data) -> [(line: Int, column: Int)]? {
        (try? read(data, file: "", locatingElementsOf: path))?.elements
    }
}
