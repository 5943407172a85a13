import SiteCore

/// Bounds cmark-gfm's work on a note, measured before it parses it (a linear scan of the text).
///
/// cmark-gfm 0.29.0.gfm.6 (Debian's; the upstream fixes came in gfm.7–gfm.13) has three costs
/// that grow faster than the note:
/// - **Links among emphasis.** Each link or image it closes runs `process_emphasis`, which first
///   walks the paragraph's whole delimiter stack (every `*`, `_`, `~` run not yet matched), and
///   then walks the open `[` brackets back past every `![`: `"[a](b) *c* "` × 80,000 took 10 s,
///   a 48 MB line hours. The work is the number of link ends (`]`) times the openers (runs of `*`,
///   `_`, `~`, and `'` `"` with smart punctuation; `[`) before each in its paragraph.
/// - **Table cells.** Every row is filled up to the header's columns, so a header of 3,000
///   columns over 3,000 one-character rows (18 KB) is 9 million cells: a 90 MB page, 2.4 GB.
/// - **Wide rows.** A row's time grows with the square of its columns (a header of 20,000
///   columns alone took 7.5 s).
///
/// The scan counts conservatively — every `]`, every run, blank lines alone ending a paragraph,
/// every line after a delimiter row until a blank line a row — so that no note the library would
/// find expensive gets past it, and the budgets are far above any real note's (the example site,
/// the seed READMEs and the GFM spec's examples stay under a hundredth of each).
public enum MarkdownBudget {
    /// Link ends × the openers before each in its paragraph, summed over the note (~0.3 s).
    public static let maximumLinkWork = 10_000_000
    /// Columns × rows (the header row and delimiter row included), summed over the note's tables.
    public static let maximumTableCells = 100_000
    /// Columns of one table (a delimiter row's cells).
    public static let maximumTableColumns = 500

