import Foundation
import SiteCore

/// A format datasets are written in, whole: what it is called, how its files are named and its
/// answers typed, how its bytes begin, how it is read and how a key path is found in it. Every
/// place that reads a dataset (a file under `content/`, an HTTP API's answer, the data cache)
/// asks `DatasetFormat.all`; a format added there is read everywhere.
public struct DatasetFormat: Sendable {
    /// For messages: "JSON", "a property list".
    public let name: String
    /// File extensions, lowercased, without the dot.
    public let extensions: [String]
    /// What an HTTP `Content-Type` of this format contains (lowercased).
    public let mediaTypes: [String]
    /// Whether the bytes look like this format (their first bytes).
    public let recognises: @Sendable (UnsafeBufferPointer<UInt8>) -> Bool
    /// The value of the bytes, with the line and column of each element of the list at the key
    /// path (nil where the format has no lines, or no list is there).
    public let read:
        @Sendable (Data, _ file: String, _ locatingElementsOf: [PathComponent]) throws(Diagnostic) -> (
            value: Value, elements: [(line: Int, column: Int)]?
        )
    /// The line and column of the value at a key path, for messages about a value that read.
    public let locate: @Sendable ([PathComponent], Data) -> (line: Int, column: Int)?
    /// Whether every value read is text, typed afterwards by the collection's `fields:` (CSV).
    public let textOnly: Bool

    public static let json = DatasetFormat(
        name: "JSON", extensions: ["json"], mediaTypes: ["json"],
        recognises: { bytes in
            let start = ByteText.bomLength(bytes)
            guard let first = bytes[start...].first(where: { !" \t\r\n".utf8.contains($0) }) else { return false }
            return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        },
        read: { data, file, path throws(Diagnostic) in try JSONReader.read(data, file: file, locatingElementsOf: path)
        },
        locate: { path, data in JSONReader.location(of: path, in: data) }, textOnly: false)

    public static let propertyList = DatasetFormat(
        name: "a property list", extensions: ["plist"], mediaTypes: ["plist"],
        recognises: { bytes in
            ByteText.matches(bytes, at: 0, "bplist") || ByteText.matches(bytes, at: 0, "<?xml")
                || ByteText.matches(bytes, at: 0, "<plist") || ByteText.matches(bytes, at: 0, "<!DOCTYPE plist")
        },
        read: { data, file, path throws(Diagnostic) in
            try PropertyListReader.read(data, file: file, locatingElementsOf: path)
        },
        locate: { path, data in PropertyListReader.location(of: path, in: data) }, textOnly: false)

    public static let csv = DatasetFormat(
        name: "CSV", extensions: ["csv"], mediaTypes: ["text/csv"],
        recognises: { _ in false },  // any text could be CSV: only its name or type tells
        read: { data, file, _ throws(Diagnostic) in try CSVReader.read(data, file: file) },
        locate: { path, data in CSVReader.location(of: path, in: data) }, textOnly: true)

    /// Every format, the first the one an answer is read as when nothing tells.
    public static let all: [DatasetFormat] = [.json, .propertyList, .csv]

    /// Every dataset file extension.
    public static let extensions: Set<String> = Set(all.flatMap(\.extensions))

    /// The format of a file named `path` (by its extension), nil when it is none of them.
    public static func of(file path: String) -> DatasetFormat? {
        let ext = (path as NSString).pathExtension.lowercased()
        return all.first { $0.extensions.contains(ext) }
    }

    /// The format of an HTTP answer: by its `Content-Type`, else the URL's extension, else its
    /// bytes, else JSON (an API's usual answer).
    public static func of(answer data: Data, url: String, contentType: String?) -> DatasetFormat {
        let type = contentType?.lowercased() ?? ""
        if let byType = all.first(where: { f in f.mediaTypes.contains { type.contains($0) } }) { return byType }
        let path = url.split(separator: "?").first.map(String.init) ?? url
        return of(file: path) ?? of(bytes: data)
    }

    /// The format the bytes look like; JSON when none tells.
    public static func of(bytes data: Data) -> DatasetFormat {
        withBytes(data) { bytes in all.first { $0.recognises(bytes) } } ?? .json
    }
}

extension DatasetFormat: Equatable {
    public static func == (a: DatasetFormat, b: DatasetFormat) -> Bool { a.name == b.name }
}
