/// A library of templates compiled once: every name they use has an id, every partial an index,
/// so rendering a page hashes no string and casts no value.
public struct CompiledTemplates: Sendable {
    let programs: [MustacheProgram]
    /// Template name → its place in `programs`.
    let index: [String: Int]
    /// The ids of every name the templates use (values are converted with them).
    public let names: TemplateNames
    /// Each template's tags as the parser read them, for the template checks.
    let tags: [String: [TemplateTag]]

    /// Compiles `texts` (template name → Mustache text); every template's syntax error is reported.
    public init(_ texts: [String: String]) throws(CompileErrors) {
        let sorted = texts.keys.sorted()
        index = Dictionary(uniqueKeysWithValues: sorted.enumerated().map { ($1, $0) })
        var names = TemplateNames()
        var programs: [MustacheProgram] = []
        var errors: [MustacheSyntaxError] = []
        var tags: [String: [TemplateTag]] = [:]
        for name in sorted {
            var parser = MustacheParser(texts[name] ?? "", name: name, names: names, partials: index)
            parser.tagLog = TagLog()
            do {
                programs.append(try parser.compile())
                tags[name] = parser.tagLog?.tags
            } catch {
                errors.append(error)
                programs.append(MustacheProgram(name: name, ops: [], bytes: []))
            }
            names = parser.names
        }
        if !errors.isEmpty { throw CompileErrors(items: errors) }
        self.programs = programs
        self.names = names
        self.tags = tags
    }

    public struct CompileErrors: Error, Sendable { public var items: [MustacheSyntaxError] }

    public func has(_ name: String) -> Bool { index[name] != nil }

    /// `value` rendered with the template `name` (nil if there is none), as UTF-8 bytes, values
    /// escaped for HTML and URLs that would run script neutralised.
    public func renderBytes(_ name: String, _ value: TemplateValue) -> [UInt8]? {
        guard let i = index[name] else { return nil }
        var renderer = MustacheRenderer(library: self)
        renderer.out.reserveCapacity(16 * 1024)
        renderer.stack = [value]
        let program = programs[i]
        renderer.run(
            program, 0..<program.ops.count, MustacheRenderer.Scope(position: nil, indentation: [], blocks: []), .sitegen
        )
        return SafeHTML.neutralise(bytes: renderer.out) ?? renderer.out
    }

    public func render(_ name: String, _ value: TemplateValue) -> String? {
        renderBytes(name, value).map { String(decoding: $0, as: UTF8.self) }
    }

    /// As `render(_:_:)` for a context of Swift values (see `TemplateNames.value`): tests and
    /// `sitegen-bench`.
    package func render(_ name: String, _ context: [String: Any]) -> String? {
        render(name, names.object(context))
    }
}
