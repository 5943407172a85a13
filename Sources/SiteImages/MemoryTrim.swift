/// Gives the memory malloc holds free back to the system (glibc's `malloc_trim(0)`: free pages
/// anywhere in its heaps, not only at their top). Called before the image phase, whose encodes
/// make a build's peak: what loading freed (a site's notes rendered, its datasets read) is not
/// counted twice. Its only effect is the peak resident memory (e2e/test_image_memory.py bounds it).
public enum MemoryTrim {
    @_silgen_name("malloc_trim") private static func mallocTrim(_ pad: Int) -> Int32

    public static func now() {
        #if os(Linux)
        _ = mallocTrim(0)
        #endif
    }
}
