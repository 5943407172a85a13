import SiteCore

/// The arrays and dictionaries a text reader (JSON, XML plist) has opened and not yet closed,
/// kept on an explicit stack so deep input is an error instead of a stack overflow, and the
/// bookkeeping of `location(of:)`: whether the value being read is the one on the wanted path.
struct OpenContainers {
    struct Frame {
        var isDictionary: Bool
        var array: [Value] = []
        var dictionary: [String: Value] = [:]
        /// The key whose value is being read (dictionaries only).
        var key = ""
        /// Whether this container lies on the path being located.
        var onPath = false
    }

    var frames: [Frame] = []
    /// The wanted path, when locating; nil when reading.
    let target: [PathComponent]?
    /// Where the value at `target` starts, once read.
    var foundOffset: Int?
    /// The next value read is the one at `target`.
    var markNext: Bool
    private var nextOnPath = true
    /// Record where each element of the array at `target` starts (instead of the array itself).
    let collectsElements: Bool
    /// Where each element of the array at `target` starts, when collecting.
    var elementOffsets: [Int] = []
    private var markElement = false

    init(target: [PathComponent]?, collectsElements: Bool = false) {
        self.target = target
        self.collectsElements = collectsElements
        self.markNext = !collectsElements && (target?.isEmpty ?? false)
    }

    /// Opens a container; false when that would nest deeper than `maximumNestingDepth`.
    mutating func push(isDictionary: Bool) -> Bool {
        guard frames.count < maximumNestingDepth else { return false }
        frames.append(Frame(isDictionary: isDictionary, onPath: nextOnPath))
        return true
    }

    /// Records `offset` when the value starting there is the located one.
    @inline(__always)
    mutating func valueStarts(at offset: Int) {
        if markNext {
            foundOffset = offset
            markNext = false
        }
        if markElement {
            elementOffsets.append(offset)
            markElement = false
        }
    }

    /// An array closed where its next element could have started: no element to mark.
    mutating func arrayEndsInsteadOfValue() {
        markNext = false
        markElement = false
    }

    /// Notes whether the next value of the innermost container is (or leads to) the located path.
    @inline(__always)
    mutating func locateChild(_ component: PathComponent) {
        guard let target else { return }
        let level = frames.count - 1
        if collectsElements && level == target.count && frames[level].onPath {
            markElement = true
            nextOnPath = false
            return
        }
        let match = frames[level].onPath && level < target.count && target[level] == component
        markNext = !collectsElements && match && level + 1 == target.count
        nextOnPath = match && (level + 1 < target.count || (collectsElements && level + 1 == target.count))
    }
}
