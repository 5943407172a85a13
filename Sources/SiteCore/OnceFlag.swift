import Foundation
import Synchronization

/// A flag that is set once and read from any thread (e.g. "the server is up", "stop requested").
public final class OnceFlag: Sendable {
    private let value = Mutex(false)

    public init() {}

    public var isSet: Bool { value.withLock { $0 } }

    public func set() { value.withLock { $0 = true } }
}
