#if canImport(CTCMalloc)
    import CTCMalloc
#endif

/// sitegen allocates with tcmalloc (Package.swift's CTCMalloc), whose thread caches and lists of
/// free pages make a build of many small allocations fast but would hold the image phase's
/// peaks: the AV1 encoder's working memory (up to ~200 MB for one picture, in blocks of many
/// sizes) is freed encode after encode. Left as it is, a cold build of the example site on one
/// thread peaked at 239 MB (release build); tuned when libvips starts, at 163 MB (glibc's malloc:
/// 173 MB). A build with no image to resize keeps tcmalloc's defaults, and its speed.
enum FreedMemory {
    /// What the threads' caches hold together (tcmalloc's default: 32 MB): a one-thread build's
    /// peak holds its whole cache (the example site: 186 → 163 MB).
    static let threadCacheBytes = 8 << 20

    /// Every run of free pages goes back to the system as soon as it is freed (tcmalloc's
    /// aggressive decommit: 239 → 186 MB), and the threads' caches shrink to `threadCacheBytes`.
    static func forImages() {
        #if canImport(CTCMalloc)
            _ = MallocExtension_SetNumericProperty("tcmalloc.aggressive_memory_decommit", 1)
            _ = MallocExtension_SetNumericProperty("tcmalloc.max_total_thread_cache_bytes", threadCacheBytes)
        #endif
    }

    /// tcmalloc's setting `name`, nil where tcmalloc is not the allocator.
    static func setting(_ name: String) -> Int? {
        #if canImport(CTCMalloc)
            var value = 0
            return MallocExtension_GetNumericProperty(name, &value) != 0 ? value : nil
        #else
            return nil
        #endif
    }
}
