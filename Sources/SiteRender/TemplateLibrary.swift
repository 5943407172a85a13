import Foundation
import SiteCore

/// The site's templates: the built-in theme, overridden file by file by the site's
/// `templates/*.mustache`, each parsed once and checked before anything renders.
public struct TemplateLibrary: Sendable {
    /// The templates compiled by sitegen's Mustache engine.
    public let compiled: CompiledTemplates
    /// Template name → the file it came from (for messages), e.g. `templates/list.mustache`.
    public let origins: [String: String]
    public let texts: [String: String]

    /// Loads the built-in theme's templates (`builtin`, by name) and the site's: `files` (paths
    /// relative to `directory`; those ending in `.mustache` are read). Syntax errors of every
    /// template are reported together.
    public static func load(directory: URL?, files: [String], builtin: [String: String]) throws(Diagnostics)
        -> TemplateLibrary
    {
        var texts = builtin
        var origins = Dictionary(uniqueKeysWithValues: builtin.keys.map { ($0, "(built-in theme)/\($0).mustache") })
        var problems: [Diagnostic] = []
        if let directory {
            for rel in files where rel.hasSuffix(".mustache") {
                let display = SourceLayout.templateFile(rel)
                guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(rel).path) else {
                    problems.append(Diagnostic(file: display, "cannot read template")); continue
                }
                guard let text = String(validating: data, as: UTF8.self) else {
                    problems.append(Diagnostic(file: display, "template is not valid UTF-8 text")); continue
                }
                let name = String(rel.dropLast(".mustache".count))
                texts[name] = text
                origins[name] = display
            }
        }
        if !problems.isEmpty { throw Diagnostics(problems) }
        do {
            return TemplateLibrary(compiled: try CompiledTemplates(texts), origins: origins, texts: texts)
        } catch {
            throw Diagnostics(
                error.items.map { e in
                    let file = origins[e.template] ?? e.template
                    // A section closed by the wrong name or never closed is reported at its tags.
                    if let mismatch = SectionMismatch.find(in: texts[e.template] ?? "") {
                        return Diagnostic(
                            file: file, line: mismatch.line, column: mismatch.column,
                            "template syntax error: \(mismatch.message)")
                    }
                    return Diagnostic(file: file, line: e.line, column: e.column, "template syntax error: \(e.message)")
                })
        }
    }

    public func has(_ name: String) -> Bool { texts[name] != nil }

    /// The source text of a template.
    public func text(of name: String) -> String? { texts[name] }

    /// The tags of the template `name`, in order, as the parser read them.
    func tags(of name: String) -> [TemplateTag] { compiled.tags[name] ?? [] }

    /// The collections a page rendered with `name` shows through `data.<collection>` (partials
    /// included); nil when it may show any (it names `data` as a whole, or changes delimiters).
    public func dataCollections(of name: String) -> Set<String>? {
        var names: Set<String> = []
        for t in closure(of: name) {
            guard let text = texts[t] else { continue }
            if text.contains("{{=") { return nil }
            for tag in tags(of: t) {
                let parts = tag.name.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
                guard parts.first == "data" else { continue }
                guard parts.count > 1, !parts[1].isEmpty else { return nil }
                names.insert(String(parts[1]))
            }
        }
        return names
    }

    /// Whether a page rendered with `name` (partials and parents included) prints or tests a
    /// name with the part `part` (`item.poster.detail` has `detail`).
    public func usesName(_ part: String, from name: String) -> Bool {
        closure(of: name).contains { t in
            tags(of: t).contains { tag in
                [.variable, .section, .inverted].contains(tag.kind)
                    && tag.name.split(separator: ".").contains { $0 == part }
            }
        }
    }

    /// `name` and every template it reaches through partials and parents, sorted (what a page
    /// rendered with `name` depends on).
    public func closure(of name: String) -> [String] {
        var seen: Set<String> = []
        var stack = [name]
        while let next = stack.popLast() {
            guard seen.insert(next).inserted, texts[next] != nil else { continue }
            for tag in tags(of: next) where tag.kind == .partial || tag.kind == .parent { stack.append(tag.name) }
        }
        return seen.sorted()
    }

    /// Checks the templates a build will use: each exists; every partial and parent they reach
    /// exists and none includes itself; every name they print is one the data can provide, in a
    /// place of the HTML where escaping makes it text (`HTMLContexts`).
    public func check(using names: [String], knownNames: Set<String>) -> [Diagnostic] {
        check(using: names) { knownNames.contains($0) }
    }

    /// As `check(using:knownNames:)`, asking `knows` about each name (so a caller can look in
    /// its larger sources only for names its small ones lack). `topLevel` finds, in a dotted name
    /// whose parts are all known, a part that exists only at the page's top level (`prev` in
    /// `item.prev`: such a name prints nothing); its index makes the error's hint. `suggest`
    /// gives the known name an unknown one was likely meant to be (asked only on an error).
    /// `nestedIn` gives the top-level names whose records hold a name that is not top-level
    /// itself (`related`: `item`), for `misplaced`.
    public func check(
        using names: [String], knows: (String) -> Bool,
        topLevel: ([String]) -> Int? = { _ in nil }, suggest: (String) -> String? = { _ in nil },
        nestedIn: (String) -> [String] = { _ in [] }
    ) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        // Depth-first over partial and parent references: a template met again while still on
        // the path is a cycle; each template is scanned once.
        var finished: Set<String> = []
        var path: [String] = []
        func visit(_ name: String) {
            guard !finished.contains(name), texts[name] != nil else { return }
            path.append(name)
            // Tags start at distinct bytes, so each offset is one key.
            let unsafe = Dictionary(
                uniqueKeysWithValues: HTMLContexts.unsafeVariables(in: texts[name] ?? "", tags: tags(of: name)).map {
                    ($0.tag.offset, $0.place)
                })
            for tag in tags(of: name) {
                if tag.kind == .variable, let place = unsafe[tag.offset] {
                    problems.append(
                        Diagnostic(
                            file: origins[name] ?? name, line: tag.line, column: tag.column,
                            HTMLContexts.message(tag.name, place)))
                }
                switch tag.kind {
                case .partial, .parent:
                    if texts[tag.name] == nil {
                        problems.append(
                            Diagnostic(
                                file: origins[name] ?? name, line: tag.line, column: tag.column,
                                "\(tag.kind == .partial ? "partial" : "parent template") '\(tag.name)' not found "
                                    + "(looked for templates/\(tag.name).mustache and the built-in theme)"
                            ))
                    } else if let at = path.firstIndex(of: tag.name) {
                        // Reported at the tag that closes the cycle.
                        let cycle = (path[at...] + [tag.name]).joined(separator: " → ")
                        problems.append(
                            Diagnostic(
                                file: origins[name] ?? name, line: tag.line, column: tag.column,
                                "templates include each other in a cycle: \(cycle)"))
                    } else {
                        visit(tag.name)
                    }
                case .variable, .section, .inverted:
                    // Each part of a dotted name: `{{item.yaer}}` is as much a typo as `{{yaer}}`.
                    let parts = tag.name.split(separator: ".").map(String.init)
                    if tag.name != ".", let unknown = parts.first(where: { !knows($0) }) {
                        let what = parts.count == 1 ? "it" : "'\(unknown)'"
                        let guess = suggest(unknown).map { "; did you mean '\($0)'?" } ?? ""
                        problems.append(
                            Diagnostic(
                                file: origins[name] ?? name, line: tag.line, column: tag.column,
                                "unknown name '\(tag.name)': no page, item or note provides \(what)\(guess)"))
                    } else if parts.count > 1, let at = topLevel(parts), parts.indices.contains(at) {
                        let sigil = tag.sigil
                        let written = "{{\(sigil)\(parts[at...].joined(separator: "."))}}"
                        let hint = "`\(parts[at])` is top-level: `\(written)`"
                        problems.append(
                            Diagnostic(
                                file: origins[name] ?? name, line: tag.line, column: tag.column,
                                "unknown name '\(tag.name)': \(hint)"))
                    }
                default: continue
                }
            }
            path.removeLast()
            finished.insert(name)
        }
        for name in names {
            guard texts[name] != nil else {
                problems.append(
                    Diagnostic(
                        file: "site.yml",
                        "template '\(name)' not found (looked for templates/\(name).mustache and the built-in theme)"))
                continue
            }
            visit(name)
            problems += misplaced(in: name, knows: knows, nestedIn: nestedIn)
        }
        return problems
    }

    /// In a page's own template, outside every section, the names that live only inside a
    /// record the page holds (`{{#related.movies}}` on an item's page: `related` is the item's):
    /// there they print nothing. What a parent's or a block's tags hold is left out (a block
    /// renders where the parent puts it, maybe in a section), and so are names with an unknown
    /// part (already an error).
    func misplaced(in root: String, knows: (String) -> Bool, nestedIn: (String) -> [String]) -> [Diagnostic] {
        var depth = 0
        var problems: [Diagnostic] = []
        for tag in tags(of: root) {
            switch tag.kind {
            case .variable, .section, .inverted:
                let parts = tag.name.split(separator: ".").map(String.init)
                if depth == 0, tag.name != ".", let first = parts.first, parts.allSatisfy(knows) {
                    let under = nestedIn(first)
                    if let record = under.first {
                        let sigil = tag.sigil
                        let places = under.map { "`\($0)`" }.joined(separator: ", ")
                        problems.append(
                            Diagnostic(
                                file: origins[root] ?? root, line: tag.line, column: tag.column,
                                "unknown name '\(tag.name)' at the page's top level: `\(first)` is under \(places): "
                                    + "`{{\(sigil)\(record).\(tag.name)}}`"))
                    }
                }
                if tag.kind != .variable { depth += 1 }
            case .block, .parent: depth += 1
            case .close: depth -= 1
            case .partial, .comment, .pragma, .delimiters: continue
            }
        }
        return problems
    }

    /// A value for a context that templates call as a section, `{{#name}}text{{/name}}`: it
    /// prints `body(text)` (trimmed text in, raw HTML out, so `body` must escape what it returns).
    /// For tests and `sitegen-bench` (the build's views are typed).
    package static func function(_ body: @escaping @Sendable (String) -> String) -> Any {
        templateFunction(body)
    }

    /// As `function(_:)`, typed.
    public static func templateFunction(_ body: @escaping @Sendable (String) -> String) -> TemplateFunction {
        TemplateFunction { text in body(text.trimmingCharacters()) }
    }

    /// A helper such as `{{#site.asset}}name.css{{/site.asset}}`: `body(trimmed text)` is a value,
    /// escaped like any other (never read as a template): what it makes from the configuration
    /// (a base URL's path) cannot become markup.
    public static func helper(_ body: @escaping @Sendable (String) -> String) -> TemplateFunction {
        var f = TemplateFunction { text in body(text.trimmingCharacters()) }
        f.isValue = true
        return f
    }

    /// Renders `context` with the template `name` (checked beforehand): its `[String: Any]`
    /// values become template values here, the one place they are converted. For tests and
    /// `sitegen-bench` (the build renders typed `TemplateValue`s).
    package func render(_ name: String, _ context: [String: Any]) -> String {
        compiled.render(name, context) ?? ""
    }

    /// `value` rendered with the template `name` (checked beforehand), as UTF-8 bytes.
    public func renderBytes(_ name: String, _ value: TemplateValue) -> [UInt8] {
        compiled.renderBytes(name, value) ?? []
    }

    /// As `render(_:_:)`, as UTF-8 bytes (tests and `sitegen-bench`).
    package func renderBytes(_ name: String, _ context: [String: Any]) -> [UInt8] {
        compiled.renderBytes(name, compiled.names.object(context)) ?? []
    }
}
