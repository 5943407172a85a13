#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension UnsafeBufferPointer<UInt8> {
    /// The index of the first `byte` in `self[from..<to]` (`to`: the end when nil), nil if there is
    /// none. It is `memchr`, which skips the bytes between two hits many at a time: the readers of
    /// HTML and Markdown look for the next `<`, quote or colon through long runs of text.
    public func firstIndex(of byte: UInt8, from: Int, to: Int? = nil) -> Int? {
        let end = Swift.min(to ?? count, count)
        guard from < end, let base = baseAddress, let hit = memchr(base + from, Int32(byte), end - from) else {
            return nil
        }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }
}
