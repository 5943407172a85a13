import CYaml
import SiteCore

/// A first pass over a YAML document's events that measures what its aliases stand for, before
/// Yams builds a tree from it. Yams composes aliases as shared nodes, but it hashes every mapping
/// key whole to find duplicates: a key that is an alias of a "billion laughs" sequence took
/// minutes to hash (found by fuzzing). Counting each alias as the size of the node it names
/// stops such a document at a located error, after one cheap pass.
enum AliasBudget {
    /// Fails when the document, with every alias expanded, holds more than `limit` values.
    /// Syntax errors are left for Yams to report.
    static func check(_ yaml: String, limit: Int, converter: Converter) throws(Diagnostic) {
        // Without '*' there is no alias, hence nothing to expand.
        guard yaml.utf8.contains(UInt8(ascii: "*")) else { return }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return }
        defer { yaml_parser_delete(&parser) }
        var text = yaml
        // withUTF8 does not keep a typed error: the problem comes out as a value.
        let problem: Diagnostic? = text.withUTF8 { bytes in
            yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)
            var anchors: [String: Int] = [:]
            // Open containers: their anchor and the values in them so far.
            var open: [(anchor: String?, size: Int)] = []
            var total = 0
            func add(_ size: Int) {
                total += size
                if !open.isEmpty { open[open.count - 1].size += size }
            }
            func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
                pointer.map { String(cString: $0) }
            }
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_SCALAR_EVENT:
                    add(1)
                    if let a = name(event.data.scalar.anchor) { anchors[a] = 1 }
                case YAML_ALIAS_EVENT:
                    add(name(event.data.alias.anchor).flatMap { anchors[$0] } ?? 1)
                case YAML_SEQUENCE_START_EVENT:
                    open.append((name(event.data.sequence_start.anchor), 0))
                case YAML_MAPPING_START_EVENT:
                    open.append((name(event.data.mapping_start.anchor), 0))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    guard let closed = open.popLast() else { continue }
                    add(closed.size + 1)
                    total -= closed.size  // its contents were counted as they came
                    if let a = closed.anchor { anchors[a] = closed.size + 1 }
                case YAML_STREAM_END_EVENT:
                    return nil
                default:
                    continue
                }
                if total > limit {
                    return converter.diagnostic(
                        line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1,
                        Converter.tooManyValues)
                }
            }
        }
        if let problem { throw problem }
    }
}
