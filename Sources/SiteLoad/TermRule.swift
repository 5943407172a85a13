import SiteCore
import Yams

/// Pages to browse a collection by the values of one of its fields (`terms:`): an index of the
/// values (terms) with how many items have each, and a paged list of those items per term.
public struct TermRule: Sendable, Hashable {
    /// The name the terms go by (`item.terms.<name>`), e.g. `genres`.
    public var name: String
    /// The field holding each item's terms: a value or a list of values.
    public var field: String
    /// The index page's title.
    public var title: String
    /// Site path of a term's first page with `{slug}` for the term's slug, e.g.
    /// `/movies/genres/{slug}/` (written `{term}` in site.yml); the index is the part before it.
    public var url: String

    /// The index page's site path: `url` up to the term.
    public var indexURL: String { String(url.dropLast(Self.placeholder.count + 1)) }

    static let placeholder = "{slug}"
}

extension SiteConfig {
    /// `terms:`: by name, `field` (required), `title` and `url` (`<list url><name>/{term}/`).
    static func parseTerms(_ collection: ConfigNode, listURL: String, problems: inout [Diagnostic]) -> [TermRule] {
        var rules: [TermRule] = []
        let entries: [(String, Node)]
        do { entries = try collection.entries("terms") } catch { problems.append(error); return [] }
        for (name, node) in entries {
            do throws(Diagnostic) {
                let t = try ConfigNode(node, file: collection.file, path: "\(collection.key("terms")).\(name)")
                func text(_ key: String) -> String? { t.soft { () throws(Diagnostic) in try t.string(key) } }
                let field = text("field"), title = text("title"), url = text("url")
                problems += t.unknownKeys()
                try t.rethrowHeld()
                guard Slug.isSafeSegment(name), name == Slug.make(name) else {
                    throw t.error(
                        node,
                        "terms name '\(Diagnostic.excerpt(name))' must be a URL segment in lower case, like 'genres'")
                }
                let written = url ?? listURL + name + "/{term}/"
                let pattern = written.replacingOccurrences(of: "{term}", with: TermRule.placeholder)
                if written.contains(TermRule.placeholder) || !pattern.hasSuffix("/\(TermRule.placeholder)/")
                    || pattern.components(separatedBy: TermRule.placeholder).count != 2
                {
                    throw t.error(
                        t.raw("url") ?? node,
                        "'\(t.key("url"))' must end with '{term}/', once (found '\(written)')")
                }
                if let p = urlProblem(pattern, needsSlug: true) {
                    throw t.error(
                        t.raw("url") ?? node,
                        "'\(t.key("url"))' \(p.replacingOccurrences(of: "{slug}", with: "{term}"))")
                }
                let f = try t.required(field, "field")
                rules.append(TermRule(name: name, field: f, title: title ?? name, url: pattern))
            } catch { problems.append(error) }
        }
        return rules
    }
}
