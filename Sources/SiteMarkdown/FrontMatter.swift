internal import Foundation
public import SiteCore
internal import Yams

/// A note split into its YAML front matter and Markdown body.
public struct FrontMatterDocument: Sendable {
    /// The front matter mapping, converted to typed values (empty without front matter).
    public var fields: [String: Value]
    /// The Markdown after the closing `---` line (the whole text, less a BOM, without front matter).
    public var body: String
    /// The 1-based line of the file on which `body` starts.
    public var bodyStartLine: Int

    public init(fields: [String: Value], body: String, bodyStartLine: Int) {
        self.fields = fields
        self.body = body
        self.bodyStartLine = bodyStartLine
    }
}

/// Jekyll-style YAML front matter: a block between a first line `---` and the next `---` line.
public enum FrontMatter {
    /// Splits `text` (the note file `file`) into front matter and body.
    ///
    /// A file that does not start with a `---` line has no front matter (empty fields). An opening
    /// `---` without a closing `---` line is an error, as is front matter that is not a YAML mapping
    /// with scalar keys. A UTF-8 BOM, CRLF line endings and trailing blanks after `---` are allowed.
    /// A lone CR ends a line too, as in CommonMark and YAML: read otherwise, a classic Mac file's
    /// front matter would be one long line, shown as a heading, its `draft: true` ignored.
    /// Diagnostics count lines in the whole file.
    public static func parse(_ text: String, file: String) throws(Diagnostic) -> FrontMatterDocument {
        var content = Substring(withLoneCRsAsLF(text))
        if content.unicodeScalars.first == "\u{FEFF}" {
            content = Substring(content.unicodeScalars.dropFirst())
        }
        let bytes = content.utf8

        let opening = line(in: bytes, from: bytes.startIndex)
        if isFence(bytes[opening.content], of: UInt8(ascii: "+")) {
            throw Diagnostic(
                file: file, line: 1, column: 1,
                "TOML front matter ('+++') is not supported: sitegen reads YAML front matter between '---' lines")
        }
        guard isFence(bytes[opening.content]) else {
            return FrontMatterDocument(fields: [:], body: String(content), bodyStartLine: 1)
        }

        let yamlStart = opening.next
        var cursor = yamlStart
        var lineNumber = 2
        while cursor < bytes.endIndex {
            let current = line(in: bytes, from: cursor)
            if isFence(bytes[current.content]) {
                let yaml = content[yamlStart..<cursor]
                let fields: [String: Value]
                if let plain = PlainFrontMatter.fields(yaml) {
                    fields = plain
                } else {
                    fields = try yamsFields(String(yaml), file: file)
                }
                return FrontMatterDocument(
                    fields: fields,
                    body: String(content[current.next...]),
                    bodyStartLine: lineNumber + 1
                )
            }
            cursor = current.next
            lineNumber += 1
        }
        throw Diagnostic(
            file: file, line: 1, column: 1,
            "front matter opened with '---' is never closed (expected a '---' line after it)")
    }

    /// `text` with each CR that no LF follows replaced by LF (CRLF kept), so that every reader after
    /// this one sees the lines CommonMark sees. Most notes have no CR and are returned as they are.
    public static func withLoneCRsAsLF(_ text: String) -> String {
        var text = text
        let fixed: [UInt8]? = text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return nil }
            var out: [UInt8]?
            var from = 0
            // memchr: a note of many megabytes with no CR is one fast pass, even in a debug build.
            while from < bytes.count, let found = memchr(base + from, 0x0D, bytes.count - from) {
                let i = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if i + 1 == bytes.count || bytes[i + 1] != 0x0A {
                    if out == nil { out = Array(bytes) }
                    out?[i] = 0x0A
                }
                from = i + 1
            }
            return out
        }
        return fixed.map { String(decoding: $0, as: UTF8.self) } ?? text
    }

    /// The line starting at `start`: its content (without the line break) and the start of the next line.
    private static func line(
        in bytes: Substring.UTF8View, from start: Substring.UTF8View.Index
    ) -> (content: Range<Substring.UTF8View.Index>, next: Substring.UTF8View.Index) {
        guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else {
            return (start..<bytes.endIndex, bytes.endIndex)
        }
        return (start..<newline, bytes.index(after: newline))
    }

    /// `---` (or `+++`, TOML's fence) followed only by blanks (and the `\r` of a CRLF line break).
    private static func isFence(_ line: Substring.UTF8View.SubSequence, of mark: UInt8 = UInt8(ascii: "-")) -> Bool {
        var rest = line[...]
        for _ in 0..<3 {
            guard rest.first == mark else { return false }
            rest = rest.dropFirst()
        }
        return rest.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
    }

    /// The front matter's fields read by Yams (what the plain subset does not cover). Its YAML
    /// starts on line 2 of the file, hence the line offset of 1.
    static func yamsFields(_ yaml: String, file: String) throws(Diagnostic) -> [String: Value] {
        let converter = Converter(file: file, lineOffset: 1)
        // `Resolver.basic` leaves scalars untyped (the converter types them without Yams'
        // per-scalar regular expressions).
        let root = try YAMLDocument.compose(yaml, file: file, lineOffset: 1, what: "front matter", resolver: .basic)
        guard let root else { return [:] }
        switch root {
        case .mapping(let mapping):
            return try converter.dictionary(mapping)
        case .scalar(let scalar) where NSNull.construct(from: scalar) != nil:
            // `---\n~\n---` says "no fields" as clearly as an empty block does.
            return [:]
        default:
            throw converter.diagnostic(
                at: root.mark,
                "front matter must be a mapping of names to values (`name: value` lines), not a "
                    + "\(converter.kind(of: root))"
            )
        }
    }
}
