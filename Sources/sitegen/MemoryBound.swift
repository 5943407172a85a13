/// glibc gives each thread that allocates its own malloc arena (up to 8 per core) and keeps what
/// is freed in it: resizing photos on every core would hold every thread's peak at once. Two
/// arenas, set before any other thread starts (later has no effect), bring a cold build of 20
/// twelve-megapixel photos on two threads from 239–266 MB to about 155 MB peak RSS, no slower.
enum MemoryBound {
    /// glibc's `mallopt(M_ARENA_MAX, n)`; <malloc.h> is not part of Swift's Glibc module.
    @_silgen_name("mallopt") private static func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
    private static let arenaMax: Int32 = -8  // M_ARENA_MAX

    static func limitMallocArenas() {
        #if os(Linux)
            _ = mallopt(arenaMax, 2)
        #endif
    }
}
