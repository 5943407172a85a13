import Foundation

/// A flag that is set once and read from any thread (e.g. "the server is up", "stop requested").
public final class OnceFlag: @unchecked Sendable {  // the value is guarded by the lock
    private let lock = NSLock()
    private var value = false

    public init() {}

    public var isSet: Bool { lock.withLock { value } }

    public func set() { lock.withLock { value = true } }
}
