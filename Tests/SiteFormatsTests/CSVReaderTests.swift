import Foundation
import SiteCore
import Testing
@testable import SiteFormats

/// CSV as RFC 4180 writes it: a header row, quoted cells with commas, doubled quotes and line
/// breaks, CRLF or LF; every problem at its line and column.
@Suite struct CSVReaderTests {
    func read(_ text: String) throws(Diagnostic) -> (Value, [(line: Int, column: Int)]?) {
        let (value, elements) = try CSVReader.read(Data(text.utf8), file: "t.csv")
        return (value, elements)
    }

    func problem(_ text: String) -> String? {
        do {
            _ = try read(text)
            return nil
        } catch { return "\(error.location.line ?? 0):\(error.location.column ?? 0) \(error.message)" }
    }

    @Test func rowsAreDictionariesByColumn() throws {
        let (value, elements) = try read(
            "title,year\r\nArrival,2016\r\n\"Crouching Tiger, Hidden Dragon\",2000\r\n\"The \"\"Thing\"\"\",\r\n")
        #expect(
            value
                == .array([
                    .dictionary(["title": .string("Arrival"), "year": .string("2016")]),
                    .dictionary(["title": .string("Crouching Tiger, Hidden Dragon"), "year": .string("2000")]),
                    .dictionary(["title": .string("The \"Thing\""), "year": .string("")])
                ]))
        #expect(elements?.map(\.line) == [2, 3, 4])
    }

    @Test func aQuotedCellHoldsLineBreaksAndTheLastLineNeedsNoBreak() throws {
        let (value, elements) = try read("\u{FEFF}a,b\n\"one\ntwo\",é\n\"x\",y")
        #expect(
            value
                == .array([
                    .dictionary(["a": .string("one\ntwo"), "b": .string("é")]),
                    .dictionary(["a": .string("x"), "b": .string("y")])
                ]))
        #expect(elements?.map(\.line) == [2, 4])
    }

    @Test func aHeaderAloneIsNoItems() throws {
        #expect(try read("a,b\n").0 == .array([]))
    }

    @Test(arguments: [
        ("", "1:1 the CSV file is empty: its first line names the columns"),
        ("a,,c\n", "1:3 column 2 has no name"),
        ("a,b,a\n", "1:5 column 'a' is named twice (columns 1 and 3)"),
        ("a,b\n1,2,3\n", "2:1 this row has 3 cells, the header names 2 columns"),
        ("a,b\n1\n", "2:1 this row has 1 cell, the header names 2 columns"),
        ("a,b\n\"open,1\n", "2:1 the quoted cell that starts here is never closed"),
        ("a,b\nx\"y,1\n", "2:2 a quote inside an unquoted cell (put the cell in quotes, a quote doubled)"),
        ("a,b\n\"x\"y,1\n", "2:4 text after the closing quote of a cell (a quote inside is doubled: \"\")"),
        ("a,b\r\n1,2\r3\n", "2:4 a carriage return not followed by a line feed"),
        ("a,b\n\"z\",é\"\n", "2:6 a quote inside an unquoted cell (put the cell in quotes, a quote doubled)")
    ])
    func problemsAreLocated(_ text: String, _ expected: String) {
        #expect(problem(text) == expected)
    }

    @Test func invalidUTF8IsLocated() {
        let cases: [([UInt8], String)] = [
            ([0x61, 0x2C, 0x62, 0x0A, 0xFF, 0x2C, 0x31, 0x0A], "2:1"), ([0x61, 0x0A, 0x22, 0xC3, 0x22], "2:1")
        ]
        for (bytes, at) in cases {
            do throws(Diagnostic) {
                _ = try CSVReader.read(Data(bytes), file: "t.csv")
                Issue.record("read \(bytes)")
            } catch {
                #expect("\(error.location.line ?? 0):\(error.location.column ?? 0)" == at)
                #expect(error.message == "this cell is not valid UTF-8 text")
            }
        }
    }

    /// Items and cells are found for messages about values that read; columns count scalars.
    @Test func locatesItemsAndCells() {
        let data = Data("name,note\n\"multi\nline\",é\nb,\"c\"\n".utf8)
        #expect(CSVReader.location(of: [.index(0)], in: data).map { [$0.line, $0.column] } == [2, 1])
        #expect(CSVReader.location(of: [.index(0), .key("note")], in: data).map { [$0.line, $0.column] } == [3, 7])
        #expect(CSVReader.location(of: [.index(1), .key("note")], in: data).map { [$0.line, $0.column] } == [4, 3])
        #expect(CSVReader.location(of: [.index(2)], in: data) == nil)
        #expect(CSVReader.location(of: [.index(1), .key("other")], in: data) == nil)
        #expect(CSVReader.location(of: [.key("name")], in: data) == nil)
    }

    /// A row of many cells is scanned once for their columns (bounded work).
    @Test func aLongRowIsReadInLinearTime() throws {
        let n = 200_000
        let header = (0..<n).map { "c\($0)" }.joined(separator: ",")
        let row = (0..<n).map { "\($0)" }.joined(separator: ",")
        let started = ContinuousClock.now
        let (value, _) = try read(header + "\n" + row + "\n")
        guard case .array(let items) = value, case .dictionary(let cells)? = items.first else {
            Issue.record("no item")
            return
        }
        #expect(cells.count == n)
        // Quadratic counting would scan 2·10¹⁰ bytes; a generous bound on linear work.
        #expect(ContinuousClock.now - started < .seconds(20))
    }
}

/// The formats' registry: each file and answer finds its format in one place.
@Suite struct DatasetFormatTests {
    @Test func byFileName() {
        #expect(DatasetFormat.of(file: "movies/list.CSV") == .csv)
        #expect(DatasetFormat.of(file: "Photos.plist") == .propertyList)
        #expect(DatasetFormat.of(file: "a.json") == .json)
        #expect(DatasetFormat.of(file: "notes.md") == nil)
        #expect(DatasetFormat.extensions == ["json", "plist", "csv"])
    }

    @Test func byBytes() {
        #expect(DatasetFormat.of(bytes: Data("bplist00".utf8)) == .propertyList)
        #expect(DatasetFormat.of(bytes: Data("<?xml version=\"1.0\"?>".utf8)) == .propertyList)
        #expect(DatasetFormat.of(bytes: Data("\u{FEFF}\n [1]".utf8)) == .json)
        #expect(DatasetFormat.of(bytes: Data("a,b\n1,2".utf8)) == .json, "nothing tells: JSON, whose error says so")
        func json(_ text: String) -> Bool {
            Data(text.utf8).withUnsafeBytes { DatasetFormat.json.recognises($0.bindMemory(to: UInt8.self)) }
        }
        #expect(json("\u{FEFF}\n [1]") && json(" {}") && !json("\u{FEFF}a") && !json(""))
    }
}
