import CVips
import Foundation

/// libvips, started once per process and tuned for many images in parallel: each image on one
/// thread (sitegen runs one per core) and no operation cache (every source is seen once).
enum Vips {
    /// Why libvips could not start, or nil once it has.
    static let startFailure: String? = {
        guard sg_vips_init() == 0 else { return takeError() }
        vips_concurrency_set(1)
        vips_cache_set_max(0)
        vips_cache_set_max_mem(0)
        vips_cache_set_max_files(0)
        return nil
    }()

    private static let gate = ReadWriteLock()

    /// Runs `work` beside other such work (libvips calls on several threads at once).
    static func shared<T>(_ work: () throws(ImageFailure) -> T) throws(ImageFailure) -> T {
        gate.lockShared()
        defer { gate.unlock() }
        return try work()
    }

    /// Runs `work` while no other thread calls libvips, so the error text is its own alone.
    static func alone<T>(_ work: () throws(ImageFailure) -> T) throws(ImageFailure) -> T {
        gate.lockExclusive()
        defer { gate.unlock() }
        return try work()
    }

    /// Whether libvips generates vector code at run time (off: see `sg_vips_init`).
    static var generatesVectorCode: Bool { sg_vips_vector_enabled() != 0 }

    /// libvips' error text since the last call (it keeps one buffer per process), cleared.
    static func takeError() -> String {
        let text = vips_error_buffer().map { String(cString: $0) } ?? ""
        vips_error_clear()
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return lines.isEmpty ? "libvips gave no reason" : lines.joined(separator: "; ")
    }
}

/// An owned `VipsImage`, released when dropped.
final class VipsHandle {
    let pointer: UnsafeMutablePointer<VipsImage>
    init(_ pointer: UnsafeMutablePointer<VipsImage>) { self.pointer = pointer }
    deinit { sg_unref(pointer) }

    var width: Int { Int(vips_image_get_width(pointer)) }
    var height: Int { Int(vips_image_get_height(pointer)) }
    var bands: Int { Int(vips_image_get_bands(pointer)) }
    var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }

    /// Runs a libvips operation that makes a new image, or throws its error text.
    static func make(_ what: String, _ op: (UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32) throws(ImageFailure) -> VipsHandle {
        var out: UnsafeMutablePointer<VipsImage>? = nil
        guard op(&out) == 0, let out else { throw ImageFailure("\(what): \(Vips.takeError())") }
        return VipsHandle(out)
    }

    /// Runs a libvips saver, or throws its error text.
    func save(_ what: String, _ op: (UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32) throws(ImageFailure) -> Data {
        var buffer: UnsafeMutableRawPointer? = nil
        var length = 0
        guard op(&buffer, &length) == 0, let buffer else { throw ImageFailure("\(what): \(Vips.takeError())") }
        defer { g_free(buffer) }
        return Data(bytes: buffer, count: length)
    }
}

/// Why an image could not be processed (the caller adds the file and the item).
public struct ImageFailure: Error, Sendable, Hashable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// A POSIX read-write lock: many readers or one writer.
final class ReadWriteLock: @unchecked Sendable {  // the pthread lock is the synchronisation itself
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    func lockShared() { pthread_rwlock_rdlock(lock) }
    func lockExclusive() { pthread_rwlock_wrlock(lock) }
    func unlock() { pthread_rwlock_unlock(lock) }
}
