/// Reads Mustache text into a `MustacheProgram`, with swift-mustache's rules for standalone
/// lines, whitespace and errors (so every template renders to the same bytes as before).
struct MustacheParser {
    enum Failure: Error {
        case overflow, unfinishedName, sectionCloseNameIncorrect, expectedSectionEnd, invalidSetDelimiter
        case transformAppliedToInheritanceSection, illegalTokenInsideInheritSection, invalidPragma
    }

    struct State {
        var sectionName: Substring?
        var sectionTransforms: [Substring] = []
        var newLine = true
        var isPartialDefinition = false
        var isPartialDefinitionTopLevel = false
        var start: [UInt8] = Array("{{".utf8)
        var end: [UInt8] = Array("}}".utf8)
        var partialDefinitionIndent: Int?

        func section(_ name: Substring, newLine: Bool, transforms: [Substring] = []) -> State {
            var s = self
            s.sectionName = name
            s.sectionTransforms = transforms
            s.isPartialDefinitionTopLevel = false
            if !newLine { s.newLine = false }
            return s
        }
    }

    let bytes: [UInt8]
    let templateName: String
    var pos = 0
    var ops: [MustacheOp] = []
    var pool: [UInt8] = []
    var names: TemplateNames
    /// When set (text returned by a function, read while rendering), new names are not added.
    let frozen: Bool
    let partials: [String: Int]

    init(_ text: String, name: String, names: TemplateNames, partials: [String: Int], frozen: Bool = false) {
        self.bytes = Array(text.utf8)
        self.templateName = name
        self.names = names
        self.partials = partials
        self.frozen = frozen
    }

    /// Compiles the whole text.
    mutating func compile() throws(MustacheSyntaxError) -> MustacheProgram {
        do {
            _ = try parse(State())
        } catch {
            throw located(error)
        }
        return MustacheProgram(name: templateName, ops: ops, bytes: pool)
    }

    // MARK: - The reading loop (swift-mustache's `parse(_:state:)`, on UTF-8 bytes)

