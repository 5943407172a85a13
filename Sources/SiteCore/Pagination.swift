/// One page of a paginated list: which items it holds and where it stands among the pages.
public struct PageSlice: Sendable, Hashable, Encodable {
    /// 1-based page number.
    public var number: Int
    public var count: Int
    /// Indices into the sorted item list.
    public var range: Range<Int>

    public var isFirst: Bool { number == 1 }
    public var isLast: Bool { number == count }
}

public enum Pagination {
    /// Splits `itemCount` items into pages of `pageSize` (nil or 0: one page). There is always at
    /// least one page, so an empty collection still gets its (empty) list page.
    public static func pages(itemCount: Int, pageSize: Int?) -> [PageSlice] {
        guard let size = pageSize, size > 0, itemCount > size else {
            return [PageSlice(number: 1, count: 1, range: 0..<max(0, itemCount))]
        }
        let count = (itemCount + size - 1) / size
        return (0..<count).map { p in
            PageSlice(number: p + 1, count: count, range: (p * size)..<min(itemCount, (p + 1) * size))
        }
    }
}
