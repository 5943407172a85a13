/// Where in a source file something is. Line and column are 1-based and present only where the
/// format reveals them; `path` (a key path such as `[3].bounty`) names the place otherwise.
public struct SourceLocation: Sendable, Hashable, Codable {
    public var file: String
    public var line: Int?
    public var column: Int?
    public var path: String?

    public init(file: String, line: Int? = nil, column: Int? = nil, path: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
    }
}

/// One problem with the input, printed the way compilers and editors understand:
/// `file:line:column: error: message`.
public struct Diagnostic: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public init(_ location: SourceLocation, _ message: String) {
        self.location = location
        self.message = message
    }

    public init(file: String, line: Int? = nil, column: Int? = nil, path: String? = nil, _ message: String) {
        self.init(SourceLocation(file: file, line: line, column: column, path: path), message)
    }

    public var description: String { line(severity: "error") }

    /// The same line as a warning (`file:line: warning: message`): the build goes on.
    public var warningDescription: String { line(severity: "warning") }

    private func line(severity: String) -> String {
        var head = location.file
        if let line = location.line {
            head += ":\(line)"
            if let column = location.column { head += ":\(column)" }
        }
        var text = "\(head): \(severity): "
        if let path = location.path, !path.isEmpty { text += "at \(path): " }
        return Self.visible(text + message)
    }

    /// `text` on one line with its control characters shown (`\n`, `\t`, `\u{0}`): values from
    /// data end up in messages, and a NUL or a line break would hide or fake part of one.
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0..<0x20, 0x7F: out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// Every problem found in one run. A build collects as many as it can before giving up.
public struct Diagnostics: Error, Sendable, CustomStringConvertible {
    public var items: [Diagnostic]

    public init(_ items: [Diagnostic]) { self.items = items }

    public var description: String { items.map(\.description).joined(separator: "\n") }

    /// How many problems are printed: past them, one line says how many more there are (100,000
    /// duplicate slugs must not print 99,999 lines).
    public static let printedLimit = 50

    /// The lines to print: the first `limit` problems, then "and N more errors".
    public func printed(limit: Int = Diagnostics.printedLimit) -> [String] {
        let shown = items.prefix(limit).map(\.description)
        let more = items.count - shown.count
        return more > 0 ? shown + ["sitegen: … and \(more) more error\(more == 1 ? "" : "s")"] : shown
    }
}

extension Diagnostic {
    /// At most `limit` characters of a name from data, for messages: a 5 MB tag is shown by its
    /// start and its size, not repeated whole.
    public static func excerpt(_ name: String, limit: Int = 60) -> String {
        guard name.count > limit else { return name }
        return "\(name.prefix(limit))… (\(name.utf8.count) bytes)"
    }
}