    /// What refuses `markdown` (line numbers from 1 in `markdown`), or nil when it is within every budget.
    /// `smart`: quotes are emphasis-like openers too (smart punctuation).
    public static func check(_ markdown: String, smart: Bool) -> MarkdownError? {
        var text = markdown
        return text.withUTF8 { bytes in
            var scan = Scan(smart: smart)
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
                if let refused = scan.line(UnsafeBufferPointer(rebasing: bytes[start..<end])) { return refused }
                // \n, \r\n and \r each end a line, as for cmark-gfm
                start = end + (end + 1 < bytes.count && bytes[end] == 0x0D && bytes[end + 1] == 0x0A ? 2 : 1)
            }
            return nil
        }
    }

    /// The state of the scan between lines.
    struct Scan {
        var smart: Bool
        var lineNumber = 0
        /// The current paragraph's first line (0: none), its openers, and the note's link work.
        var paragraphLine = 0
        var openers = 0
        /// Where a list item or heading starting the paragraph was: one less indented than this + 4
        /// ends it; one more indented may be text of the paragraph (a lazy continuation line).
        var paragraphIndent = 0
        var linkWork = 0
        /// The columns of the table being read (0: none), and the note's cells so far.
        var columns = 0
        var cells = 0

        init(smart: Bool) { self.smart = smart }

        mutating func line(_ bytes: UnsafeBufferPointer<UInt8>) -> MarkdownError? {
            lineNumber += 1
            guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else {
                (paragraphLine, openers, columns) = (0, 0, 0)
                return nil
            }
            let indent = MarkdownBudget.blockStart(bytes)
            if paragraphLine == 0 {
                paragraphLine = lineNumber
                paragraphIndent = indent ?? 0
            } else if let indent, indent <= paragraphIndent + 3 {  // a new item or heading ends the paragraph
                paragraphLine = lineNumber
                paragraphIndent = indent
                openers = 0
            }
            if let refused = inline(bytes) { return refused }
            return table(bytes)
        }

        /// Counts the line's openers and link ends; the paragraph's line past the budget.
        mutating func inline(_ bytes: UnsafeBufferPointer<UInt8>) -> MarkdownError? {
            var previous: UInt8 = 0
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "]"):
                    linkWork += openers
                    if linkWork > maximumLinkWork {
                        return .overBudget(
                            line: paragraphLine,
                            "too many links among emphasis in one paragraph: its link ends (']') each come after "
                                + "up to \(openers) emphasis markers and brackets, past the budget of "
                                + "\(NumberFormat.grouped(Int64(maximumLinkWork), language: "en")) "
                                + "link end × marker pairs per note that keeps the "
                                + "Markdown library's work bounded; split the paragraph with blank lines")
                    }
                case UInt8(ascii: "["): openers += 1
                case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                    if byte != previous { openers += 1 }  // one delimiter per run
                case UInt8(ascii: "'"), UInt8(ascii: "\""):
                    if smart, byte != previous { openers += 1 }
                default: break
                }
                previous = byte
            }
            return nil
        }

        /// Counts a table's cells: a delimiter row starts one, each line after it is a row.
        mutating func table(_ bytes: UnsafeBufferPointer<UInt8>) -> MarkdownError? {
            if let found = MarkdownBudget.delimiterRowColumns(bytes) {
                columns = found
                cells += 2 * found  // the header row and this one
            } else if columns > 0 {
                cells += columns
            }
            if columns > maximumTableColumns {
                return .overBudget(
                    line: lineNumber,
                    "a table of \(columns) columns, more than the \(maximumTableColumns) a table may have "
                        + "(each row's work grows with the square of its columns)")
            }
            if cells > maximumTableCells {
                return .overBudget(
                    line: lineNumber,
                    "tables of more than \(NumberFormat.grouped(Int64(maximumTableCells), language: "en")) "
                        + "cells in one note (columns × rows, "
                        + "every row filled up to the header's columns): the page would be too large to make")
            }
            return nil
        }
    }

    /// The columns of block quote markers and spaces before a bullet list item (`-`, `*`, `+`), an
    /// ordered one numbered 1 (`1.`, `1)`) or an ATX heading that starts `line`, which then ends
    /// a paragraph if no more than 3 columns further in than it: nil for other lines (and lines
    /// indented with tabs). Only items and headings that can interrupt a paragraph count (`2.`
    /// cannot, nor an empty item), so that a line counted as a new paragraph is one for cmark-gfm.
    static func blockStart(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        while i < line.count, line[i] == 0x20 || line[i] == UInt8(ascii: ">") { i += 1 }
        guard i < line.count else { return nil }
        let indent = i
        var after = i + 1
        switch line[i] {
        case UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "+"): break
        case UInt8(ascii: "1"):
            guard after < line.count, line[after] == UInt8(ascii: ".") || line[after] == UInt8(ascii: ")") else {
                return nil
            }
            after += 1
        case UInt8(ascii: "#"):
            while after < line.count, line[after] == UInt8(ascii: "#") { after += 1 }
            guard after - i <= 6 else { return nil }
            return after == line.count || line[after] == 0x20 ? indent : nil
        default: return nil
        }
        guard after < line.count, line[after] == 0x20 else { return nil }
        return line[after...].contains(where: { $0 != 0x20 && $0 != 0x09 }) ? indent : nil
    }

    /// The cells of a line that can be a table's delimiter row (`| --- | :-: |`, after any block
    /// quote markers and indentation): nil for any other line. Counted as cmark-gfm's table
    /// extension reads it: only `|`, `-`, `:` and spaces, every cell with a `-`.
    static func delimiterRowColumns(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == UInt8(ascii: ">") { i += 1 }
        var columns = 0
        var dashes = false
        var sawPipe = false
        for byte in bytes[i...] {
            switch byte {
            case UInt8(ascii: "-"): dashes = true
            case UInt8(ascii: "|"):
                if dashes { columns += 1 }
                dashes = false
                sawPipe = true
            case UInt8(ascii: ":"), 0x20, 0x09, 0x0B, 0x0C: break
            default: return nil
            }
        }
        columns += dashes ? 1 : 0  // the last cell, without a closing `|`
        return columns > 0 && (sawPipe || columns == 1) ? columns : nil
    }
}
