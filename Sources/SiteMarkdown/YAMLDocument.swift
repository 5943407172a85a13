import CYaml
import SiteCore
public import Yams

/// Parsing of YAML text into a Yams node tree, with Yams' errors turned into located diagnostics.
public enum YAMLDocument {
    /// The document's root node, or nil for an empty document. `lineOffset` is added to Yams'
    /// line numbers (YAML cut from a larger file); `what` names the text in messages
    /// ("site configuration", "front matter").
    public static func compose(
        _ yaml: String, file: String, lineOffset: Int = 0, what: String, resolver: Resolver = .default
    ) throws(Diagnostic) -> Node? {
        let converter = Converter(file: file, lineOffset: lineOffset)
        _ = nestingLimitSet
        try AliasBudget.check(yaml, limit: Converter.maximumValues, converter: converter)
        do {
            // An explicit encoding: `.default` consults the environment on every call.
            return try Yams.compose(yaml: yaml, resolver, .default, .utf8)
        } catch let error as YamlError {
            throw diagnostic(for: error, yaml: yaml, converter: converter, what: what)
        } catch {
            throw Diagnostic(file: file, line: 1 + lineOffset, "invalid YAML in \(what): \(error)")
        }
    }

    /// libyaml's limit (1000 by default, a process-wide setting) brought near the one all readers
    /// share; its levels count a little differently, so a few more are allowed and the conversion
    /// to `Value` applies the exact limit.
    static let nestingLimitSet: Bool = {
        yaml_set_max_nest_level(Int32(maximumNestingDepth + 8))
        return true
    }()

    /// Where `key`, written at `first` as a key of a block mapping, is written again in that
    /// mapping (the same indentation, before a line indented less ends it); nil in a flow mapping.
    static func repetition(of key: String, after first: Mark, in yaml: String) -> (line: Int, column: Int)? {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
        let indent = first.column - 1
        // Yams counts lines its own way (a lone \r ends one too): a mark past our last line finds nothing.
        guard first.line >= 1, first.line <= lines.count else { return nil }
        for n in first.line..<lines.count {  // 0-based: the lines after the first
            let line = lines[n], body = line.drop { $0 == " " }
            if body.isEmpty || body.hasPrefix("#") { continue }
            let depth = line.count - body.count
            if depth < indent { return nil }
            guard depth == indent else { continue }
            for form in [key, "\"\(key)\"", "'\(key)'"] where body.hasPrefix(form) {
                if body.dropFirst(form.count).drop(while: { $0 == " " }).hasPrefix(":") { return (n + 1, indent + 1) }
            }
        }
        return nil
    }

    /// A readable diagnostic for a Yams error, located in the file's line numbering.
    static func diagnostic(for error: YamlError, yaml: String, converter: Converter, what: String) -> Diagnostic {
        func located(_ problem: String, _ mark: Mark, _ context: YamlError.Context?) -> Diagnostic {
            if problem.hasPrefix("Maximum nesting level reached") {
                return converter.diagnostic(at: mark, Converter.tooDeep)
            }
            if let plain = YAMLHints.explain(
                problem, line: mark.line, column: mark.column,
                context: context.map { ($0.text, $0.mark.line, $0.mark.column) },
                yaml: yaml, lineOffset: converter.lineOffset)
            {
                return converter.diagnostic(at: mark, "invalid YAML in \(what): \(plain)")
            }
            var message = "invalid YAML in \(what): \(problem)"
            if let context {
                message +=
                    " (\(context.text) at line \(context.mark.line + converter.lineOffset), column "
                    + "\(context.mark.column))"
            }
            return converter.diagnostic(at: mark, message)
        }
        switch error {
        case let .scanner(context, problem, mark, _),
            let .parser(context, problem, mark, _),
            let .composer(context, problem, mark, _):
            return located(problem, mark, context)
        case let .reader(problem, offset, _, _):
            // The reader reports a character offset into the YAML; turn it into line and column.
            guard let offset else {
                return converter.diagnostic(line: nil, column: nil, "invalid YAML in \(what): \(problem)")
            }
            var line = 1, column = 1
            for character in yaml.prefix(offset) {
                if character == "\n" || character == "\r\n" { line += 1; column = 1 } else { column += 1 }
            }
            return converter.diagnostic(line: line, column: column, "invalid YAML in \(what): \(problem)")
        case let .duplicatedKeysInMapping(duplicates, context):
            // Yams marks the first of the repeated keys: reported at its repetition when found.
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            let verb = duplicates.count == 1 ? "appears" : "appear"
            let message = "key \(keys) \(verb) more than once in the \(what)"
            guard let key = duplicates.first, let again = repetition(of: key, after: context.mark, in: yaml) else {
                return converter.diagnostic(at: context.mark, message)
            }
            return converter.diagnostic(
                line: again.line, column: again.column,
                message + " (first at line \(context.mark.line + converter.lineOffset))")
        default:
            return converter.diagnostic(at: nil, "invalid YAML in \(what): \(error)")
        }
    }
}
