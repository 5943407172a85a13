import Foundation
import SiteCore

/// Reads CSV (RFC 4180) into `Value`: the first record names the columns, every other record is
/// an item, a dictionary of its cells by column name, every cell text (the collection's `fields:`
/// types them). Records end at CRLF or LF; a field in double quotes may hold commas, quotes
/// (doubled) and line breaks. A UTF-8 byte order mark at the start is skipped. Errors and
/// locations are 1-based lines and columns counting Unicode scalars, as in `JSONReader`.
public enum CSVReader {
    public static func read(_ data: Data, file: String) throws(Diagnostic) -> (
        value: Value, elements: [(line: Int, column: Int)]?
    ) {
        let table = try withBytes(data) { bytes throws(Diagnostic) in try Table(bytes, file: file) }
        let items = table.rows.map { row in
            Value.dictionary(Dictionary(uniqueKeysWithValues: zip(table.header, row.cells.map { .string($0.text) })))
        }
        return (.array(items), table.rows.map(\.at))
    }

    /// The line and column of an item (`[.index(i)]`) or of one of its cells (`[.index(i),
    /// .key(column)]`); nil for any other path, or if the data does not read.
    public static func location(of path: [PathComponent], in data: Data) -> (line: Int, column: Int)? {
        guard let table = try? withBytes(data, { bytes throws(Diagnostic) in try Table(bytes, file: "") }),
            case .index(let i)? = path.first, i < table.rows.count
        else { return nil }
        switch path.dropFirst().first {
        case nil: return table.rows[i].at
        case .key(let name)? where path.count == 2:
            return table.header.firstIndex(of: name).map { table.rows[i].cells[$0].at }
        default: return nil
        }
    }

    struct Cell {
        var text: String
        var at: (line: Int, column: Int)
    }

    struct Row {
        var cells: [Cell]
        var at: (line: Int, column: Int)
    }

    /// The records, checked: a header of unique, non-empty names, and as many cells in each row.
    struct Table {
        var header: [String] = []
        var rows: [Row] = []

        init(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws(Diagnostic) {
            var scanner = Scanner(bytes: bytes, file: file)
            guard let first = try scanner.record() else {
                throw Diagnostic(
                    file: file, line: 1, column: 1, "the CSV file is empty: its first line names the columns")
            }
            var columns: [String: Int] = [:]
            for (k, cell) in first.cells.enumerated() {
                guard !cell.text.isEmpty else {
                    throw Diagnostic(
                        file: file, line: cell.at.line, column: cell.at.column, "column \(k + 1) has no name")
                }
                if let earlier = columns.updateValue(k, forKey: cell.text) {
                    throw Diagnostic(
                        file: file, line: cell.at.line, column: cell.at.column,
                        "column '\(cell.text)' is named twice (columns \(earlier + 1) and \(k + 1))")
                }
                header.append(cell.text)
            }
            while let row = try scanner.record() {
                guard row.cells.count == header.count else {
                    throw Diagnostic(
                        file: file, line: row.at.line, column: row.at.column,
                        "this row has \(row.cells.count) cell\(row.cells.count == 1 ? "" : "s"), the header names "
                            + "\(header.count) column\(header.count == 1 ? "" : "s")")
                }
                rows.append(row)
            }
        }
    }

    /// Reads records one at a time, keeping the line and column (in scalars) of each cell.
    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        let file: String
        var i = 0
        var line = 1
        /// Where the current line starts, to count columns from.
        var lineStart = 0
        /// The last column counted on this line, and the byte it is of: columns are counted
        /// onwards from there (a line of many cells is scanned once).
        var counted = (byte: 0, column: 1)

        init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
            self.bytes = bytes
            self.file = file
            (i, lineStart) = (ByteText.bomLength(bytes), ByteText.bomLength(bytes))
        }

        /// The column of byte `k` on the current line: the scalars before it, plus one.
        mutating func column(_ k: Int) -> Int {
            if counted.byte < lineStart || counted.byte > k { counted = (lineStart, 1) }
            for b in bytes[counted.byte..<k] where b & 0xC0 != 0x80 { counted.column += 1 }
            counted.byte = k
            return counted.column
        }

        mutating func failure(_ message: String, at k: Int) -> Diagnostic {
            Diagnostic(file: file, line: line, column: column(k), message)
        }

        /// The next record, nil at the end (a last line break ends the last record, it does not
        /// start an empty one).
        mutating func record() throws(Diagnostic) -> Row? {
            guard i < bytes.count else { return nil }
            let start = (line, column(i))
            var cells: [Cell] = []
            while true {
                let cell = try field()
                cells.append(cell)
                if i < bytes.count, bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                if i < bytes.count { newline() }  // a record ends at a line break or the end
                return Row(cells: cells, at: start)
            }
        }

        /// Moves past a line break (CRLF or LF) at `i`.
        mutating func newline() {
            if bytes[i] == UInt8(ascii: "\r") { i += 1 }
            if i < bytes.count, bytes[i] == UInt8(ascii: "\n") { i += 1 }
            line += 1
            lineStart = i
        }

        /// A comma, or the start of a line break.
        static func endsCell(_ b: UInt8) -> Bool {
            b == UInt8(ascii: ",") || b == UInt8(ascii: "\r") || b == UInt8(ascii: "\n")
        }

        mutating func field() throws(Diagnostic) -> Cell {
            let at = (line, column(i))
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                let start = i
                while i < bytes.count, !Self.endsCell(bytes[i]) {
                    if bytes[i] == UInt8(ascii: "\"") {
                        throw failure(
                            "a quote inside an unquoted cell (put the cell in quotes, a quote doubled)", at: i)
                    }
                    i += 1
                }
                if i < bytes.count, bytes[i] == UInt8(ascii: "\r"), i + 1 >= bytes.count || bytes[i + 1] != 10 {
                    throw failure("a carriage return not followed by a line feed", at: i)
                }
                return Cell(text: try text(start..<i), at: at)
            }
            i += 1
            var content: [UInt8] = []
            while true {
                guard i < bytes.count else {
                    throw Diagnostic(
                        file: file, line: at.0, column: at.1, "the quoted cell that starts here is never closed")
                }
                let b = bytes[i]
                i += 1
                if b == UInt8(ascii: "\"") {
                    if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
                        content.append(b)
                        i += 1
                        continue
                    }
                    break
                }
                if b == UInt8(ascii: "\n") {
                    line += 1
                    lineStart = i
                }
                content.append(b)
            }
            if i < bytes.count, !Self.endsCell(bytes[i]) {
                throw failure("text after the closing quote of a cell (a quote inside is doubled: \"\")", at: i)
            }
            guard let s = String(validating: content, as: UTF8.self) else {
                throw Diagnostic(file: file, line: at.0, column: at.1, "this cell is not valid UTF-8 text")
            }
            return Cell(text: s, at: at)
        }

        mutating func text(_ range: Range<Int>) throws(Diagnostic) -> String {
            guard let s = String(validating: bytes[range], as: UTF8.self) else {
                throw failure("this cell is not valid UTF-8 text", at: range.lowerBound)
            }
            return s
        }
    }
}
