/// What a fence's info string asks for after the language, in the form Docusaurus and Astro's
/// Expressive Code read: ```` ```swift {2,4-5} showLineNumbers ````: lines 2, 4 and 5 marked,
/// every line numbered. Words it does not know (another tool's `title="…"`) are left alone, and
/// so are entries of `{…}` that are not a line number or a range.
struct FenceAttributes: Equatable, Sendable {
    var lineNumbers = false
    /// The marked lines (from 1), as sorted ranges that neither overlap nor touch.
    var marked: [ClosedRange<Int>] = []

    /// Line numbers larger than this are ignored (a block has at most `CodeLimits.maximumBytes`
    /// lines), so a range costs nothing however long it claims to be.
    static let largestLine = 10_000_000

    var isEmpty: Bool { !lineNumbers && marked.isEmpty }

    init(lineNumbers: Bool = false, marked: [ClosedRange<Int>] = []) {
        self.lineNumbers = lineNumbers
        self.marked = marked
    }

    /// The attributes of `info`, whose first word (the language) is skipped.
    init(info: Substring) {
        var rest = info.drop { !$0.isWhitespace }
        var ranges: [ClosedRange<Int>] = []
        while let start = rest.firstIndex(where: { !$0.isWhitespace }) {
            rest = rest[start...]
            if rest.first == "{", let close = rest.firstIndex(of: "}") {
                ranges += Self.lines(rest[rest.index(after: start)..<close])
                rest = rest[rest.index(after: close)...]
            } else {
                let word = rest.prefix { !$0.isWhitespace }
                if word == "showLineNumbers" { lineNumbers = true }
                rest = rest[word.endIndex...]
            }
        }
        marked = Self.merged(ranges)
    }

    /// `2,4-5` as ranges; entries that are not a line or a range of lines are skipped.
    static func lines(_ list: Substring) -> [ClosedRange<Int>] {
        list.split(separator: ",").compactMap { entry in
            let parts = entry.split(separator: "-", omittingEmptySubsequences: false)
                .map { Int($0.trimmingPrefix(while: \.isWhitespace).prefix { !$0.isWhitespace }) }
            guard parts.count == 1 || parts.count == 2, let first = parts[0], let last = parts[parts.count - 1],
                first >= 1, first <= last, last <= largestLine
            else { return nil }
            return first...last
        }
    }

    /// Sorted, and overlapping or touching ranges joined.
    static func merged(_ ranges: [ClosedRange<Int>]) -> [ClosedRange<Int>] {
        var out: [ClosedRange<Int>] = []
        for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, r.lowerBound <= last.upperBound + 1 {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }
}
