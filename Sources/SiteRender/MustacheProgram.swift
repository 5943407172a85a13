/// A template compiled to a flat list of operations: sections and blocks hold the index where
/// their body ends, so rendering is a loop over an array with no tree and no names to hash.
final class MustacheProgram: Sendable {
    let name: String
    let ops: [MustacheOp]
    /// The bytes of every text operation.
    let bytes: [UInt8]

    init(name: String, ops: [MustacheOp], bytes: [UInt8]) {
        self.name = name
        self.ops = ops
        self.bytes = bytes
    }
}

/// How printed values are escaped (`{{% CONTENT_TYPE: … }}` can change it for the rest of a
/// template): sitegen's HTML (escaping plus URL neutralisation), plain HTML, or text as it is.
enum MustacheEscaping: Sendable { case sitegen, html, text }

/// A name as a template writes it, resolved to ids: `a.b.c`, `.` (the current value), `.a`
/// (only the current value), or empty with transforms (`index()`: the list position).
struct MustacheName: Sendable {
    enum Root: Sendable { case stack, current, position }
    var root: Root
    var ids: [Int32]
    /// Applied in this order (innermost first: `first(reversed(x))` reverses, then takes the first).
    var transforms: [MustacheTransform]
}

enum MustacheTransform: Sendable {
    case empty, capitalized, lowercased, uppercased, reversed, first, last, count, sorted, enumerated
    case equalzero, plusone, minusone, even, odd, index
    case unknown

    init(_ name: Substring) {
        switch name {
        case "empty": self = .empty
        case "capitalized": self = .capitalized
        case "lowercased": self = .lowercased
        case "uppercased": self = .uppercased
        case "reversed": self = .reversed
        case "first": self = .first
        case "last": self = .last
        case "count": self = .count
        case "sorted": self = .sorted
        case "enumerated": self = .enumerated
        case "equalzero": self = .equalzero
        case "plusone": self = .plusone
        case "minusone": self = .minusone
        case "even": self = .even
        case "odd": self = .odd
        case "index": self = .index
        default: self = .unknown
        }
    }
}

/// A `{{$name}}…{{/name}}` given inside `{{<parent}}`: its body, compiled on its own.
struct MustacheBlock: Sendable {
    var name: Int32
    var program: MustacheProgram
}

enum MustacheOp: Sendable {
    case text(Range<Int>)
    case variable(MustacheName, escaped: Bool)
    /// Body is the next operation up to `end`; `raw` is the section's source text (for functions).
    case section(MustacheName, end: Int, raw: String)
    case inverted(MustacheName, end: Int)
    /// A partial or parent; `next` is where rendering continues (after a parent's block list).
    case partial(MustachePartial, next: Int)
    /// A block a parent template lets its children replace; its default body runs up to `end`.
    case block(name: Int32, end: Int, indentation: [UInt8])
    /// A block given inside a parent (never run in place: the parent's `next` skips it).
    case blockDefinition(name: Int32, end: Int)
    case contentType(MustacheEscaping)
}

struct MustachePartial: Sendable {
    /// The template's name, or for `{{>*name}}` the name of the value holding it.
    var name: String
    /// The template's place in the library (nil: no such template, or dynamic).
    var index: Int?
    var dynamic: MustacheName?
    /// Set for a standalone partial and for every parent: its lines are indented so.
    var indentation: [UInt8]?
    /// Set for a parent (`{{<name}}`): the blocks it replaces.
    var blocks: [MustacheBlock]?
}

/// A syntax error in a template: where the reader stopped (as swift-mustache reports it).
public struct MustacheSyntaxError: Error, Sendable, Equatable {
    public var template: String
    public var line: Int
    public var column: Int
    public var message: String
}
