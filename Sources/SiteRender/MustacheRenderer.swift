/// Renders compiled templates into one byte buffer, with swift-mustache's semantics: names
/// looked up through the stack of section values, sections over lists, booleans and values,
/// partials indented line by line, parents whose blocks the outermost child replaces.
struct MustacheRenderer {
    let library: CompiledTemplates
    var out: [UInt8] = []
    var stack: [TemplateValue] = []

    /// The place of the list element being rendered (`{{index()}}`, `{{#first()}}`), kept only
    /// directly inside the list's section (and its boolean sections), as in swift-mustache.
    struct Position { var first: Bool, last: Bool, index: Int }

    struct Scope {
        var position: Position?
        var indentation: [UInt8]
        var blocks: [MustacheBlock]

        func entering(indentation more: [UInt8]?, blocks added: [MustacheBlock]?) -> Scope {
            var s = Scope(position: nil, indentation: indentation, blocks: blocks)
            if let more { s.indentation += more }
            // A block already given by an outer child wins over the parent's own child.
            for b in added ?? [] where !blocks.contains(where: { $0.name == b.name }) { s.blocks.append(b) }
            return s
        }
    }

    /// Runs `range` of `program`. A non-empty indentation goes before every operation's output
    /// that starts a line of this run's output.
    mutating func run(_ program: MustacheProgram, _ range: Range<Int>, _ scope: Scope, _ escaping: MustacheEscaping) {
        var escaping = escaping
        let localStart = out.count
        var pc = range.lowerBound
        if scope.indentation.isEmpty {
            while pc < range.upperBound { pc = step(program, pc, scope, &escaping) }
            return
        }
        while pc < range.upperBound {
            let mark = out.count
            let atLineStart = mark > localStart && out[mark - 1] == 0x0A
            pc = step(program, pc, scope, &escaping)
            if atLineStart && out.count > mark { out.insert(contentsOf: scope.indentation, at: mark) }
        }
    }

    /// Runs the operation at `pc`; where to continue.
    mutating func step(_ program: MustacheProgram, _ pc: Int, _ scope: Scope, _ escaping: inout MustacheEscaping) -> Int
    {
        switch program.ops[pc] {
        case .text(let r):
            program.bytes.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[r])) }
            return pc + 1
        case .variable(let name, let escaped):
            guard let value = lookup(name, scope.position) else { return pc + 1 }
            if case .lambda(let f) = value, f.isValue {
                write(.string(f.body("")), escaped ? escaping : .text)
            } else if case .lambda(let f) = value {
                let text = f.body("")
                renderFunctionResult(escaped ? escapedText(text, escaping) : text, scope, escaping)
            } else {
                write(value, escaped ? escaping : .text)
            }
            return pc + 1
        case .section(let name, let end, let raw):
            let value = lookup(name, scope.position)
            if case .lambda(let f)? = value, f.isValue {
                write(.string(f.body(raw)), escaping)
            } else if case .lambda(let f)? = value {
                renderFunctionResult(f.body(raw), scope, escaping)
            } else {
                section(value, program, pc + 1..<end, scope, escaping)
            }
            return end
        case .inverted(let name, let end):
            inverted(lookup(name, scope.position), program, pc + 1..<end, scope, escaping)
            return end
        case .partial(let partial, let next):
            var index = partial.index
            if let dynamic = partial.dynamic {
                guard case .string(let s)? = lookup(dynamic, scope.position) else { return next }
                index = library.index[s]
            }
            if let index {
                let target = library.programs[index]
                run(
                    target, 0..<target.ops.count,
                    scope.entering(indentation: partial.indentation, blocks: partial.blocks), .sitegen)
            }
            return next
        case .block(let id, let end, let indentation):
            let inner = scope.entering(indentation: indentation, blocks: nil)
            if let given = scope.blocks.first(where: { $0.name == id }) {
                run(given.program, 0..<given.program.ops.count, inner, escaping)
            } else {
                run(program, pc + 1..<end, inner, escaping)
            }
            return end
        case .blockDefinition(_, let end):
            return end
        case .contentType(let e):
            escaping = e
            return pc + 1
        }
    }

    mutating func section(
        _ value: TemplateValue?, _ program: MustacheProgram, _ body: Range<Int>, _ scope: Scope,
        _ escaping: MustacheEscaping
    ) {
        switch value {
        case nil, .null?: return
        case .list(let l)?:
            var inner = scope
            for (k, item) in l.items.enumerated() {
                inner.position = Position(first: k == 0, last: k == l.items.count - 1, index: k)
                stack.append(item)
                run(program, body, inner, escaping)
                stack.removeLast()
            }
        case .bool(let b)?:
            if b { run(program, body, scope, escaping) }
        case let value?:
            stack.append(value)
            run(program, body, scope.entering(indentation: nil, blocks: nil), escaping)
            stack.removeLast()
        }
    }

    mutating func inverted(
        _ value: TemplateValue?, _ program: MustacheProgram, _ body: Range<Int>, _ scope: Scope,
        _ escaping: MustacheEscaping
    ) {
        switch value {
        case nil, .null?: run(program, body, scope, escaping)
        case .list(let l)? where l.items.isEmpty:
            stack.append(.list(l))
            run(program, body, scope.entering(indentation: nil, blocks: nil), escaping)
            stack.removeLast()
        case .bool(let b)?:
            if !b { run(program, body, scope, escaping) }
        default: return
        }
    }

    /// What a function returned, read as a template and rendered as a section over the current
    /// value (swift-mustache's lambdas); nothing if it does not parse.
    mutating func renderFunctionResult(_ text: String, _ scope: Scope, _ escaping: MustacheEscaping) {
        let program: MustacheProgram
        if let plain = Self.plainLine(text) {
            program = plain
        } else {
            var parser = MustacheParser(
                text, name: "(function result)", names: library.names, partials: library.index, frozen: true)
            guard let compiled = try? parser.compile() else { return }
            program = compiled
        }
        section(stack.last, program, 0..<program.ops.count, scope, escaping)
    }

    /// The program of a text that parsing would leave as it is (what `site.asset` returns, a
    /// URL): printable ASCII without `{`, not only spaces (a line of only spaces is dropped).
    static func plainLine(_ text: String) -> MustacheProgram? {
        let bytes = Array(text.utf8)
        guard bytes.contains(where: { $0 != 0x20 }),
            !bytes.contains(where: { $0 < 0x20 || $0 >= 0x7F || $0 == UInt8(ascii: "{") })
        else { return nil }
        return MustacheProgram(name: "(function result)", ops: [.text(0..<bytes.count)], bytes: bytes)
    }

    func escapedText(_ text: String, _ escaping: MustacheEscaping) -> String {
        var r = MustacheRenderer(library: library)
        r.write(.string(text), escaping)
        return String(decoding: r.out, as: UTF8.self)
    }

    /// Writes a value's text, escaped as `escaping` says.
    mutating func write(_ value: TemplateValue, _ escaping: MustacheEscaping) {
        switch value {
        case .string(var s):
            s.withUTF8 { bytes in
                switch escaping {
                case .sitegen: SafeHTML.appendEscaped(bytes, to: &out)
                case .html: SafeHTML.appendPlainEscaped(bytes, to: &out)
                case .text: out.append(contentsOf: bytes)
                }
            }
        case .int(let i):
            out.append(contentsOf: String(i).utf8)
        case .bool(let b):
            out.append(contentsOf: (b ? "true" : "false").utf8)
        default:
            write(.string(value.text), escaping)
        }
    }
}