    /// Parses until the end of the section `state` is in (or of the text); returns the indices
    /// of the operations added at this level and the section's source text.
    mutating func parse(_ initial: State) throws(Failure) -> (top: [Int], raw: Range<Int>) {
        var state = initial
        var top: [Int] = []
        var whiteSpaceBefore: Range<Int> = pos..<pos
        let origin = pos
        func emit(_ op: MustacheOp, _ ops: inout [MustacheOp]) { top.append(ops.count); ops.append(op) }
        while pos < bytes.count {
            if state.newLine {
                let ws = readSpacesAndTabs()
                if state.isPartialDefinition, !state.isPartialDefinitionTopLevel {
                    if let indent = state.partialDefinitionIndent {
                        whiteSpaceBefore = min(ws.lowerBound + indent, ws.upperBound)..<ws.upperBound
                    } else {
                        state.partialDefinitionIndent = ws.count
                    }
                } else {
                    whiteSpaceBefore = ws
                }
            }
            let text = try readUntilDelimiterOrNewline(state)
            let nl = newlineLength(at: pos)
            if nl > 0 {
                emit(.text(addText(whiteSpaceBefore, text, pos..<(pos + nl))), &ops)
                state.newLine = true
                pos += nl
                continue
            }
            if !text.isEmpty {
                emit(.text(addText(whiteSpaceBefore, text)), &ops)
                whiteSpaceBefore = pos..<pos
                state.newLine = false
            }
            if pos >= bytes.count { break }
            var setNewLine = false
            func flushWhiteSpace(clear: Bool = true) {
                if !whiteSpaceBefore.isEmpty { emit(.text(addText(whiteSpaceBefore)), &ops) }
                if clear { whiteSpaceBefore = pos..<pos }
            }
            switch bytes[pos] {
            case UInt8(ascii: "#"), UInt8(ascii: "^"):
                let inverted = bytes[pos] == UInt8(ascii: "^")
                pos += 1
                let (name, transforms) = try parseName(state)
                if isStandalone(state) { setNewLine = true } else { flushWhiteSpace() }
                let at = ops.count
                emit(.text(0..<0), &ops)
                let body = try parse(state.section(name, newLine: setNewLine, transforms: transforms))
                let resolved = resolve(name, transforms)
                ops[at] = inverted ? .inverted(resolved, end: ops.count)
                    : .section(resolved, end: ops.count, raw: String(decoding: bytes[body.raw], as: UTF8.self))
            case UInt8(ascii: "/"):
                let sectionStart = retreat(from: pos, characters: 2)
                pos += 1
                let position = pos
                let (name, transforms) = try parseName(state)
                guard let open = state.sectionName, name == open, transforms == state.sectionTransforms else {
                    pos = position
                    throw .sectionCloseNameIncorrect
                }
                if !isStandalone(state) { flushWhiteSpace() }
                return (top, origin..<sectionStart)
            case UInt8(ascii: "!"):
                pos += 1
                try skipComment(state)
                setNewLine = isStandalone(state)
            case UInt8(ascii: "{"), UInt8(ascii: "&"):
                let triple = bytes[pos] == UInt8(ascii: "{")
                flushWhiteSpace()
                pos += 1
                let (name, transforms) = try parseName(state)
                if triple {
                    guard pos < bytes.count else { throw .overflow }
                    guard bytes[pos] == UInt8(ascii: "}") else { throw .unfinishedName }
                    pos += 1
                }
                emit(.variable(resolve(name, transforms), escaped: false), &ops)
            case UInt8(ascii: ">"):
                pos += 1
                skipWhitespace()
                var dynamic = false
                if pos < bytes.count, bytes[pos] == UInt8(ascii: "*") { pos += 1; dynamic = true }
                let name = try parsePartialName(state)
                flushWhiteSpace(clear: false)
                var partial = makePartial(name, dynamic: dynamic)
                if isStandalone(state) {
                    setNewLine = true
                    partial.indentation = Array(bytes[whiteSpaceBefore])
                }
                emit(.partial(partial, next: ops.count + 1), &ops)
                whiteSpaceBefore = pos..<pos
            case UInt8(ascii: "<"):
                pos += 1
                skipWhitespace()
                let sectionName = try parsePartialName(state)
                flushWhiteSpace(clear: false)
                if isStandalone(state) { setNewLine = true }
                let at = ops.count
                emit(.text(0..<0), &ops)
                var inner = state.section(sectionName, newLine: true)
                inner.newLine = true
                inner.isPartialDefinition = true
                inner.isPartialDefinitionTopLevel = true
                let body = try parse(inner)
                var blocks: [MustacheBlock] = []
                for k in body.top {
                    switch ops[k] {
                    case .blockDefinition(let id, let end): blocks.append(MustacheBlock(name: id, program: extract(k + 1..<end)))
                    case .text: continue
                    default: throw .illegalTokenInsideInheritSection
                    }
                }
                let dynamic = sectionName.first == "*"
                var partial = makePartial(dynamic ? sectionName.dropFirst() : sectionName, dynamic: dynamic)
                partial.indentation = Array(bytes[whiteSpaceBefore])
                partial.blocks = blocks
                ops[at] = .partial(partial, next: ops.count)
                whiteSpaceBefore = pos..<pos
            case UInt8(ascii: "$"):
                pos += 1
                let (name, transforms) = try parseName(state)
                guard transforms.isEmpty else { throw .transformAppliedToInheritanceSection }
                let id = intern(name)
                if state.isPartialDefinitionTopLevel {
                    if isStandalone(state) { setNewLine = true }
                    let at = ops.count
                    emit(.text(0..<0), &ops)
                    _ = try parse(state.section(name, newLine: setNewLine))
                    ops[at] = .blockDefinition(name: id, end: ops.count)
                } else {
                    flushWhiteSpace(clear: false)
                    if isStandalone(state) { setNewLine = true }
                    let indentation = Array(bytes[whiteSpaceBefore])
                    let at = ops.count
                    emit(.text(0..<0), &ops)
                    _ = try parse(state.section(name, newLine: setNewLine))
                    ops[at] = .block(name: id, end: ops.count, indentation: indentation)
                    whiteSpaceBefore = pos..<pos
                }
            case UInt8(ascii: "="):
                pos += 1
                try setDelimiters(&state)
                setNewLine = isStandalone(state)
            case UInt8(ascii: "%"):
                pos += 1
                emit(.contentType(try readPragma(state)), &ops)
                setNewLine = isStandalone(state)
            default:
                flushWhiteSpace()
                let (name, transforms) = try parseName(state)
                emit(.variable(resolve(name, transforms), escaped: true), &ops)
            }
            state.newLine = setNewLine
        }
        guard state.sectionName == nil else { throw .expectedSectionEnd }
        return (top, origin..<pos)
    }
}

