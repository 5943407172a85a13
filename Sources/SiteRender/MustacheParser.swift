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
    /// When set, every tag read is noted here (for the template checks, which render nothing).
    var tagLog: TagLog?
    /// Where the tag being read starts (its opening delimiter).
    var tagStart = 0

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

    /// What one nesting level is reading: its state, the operations it added, the indentation
    /// of the current line not yet written, and whether the tag just read was alone on its line.
    struct Level {
        var state: State
        var top: [Int] = []
        var whiteSpace: Range<Int>
        var setNewLine = false
    }

    /// Parses until the end of the section `state` is in (or of the text); returns the indices
    /// of the operations added at this level and the section's source text.
    mutating func parse(_ initial: State) throws(Failure) -> (top: [Int], raw: Range<Int>) {
        var level = Level(state: initial, whiteSpace: pos..<pos)
        let origin = pos
        while pos < bytes.count {
            if level.state.newLine { readIndentation(&level) }
            let text = try readUntilDelimiterOrNewline(level.state)
            let nl = newlineLength(at: pos)
            if nl > 0 {
                emit(.text(addText(level.whiteSpace, text, pos..<(pos + nl))), &level)
                level.state.newLine = true
                pos += nl
                continue
            }
            if !text.isEmpty {
                emit(.text(addText(level.whiteSpace, text)), &level)
                level.whiteSpace = pos..<pos
                level.state.newLine = false
            }
            if pos >= bytes.count { break }
            level.setNewLine = false
            tagStart = text.upperBound
            if let sectionEnd = try readTag(&level) { return (level.top, origin..<sectionEnd) }
            level.state.newLine = level.setNewLine
        }
        guard level.state.sectionName == nil else { throw .expectedSectionEnd }
        return (level.top, origin..<pos)
    }

    /// A line's leading spaces and tabs; inside a parent's blocks, less the first line's indentation.
    mutating func readIndentation(_ level: inout Level) {
        let ws = readSpacesAndTabs()
        guard level.state.isPartialDefinition, !level.state.isPartialDefinitionTopLevel else {
            level.whiteSpace = ws; return
        }
        if let indent = level.state.partialDefinitionIndent {
            level.whiteSpace = min(ws.lowerBound + indent, ws.upperBound)..<ws.upperBound
        } else {
            level.state.partialDefinitionIndent = ws.count
        }
    }

    /// Reads the tag whose opening delimiter was just read; the start of the closing tag when it
    /// closes the section being read.
    mutating func readTag(_ level: inout Level) throws(Failure) -> Int? {
        switch bytes[pos] {
        case UInt8(ascii: "#"), UInt8(ascii: "^"): try readSection(&level)
        case UInt8(ascii: "/"): return try readClose(&level)
        case UInt8(ascii: "!"):
            pos += 1
            note(.comment)
            try skipComment(level.state)
            level.setNewLine = isStandalone(level.state)
        case UInt8(ascii: "{"), UInt8(ascii: "&"): try readRawVariable(&level)
        case UInt8(ascii: ">"): try readPartial(&level)
        case UInt8(ascii: "<"): try readParent(&level)
        case UInt8(ascii: "$"): try readBlock(&level)
        case UInt8(ascii: "="):
            pos += 1
            note(.delimiters)
            try setDelimiters(&level.state)
            level.setNewLine = isStandalone(level.state)
        case UInt8(ascii: "%"):
            pos += 1
            note(.pragma)
            emit(.contentType(try readPragma(level.state)), &level)
            level.setNewLine = isStandalone(level.state)
        default:
            flushWhiteSpace(&level)
            let (name, transforms) = try parseName(level.state)
            note(.variable, name)
            emit(.variable(resolve(name, transforms), escaped: true), &level)
        }
        return nil
    }

    /// Notes the tag being read, when tags are logged.
    mutating func note(_ kind: TemplateTag.Kind, _ name: Substring = "") {
        tagLog?.add(kind, String(name), at: tagStart, in: bytes)
    }

    mutating func emit(_ op: MustacheOp, _ level: inout Level) {
        level.top.append(ops.count)
        ops.append(op)
    }

    /// Writes the line's pending indentation as text (and forgets it unless `clear` is false).
    mutating func flushWhiteSpace(_ level: inout Level, clear: Bool = true) {
        if !level.whiteSpace.isEmpty { emit(.text(addText(level.whiteSpace)), &level) }
        if clear { level.whiteSpace = pos..<pos }
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
        MustachePartial(
            name: String(name), index: dynamic ? nil : partials[String(name)],
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
        // swift-mustache counts the Characters of the line breaks put together, where a lone
        // `\r` and the next break if it is a lone `\n` make one `\r\n`.
        var line = 1, i = 0, afterLoneCR = false
        while i < at {
            let n = newlineLength(at: i)
            guard n > 0 else { i += 1; continue }
            let loneLF = n == 1 && bytes[i] == 0x0A
            if !(loneLF && afterLoneCR) { line += 1 }
            afterLoneCR = n == 1 && bytes[i] == 0x0D && !(loneLF && afterLoneCR)
            i += n
        }
        // Back to the last `\n` Character (one of `\r\n` is not one, as in swift-mustache).
        var lineStart = at
        while lineStart > 0, !(bytes[lineStart - 1] == 0x0A && (lineStart < 2 || bytes[lineStart - 2] != 0x0D)) {
            lineStart -= 1
        }
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
