/// Line and column of byte offsets in UTF-8 text, for messages that point into a file.
///
/// Columns count Unicode scalars (what most editors call characters; a tab is one column, and
/// each byte of malformed UTF-8 counts as one). Lines end at LF, CR LF or a lone CR. Computed only
/// when needed, so parsing itself never tracks lines.
public enum TextPosition {
    /// The 1-based line and column of each of `offsets` (in any order), counting from `start`
    /// (just after a byte order mark), in one pass over the bytes.
    public static func of(_ offsets: [Int], in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> [(
        line: Int, column: Int
    )] {
        var out = [(line: Int, column: Int)](repeating: (1, 1), count: offsets.count)
        var line = 1, column = 1, i = start
        let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
        for k in order {
            let stop = min(max(offsets[k], i), bytes.count)
            while i < stop {
                let b = bytes[i]
                if b == 0x0A || (b == 0x0D && (i + 1 >= bytes.count || bytes[i + 1] != 0x0A)) {
                    // CR LF is one line break, counted at the LF.
                    line += 1
                    column = 1
                } else if b != 0x0D, b & 0xC0 != 0x80 {
                    column += 1
                }
                i += 1
            }
            out[k] = (line, column)
        }
        return out
    }
}
