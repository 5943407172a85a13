import SiteCore

/// A text reader's place in its bytes, its open containers and its located errors: one type for
/// the JSON and XML plist readers, so both skip a byte order mark, count lines and columns,
/// describe what they found and locate values the same way.
struct ByteCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The path named in diagnostics.
    let file: String
    /// Where the text starts: after a UTF-8 byte order mark (columns count from here).
    let textStart: Int
    var pos: Int
    /// The arrays and dictionaries not yet closed, and the path being located.
    var open: OpenContainers

    init(bytes: UnsafeBufferPointer<UInt8>, file: String, target: [PathComponent]?, collectsElements: Bool) {
        self.bytes = bytes
        self.file = file
        self.textStart = ByteText.bomLength(bytes)
        self.pos = textStart
        self.open = OpenContainers(target: target, collectsElements: collectsElements)
    }

    /// The 1-based line and column of byte `offset`.
    func lineColumn(of offset: Int) -> (line: Int, column: Int) {
        ByteText.lineColumn(of: offset, in: bytes, from: textStart)
    }

    func error(_ message: String, at offset: Int) -> Diagnostic {
        let (line, column) = lineColumn(of: offset)
        return Diagnostic(file: file, line: line, column: column, message)
    }

    /// What is at `offset`, for "found …" in messages.
    func found(_ offset: Int) -> String { ByteText.describe(bytes, at: offset) }

    /// Where the value at the located path starts, once read; nil if it was not.
    var foundLocation: (line: Int, column: Int)? { open.foundOffset.map(lineColumn(of:)) }

    /// Where each element of the array at the located path starts, when collecting.
    var elementLocations: [(line: Int, column: Int)] {
        ByteText.lineColumns(of: open.elementOffsets, in: bytes, from: textStart)
    }

    /// Whitespace in JSON and in XML alike: space, line feed, carriage return, tab.
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    @inline(__always)
    mutating func skipWhitespace() {
        while pos < bytes.count, Self.isSpace(bytes[pos]) { pos += 1 }
    }
}

/// A reader over a `ByteCursor` (the JSON and XML plist parsers): the cursor's bytes, position and
/// messages by the names the reading code uses, written once here.
protocol CursorReader {
    var cursor: ByteCursor { get set }
}

extension CursorReader {
    var bytes: UnsafeBufferPointer<UInt8> { cursor.bytes }
    var pos: Int {
        @inline(__always) get { cursor.pos }
        @inline(__always) set { cursor.pos = newValue }
    }
    func error(_ message: String, at offset: Int) -> Diagnostic { cursor.error(message, at: offset) }
    func found(_ offset: Int) -> String { cursor.found(offset) }
}
