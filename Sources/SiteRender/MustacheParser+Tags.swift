/// The tags that open or close a part of the program: sections, partials, parents and blocks,
/// with swift-mustache's rules for the whitespace around them.
extension MustacheParser {
    /// `{{#name}}` or `{{^name}}` and its body.
    mutating func readSection(_ level: inout Level) throws(Failure) {
        let inverted = bytes[pos] == UInt8(ascii: "^")
        pos += 1
        let (name, transforms) = try parseName(level.state)
        note(inverted ? .inverted : .section, name)
        if isStandalone(level.state) { level.setNewLine = true } else { flushWhiteSpace(&level) }
        let at = ops.count
        emit(.text(0..<0), &level)
        let body = try parse(level.state.section(name, newLine: level.setNewLine, transforms: transforms))
        let resolved = resolve(name, transforms)
        ops[at] =
            inverted
            ? .inverted(resolved, end: ops.count)
            : .section(resolved, end: ops.count, raw: String(decoding: bytes[body.raw], as: UTF8.self))
    }

    /// `{{/name}}`: it must close the section being read; where its tag starts.
    mutating func readClose(_ level: inout Level) throws(Failure) -> Int {
        let sectionStart = retreat(from: pos, characters: 2)
        pos += 1
        let position = pos
        let (name, transforms) = try parseName(level.state)
        note(.close, name)
        guard let open = level.state.sectionName, name == open, transforms == level.state.sectionTransforms else {
            pos = position
            throw .sectionCloseNameIncorrect
        }
        if !isStandalone(level.state) { flushWhiteSpace(&level) }
        return sectionStart
    }

    /// `{{{name}}}` or `{{&name}}`.
    mutating func readRawVariable(_ level: inout Level) throws(Failure) {
        let triple = bytes[pos] == UInt8(ascii: "{")
        flushWhiteSpace(&level)
        pos += 1
        let (name, transforms) = try parseName(level.state)
        note(.variable, name)  // as `{{name}}`, unescaped
        if triple {
            guard pos < bytes.count else { throw .overflow }
            guard bytes[pos] == UInt8(ascii: "}") else { throw .unfinishedName }
            pos += 1
        }
        emit(.variable(resolve(name, transforms), escaped: false), &level)
    }

    /// `{{>name}}` or `{{>*name}}`: standalone, its lines are indented as the tag is.
    mutating func readPartial(_ level: inout Level) throws(Failure) {
        pos += 1
        skipWhitespace()
        var dynamic = false
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "*") { pos += 1; dynamic = true }
        let name = try parsePartialName(level.state)
        note(.partial, dynamic ? "*" + name : name)
        flushWhiteSpace(&level, clear: false)
        var partial = makePartial(name, dynamic: dynamic)
        if isStandalone(level.state) {
            level.setNewLine = true
            partial.indentation = Array(bytes[level.whiteSpace])
        }
        emit(.partial(partial, next: ops.count + 1), &level)
        level.whiteSpace = pos..<pos
    }

    /// `{{<parent}}…{{/parent}}`: only blocks (and text, ignored) inside; each block becomes a
    /// program of its own that replaces the parent's block of the same name.
    mutating func readParent(_ level: inout Level) throws(Failure) {
        pos += 1
        skipWhitespace()
        let sectionName = try parsePartialName(level.state)
        note(.parent, sectionName)
        flushWhiteSpace(&level, clear: false)
        if isStandalone(level.state) { level.setNewLine = true }
        let at = ops.count
        emit(.text(0..<0), &level)
        var inner = level.state.section(sectionName, newLine: true)
        inner.newLine = true
        inner.isPartialDefinition = true
        inner.isPartialDefinitionTopLevel = true
        let body = try parse(inner)
        var blocks: [MustacheBlock] = []
        for k in body.top {
            switch ops[k] {
            case .blockDefinition(let id, let end):
                blocks.append(MustacheBlock(name: id, program: extract(k + 1..<end)))
            case .text: continue
            default: throw .illegalTokenInsideInheritSection
            }
        }
        let dynamic = sectionName.first == "*"
        var partial = makePartial(dynamic ? sectionName.dropFirst() : sectionName, dynamic: dynamic)
        partial.indentation = Array(bytes[level.whiteSpace])
        partial.blocks = blocks
        ops[at] = .partial(partial, next: ops.count)
        level.whiteSpace = pos..<pos
    }

    /// `{{$name}}…{{/name}}`: a block given to a parent (directly inside `{{<parent}}`), or a
    /// block of this template that a child may replace.
    mutating func readBlock(_ level: inout Level) throws(Failure) {
        pos += 1
        let (name, transforms) = try parseName(level.state)
        note(.block, name)
        guard transforms.isEmpty else { throw .transformAppliedToInheritanceSection }
        let id = intern(name)
        let given = level.state.isPartialDefinitionTopLevel
        if !given { flushWhiteSpace(&level, clear: false) }
        if isStandalone(level.state) { level.setNewLine = true }
        let indentation = Array(bytes[level.whiteSpace])
        let at = ops.count
        emit(.text(0..<0), &level)
        _ = try parse(level.state.section(name, newLine: level.setNewLine))
        if given {
            ops[at] = .blockDefinition(name: id, end: ops.count)
        } else {
            ops[at] = .block(name: id, end: ops.count, indentation: indentation)
            level.whiteSpace = pos..<pos
        }
    }
}
