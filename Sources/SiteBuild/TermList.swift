import SiteCore
import SiteLoad

/// A collection's terms of one rule (`TermRule`): each distinct value of the rule's field, with
/// the items holding it in the collection's display order and the term's list pages. Values
/// are told apart by their slugs (`Slug.make`: Hangul kept, case and punctuation folded), so
/// "Sci-Fi" and "sci fi" are one term, shown as the first spelling in the data's order; a value
/// with no usable slug ("!!!") has no term, as a tag has no page.
struct TermList: Sendable, Hashable {
    var rule: TermRule
    /// In the site's collation of their names.
    var terms: [Term]
    /// Each item's terms (indices into `terms`), in the order its field lists them.
    var ofItem: [[Int]]

    struct Term: Sendable, Hashable {
        var name: String
        var slug: String
        /// Item indices, in display order.
        var items: [Int]
        var pages: [PageSlice]
        /// Each page's path (`URLScheme.term`).
        var paths: [String]
    }

    static func make(
        _ rule: TermRule, of c: CollectionConfig, items: [Item], order: [Int], collator: Collator, urls: URLScheme
    ) -> TermList {
        var bySlug: [String: Int] = [:]
        var found: [(name: String, slug: String)] = []
        var ofItem = [[Int]](repeating: [], count: items.count)
        for (i, item) in items.enumerated() {
            for name in Self.names(item.fields[rule.field] ?? .null) {
                let slug = Slug.make(name)
                guard Slug.isSafeSegment(slug) else { continue }
                let k = bySlug[slug] ?? found.count
                if k == found.count {
                    bySlug[slug] = k
                    found.append((name, slug))
                }
                if !ofItem[i].contains(k) { ofItem[i].append(k) }
            }
        }
        var members = [[Int]](repeating: [], count: found.count)
        for i in order { for k in ofItem[i] { members[k].append(i) } }
        // Sort keys made once per term (a comparison through the collator makes two).
        let keys = found.map { collator.sortKey($0.name) }
        let sorted = found.indices.sorted { a, b in
            keys[a] != keys[b] ? keys[a].lexicographicallyPrecedes(keys[b]) : found[a].slug < found[b].slug
        }
        var place = [Int](repeating: 0, count: found.count)
        for (at, k) in sorted.enumerated() { place[k] = at }
        let terms = sorted.map { k in
            let pages = Pagination.pages(itemCount: members[k].count, pageSize: c.pageSize)
            return Term(
                name: found[k].name, slug: found[k].slug, items: members[k], pages: pages,
                paths: pages.map { urls.term(rule, slug: found[k].slug, page: $0.number) })
        }
        return TermList(rule: rule, terms: terms, ofItem: ofItem.map { $0.map { place[$0] } })
    }

    /// The terms a field's value holds: a value's text, or each of a list's values' texts.
    static func names(_ value: Value) -> [String] {
        switch value {
        case .null, .dictionary: []
        case .array(let values):
            values.flatMap { v -> [String] in
                if case .array = v { return [] }
                return names(v)
            }
        default: [TemplateText.plain(value)].filter { !$0.isEmpty }
        }
    }
}
