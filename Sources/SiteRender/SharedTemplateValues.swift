import Foundation
import Synchronization

/// Records converted once and shared by every page that shows them: an item appears on its own
/// page, on its neighbours' pages and on a list page, and converting its view
/// costs more than rendering it. Filled lazily by the rendering threads (an incremental rebuild
/// converts only what the pages it renders show).
public final class SharedTemplateValues: Sendable {
    private let slots: Mutex<[TemplateValue?]>
    let names: TemplateNames

    public init(count: Int, names: TemplateNames) {
        slots = Mutex(Array(repeating: nil, count: count))
        self.names = names
    }

    /// The converted record at `index`, made from `record` the first time.
    public func value(_ index: Int, _ record: () -> TemplateValue) -> TemplateValue {
        if let v = slots.withLock({ $0[index] }) { return v }
        // Two threads may convert the same record at once: both results are equal.
        let v = record()
        slots.withLock { $0[index] = v }
        return v
    }
}
