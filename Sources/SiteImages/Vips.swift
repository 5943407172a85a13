import CVipsLoader
import Foundation

/// libvips, loaded and started the first time an image is resized (see CVipsLoader), tuned for
/// many images in parallel: each image on one thread (sitegen runs one per core) and no
/// operation cache (every source is seen once). The allocator is tuned then too (`FreedMemory`).
enum Vips {
    /// Why libvips could not start, or nil once it has.
    static let startFailure: String? = {
        FreedMemory.forImages()
        guard sgv_start() == 0 else {
            let why = String(cString: sgv_start_failure())
            return why.isEmpty ? "libvips gave no reason" : why
        }
        return nil
    }()

    private static let gate = ReadWriteLock()

    /// Starts libvips if it has not started; every call into it goes through `shared` or `alone`
    /// (before the start its functions are not resolved).
    static func started() throws(ImageFailure) {
        if let failure = startFailure { throw ImageFailure("libvips did not start: \(failure)") }
    }

    /// Runs `work` beside other such work (libvips calls on several threads at once), once
    /// libvips has started.
    static func shared<T>(_ work: () throws(ImageFailure) -> T) throws(ImageFailure) -> T {
        try started()
        gate.lockShared()
        defer { gate.unlock() }
        return try work()
    }

    /// Runs `work` while no other thread calls libvips, so the error text is its own alone:
    /// cleared first of what other pictures' decodes left there (their warnings) before the
    /// lock was taken.
    static func alone<T>(_ work: () throws(ImageFailure) -> T) throws(ImageFailure) -> T {
        try started()
        gate.lockExclusive()
        defer { gate.unlock() }
        sgv_error_clear()  // others' warnings
        return try work()
    }

    /// Whether libvips generates vector code at run time (off: see CVipsLoader's `sgv_start`).
    static var generatesVectorCode: Bool { sgv_vector_enabled() != 0 }

    /// libvips' error text since the last call (it keeps one buffer per process), cleared.
    static func takeError() -> String {
        let text = sgv_error_buffer().map { String(cString: $0) } ?? ""
        sgv_error_clear()
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return lines.isEmpty ? "libvips gave no reason" : lines.joined(separator: "; ")
    }
}

/// An owned `VipsImage`, released when dropped. Sendable: an image is never changed once made
/// (operations make new ones) and its reference count is atomic, so several threads may read one
/// (the encodes of one decoded picture run in parallel).
final class VipsHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { sgv_unref(pointer) }

    var width: Int { Int(sgv_width(pointer)) }
    var height: Int { Int(sgv_height(pointer)) }
    var bands: Int { Int(sgv_bands(pointer)) }
    var hasAlpha: Bool { sgv_has_alpha(pointer) != 0 }

    /// Runs a libvips operation that makes a new image, or throws its error text.
    static func make(_ what: String, _ op: (UnsafeMutablePointer<OpaquePointer?>) -> Int32) throws(ImageFailure)
        -> VipsHandle
    {
        var out: OpaquePointer? = nil
        guard op(&out) == 0, let out else { throw ImageFailure("\(what): \(Vips.takeError())") }
        return VipsHandle(out)
    }

    /// Runs a libvips saver, or throws its error text.
    func save(
        _ what: String, _ op: (UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32
    ) throws(ImageFailure) -> Data {
        var buffer: UnsafeMutableRawPointer? = nil
        var length = 0
        guard op(&buffer, &length) == 0, let buffer else { throw ImageFailure("\(what): \(Vips.takeError())") }
        defer { sgv_free(buffer) }
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
