import SiteCore
import Yams

extension SiteConfig {
    /// `words:`: the interface words of `language`'s table, any of them replaced. Each is text;
    /// `items` is text for every count or `{ one, other }` (`one` for exactly 1), `{n}` the number.
    static func parseWords(_ top: ConfigNode, language: String, problems: inout [Diagnostic]) -> InterfaceWords {
        var words = InterfaceWords.defaults(language: language)
        guard let w = attempt(&problems, { () throws(Diagnostic) in try top.child("words") }), let w else {
            return words
        }
        let start = problems.count
        for (name, path) in [
            ("skipLink", \InterfaceWords.skipLink), ("navigation", \.navigation), ("close", \.close),
            ("pagination", \.pagination), ("empty", \.empty), ("tags", \.tags),
            ("headingLink", \.headingLink), ("footnoteBack", \.footnoteBack), ("contents", \.contents),
            ("task", \.task)
        ] {
            if let text = word(w, name, problems: &problems) { words[keyPath: path] = text }
        }
        if let n = w.raw("items") {
            if case .mapping = n {
                if let c = attempt(
                    &problems, { () throws(Diagnostic) in try ConfigNode(n, file: w.file, path: w.key("items")) })
                {
                    let itemsStart = problems.count
                    let one = word(c, "one", problems: &problems)
                    let other = word(c, "other", problems: &problems)
                    if other == nil, c.raw("other") == nil {
                        problems.append(
                            c.error(
                                n,
                                "missing required key '\(c.key("other"))' (the text for any count but 1, e.g. "
                                    + "\"{n} items\")"
                            ))
                    }
                    c.reportUnknownKeys(into: &problems, at: itemsStart)
                    if let other { words.items = CountWords(one: one, other: other) }
                }
            } else if let text = word(w, "items", problems: &problems) {
                words.items = CountWords(one: nil, other: text)
            }
        }
        w.reportUnknownKeys(into: &problems, at: start)
        return words
    }

    /// The text of word `name` of `node`, which must not be empty.
    static func word(_ node: ConfigNode, _ name: String, problems: inout [Diagnostic]) -> String? {
        guard let text = attempt(&problems, { () throws(Diagnostic) in try node.string(name) }), let text else {
            return nil
        }
        guard !text.isEmpty else {
            problems.append(node.error(node.raw(name) ?? node.node, "'\(node.key(name))' must not be empty"))
            return nil
        }
        return text
    }
}