/// What the reading loop builds: text in the pool, names resolved to ids, block bodies cut out
/// as programs of their own, and errors located as swift-mustache locates them.
extension MustacheParser {
    /// Appends the bytes of `ranges` to the text pool; their place there.
    mutating func addText(_ ranges: Range<Int>...) -> Range<Int> {
        let start = pool.count
        for r in ranges { pool.append(contentsOf: bytes[r]) }
        return start..<pool.count
    }

    mutating func intern(_ name: Substring) -> Int32 {
        frozen ? names.id(of: String(name)) : names.intern(name)
    }

    mutating func resolve(_ name: Substring, _ transforms: [Substring]) -> MustacheName {
        let applied = transforms.reversed().map(MustacheTransform.init)
        if name == "." { return MustacheName(root: .current, ids: [], transforms: applied) }
        if name.isEmpty, !transforms.isEmpty { return MustacheName(root: .position, ids: [], transforms: applied) }
        let ids = name.split(separator: ".").map { intern($0) }
        let root: MustacheName.Root = name.first == "." || ids.isEmpty ? .current : .stack
        if !frozen, applied.contains(where: { $0 == .sorted || $0 == .enumerated }) { names.keepsAllEntries = true }
        return MustacheName(root: root, ids: ids, transforms: applied)
    }

    mutating func makePartial(_ name: Substring, dynamic: Bool) -> MustachePartial {
        MustachePartial(name: String(name), index: dynamic ? nil : partials[String(name)],
                        dynamic: dynamic ? resolve(name, []) : nil, indentation: nil, blocks: nil)
    }

    /// Operations `range` as a program of their own (a block's body), their jumps made relative.
    func extract(_ range: Range<Int>) -> MustacheProgram {
        let base = range.lowerBound
        let ops = ops[range].map { op -> MustacheOp in
            switch op {
            case .section(let n, let end, let raw): .section(n, end: end - base, raw: raw)
            case .inverted(let n, let end): .inverted(n, end: end - base)
            case .partial(let p, let next): .partial(p, next: next - base)
            case .block(let id, let end, let indentation): .block(name: id, end: end - base, indentation: indentation)
            case .blockDefinition(let id, let end): .blockDefinition(name: id, end: end - base)
            case .text, .variable, .contentType: op
            }
        }
        return MustacheProgram(name: templateName, ops: ops, bytes: pool)
    }

    /// The error at the reader's position: line counted over every line break before it, column
    /// in characters since the last `\n`.
    func located(_ failure: Failure) -> MustacheSyntaxError {
        let at = min(pos, bytes.count)
        var line = 1, i = 0
        while i < at {
            let n = newlineLength(at: i)
            if n > 0 { line += 1; i += n } else { i += 1 }
        }
        // Back to the last `\n` Character (one of `\r\n` is not one, as in swift-mustache).
        var lineStart = at
        while lineStart > 0, !(bytes[lineStart - 1] == 0x0A && (lineStart < 2 || bytes[lineStart - 2] != 0x0D)) { lineStart -= 1 }
        let column = String(decoding: bytes[lineStart..<at], as: UTF8.self).count + 1
        return MustacheSyntaxError(template: templateName, line: line, column: column, message: Self.describe(failure))
    }

    static func describe(_ failure: Failure) -> String {
        switch failure {
        case .overflow: "the text ends inside a tag (missing }})"
        case .sectionCloseNameIncorrect: "a closing tag does not match the open section"
        case .unfinishedName: "a tag is not closed with }}"
        case .expectedSectionEnd: "a section is not closed (missing {{/name}})"
        case .invalidSetDelimiter: "invalid set-delimiter tag"
        case .transformAppliedToInheritanceSection: "a transform cannot apply to an inheritance section"
        case .illegalTokenInsideInheritSection: "only blocks ({{$name}}) may appear inside a parent ({{<name}})"
        case .invalidPragma: "invalid pragma"
        }
    }
}
