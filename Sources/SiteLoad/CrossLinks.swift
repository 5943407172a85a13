import SiteCore
import Yams

/// Items of another collection attached to each item: those whose `via` field (a value or a
/// list of values) holds this item's `key` value — a collection's photos, a user's photos.
public struct RelatedRule: Sendable, Hashable {
    /// The name the list takes under the item's `related`.
    public var name: String
    /// The collection the related items come from.
    public var collection: String
    /// Key path into the other collection's items, e.g. `collections` or `user.username`.
    public var via: String
    /// Key path into this collection's items; `slug` when not given.
    public var key: String
}

/// A static search index written as JSON: for each item its URL, card title, subtitle and image,
/// and the searchable text of `fields` normalised by `SearchText.fold`.
/// An Atom feed of a collection's items, newest first by a date field.
public struct FeedRule: Sendable, Hashable {
    /// Site path of the feed, e.g. `/trends/feed.xml`.
    public var url: String
    /// The field holding each item's date (a date, or text like 2024-01-31); items without one are left out.
    public var date: String
    /// How many items the feed lists.
    public var limit: Int
}

public struct SearchRule: Sendable, Hashable {
    /// Site path of the index file, e.g. `/trends/search.json`.
    public var url: String
    /// The searched fields (key paths); lists are searched element by element.
    public var fields: [String]
}

/// A page of its own (not a collection's list or item page) rendered from a template that can
/// reach every collection through `data.<name>` — a search screen, a pager, a discover screen.
public struct PageConfig: Sendable, Hashable {
    public var name: String
    public var url: String
    public var template: String
    public var title: String
    public var description: String?
    /// The section the page belongs to (highlighted in the navigation).
    public var section: String?
}

extension SiteConfig {
    static func parseRelated(_ collectionNode: ConfigNode, problems: inout [Diagnostic]) -> [RelatedRule] {
        var rules: [RelatedRule] = []
        let entries: [(String, Node)]
        do { entries = try collectionNode.entries("related") } catch { problems.append(error); return [] }
        for (name, node) in entries {
            do throws(Diagnostic) {
                let r = try ConfigNode(
                    node, file: collectionNode.file,
                    path: "\(collectionNode.key("related")).\(name)")
                func text(_ name: String) -> String? { r.soft { () throws(Diagnostic) in try r.string(name) } }
                let viaText = text("via"), collection = text("collection"), key = text("key")
                problems += r.unknownKeys()
                try r.rethrowHeld()
                let via = try r.required(viaText, "via")
                if KeyPath.parse(via) == nil {
                    throw r.error(r.raw("via") ?? node, "'\(r.key("via"))' is not a key path like 'user.username'")
                }
                rules.append(
                    RelatedRule(
                        name: name, collection: try r.required(collection, "collection"), via: via, key: key ?? "slug"))
            } catch { problems.append(error) }
        }
        return rules
    }

    static func parseSearch(_ collection: ConfigNode, problems: inout [Diagnostic]) -> SearchRule? {
        do throws(Diagnostic) {
            guard let s = try collection.child("search") else { return nil }
            let urlText = s.soft { () throws(Diagnostic) in try s.string("url") }
            let fieldList = s.soft { () throws(Diagnostic) in try s.strings("fields") }
            problems += s.unknownKeys()
            try s.rethrowHeld()
            let url = try s.required(urlText, "url")
            if let p = fileURLProblem(url, ext: ".json") {
                throw s.error(s.raw("url") ?? s.node, "'\(s.key("url"))' \(p)")
            }
            guard let fields = fieldList, !fields.isEmpty else {
                throw s.error(s.node, "'\(s.key("fields"))' must name the fields to search")
            }
            if let bad = fields.first(where: { KeyPath.parse($0)?.isEmpty ?? true }) {
                throw s.error(
                    s.raw("fields") ?? s.node,
                    "'\(s.key("fields"))': '\(bad)' is not a field name or key path like 'user.name'")
            }
            return SearchRule(url: url, fields: fields)
        } catch {
            problems.append(error)
            return nil
        }
    }

    static func parseFeed(_ collection: ConfigNode, listURL: String, problems: inout [Diagnostic]) -> FeedRule? {
        do throws(Diagnostic) {
            let expected = "a mapping such as { date: released, url: /shows/feed.xml, limit: 20 }"
            guard let f = try collection.child("feed", expecting: expected) else { return nil }
            let url = f.soft { () throws(Diagnostic) in try f.string("url") } ?? listURL + "feed.xml"
            let dateText = f.soft { () throws(Diagnostic) in try f.string("date") }
            let limit = f.soft { () throws(Diagnostic) in try f.int("limit") } ?? 20
            problems += f.unknownKeys()
            try f.rethrowHeld()
            if let p = fileURLProblem(url, ext: ".xml") {
                throw f.error(f.raw("url") ?? f.node, "'\(f.key("url"))' \(p)")
            }
            let date = try f.required(dateText, "date")
            if KeyPath.parse(date)?.isEmpty ?? true {
                throw f.error(f.raw("date") ?? f.node, "'\(f.key("date"))': '\(date)' is not a field name or key path")
            }
            guard limit >= 1 else { throw f.error(f.raw("limit") ?? f.node, "'\(f.key("limit"))' must be at least 1") }
            return FeedRule(url: url, date: date, limit: limit)
        } catch {
            problems.append(error)
            return nil
        }
    }

    static func parsePages(_ top: ConfigNode, problems: inout [Diagnostic]) -> [PageConfig] {
        var pages: [PageConfig] = []
        let entries: [(String, Node)]
        do { entries = try top.entries("pages") } catch { problems.append(error); return [] }
        for (name, node) in entries {
            do throws(Diagnostic) {
                let p = try ConfigNode(node, file: top.file, path: "pages.\(name)")
                func text(_ name: String) -> String? { p.soft { () throws(Diagnostic) in try p.string(name) } }
                let urlText = text("url"), template = text("template"), title = text("title")
                let description = text("description"), section = text("section")
                problems += p.unknownKeys()
                try p.rethrowHeld()
                let url = try p.required(urlText, "url")
                if let problem = urlProblem(url, needsSlug: false) {
                    throw p.error(p.raw("url") ?? node, "'\(p.key("url"))' \(problem)")
                }
                pages.append(
                    PageConfig(
                        name: name, url: url, template: template ?? name, title: title ?? name,
                        description: description, section: section))
            } catch { problems.append(error) }
        }
        return pages
    }

    /// Cross-checks that need every collection: related collections exist, no two outputs share a URL.
    static func checkLinks(collections: [CollectionConfig], pages: [PageConfig], file: String) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        let names = Set(collections.map(\.name))
        for c in collections {
            for r in c.related where !names.contains(r.collection) {
                problems.append(
                    Diagnostic(
                        file: file,
                        "'collections.\(c.name).related.\(r.name).collection' names '\(r.collection)', which is "
                            + "not a collection"
                    ))
            }
        }
        var owners: [String: String] = [:]
        func claim(_ url: String, _ owner: String) {
            if let first = owners[url] {
                problems.append(Diagnostic(file: file, "\(first) and \(owner) both use the URL \(url)"))
            } else {
                owners[url] = owner
            }
        }
        for c in collections {
            claim(c.listURL, "collection '\(c.name)'")
            if let s = c.search { claim(s.url, "the search index of collection '\(c.name)'") }
        }
        for p in pages { claim(p.url, "page '\(p.name)'") }
        return problems
    }

    /// nil when `url` is a usable site path of a file ending in `ext`.
    static func fileURLProblem(_ url: String, ext: String) -> String? {
        if !url.hasPrefix("/") || !url.hasSuffix(ext) || url.count <= ext.count + 1 {
            return "must start with '/' and end with '\(ext)' (found '\(url)')"
        }
        if url.contains("..") || url.contains("//") || url.contains("{") {
            return "must not contain '..', '//' or '{' (found '\(url)')"
        }
        if url.contains("%") {
            return
                "must not contain '%': write the path as it is, sitegen percent-encodes links itself (found '\(url)')"
        }
        return overlongProblem(url)
    }

    /// A segment of a site.yml URL (without its `{slug}`) that no file name can hold.
    static func overlongProblem(_ url: String) -> String? {
        SitePath.overlongSegment(url.replacingOccurrences(of: "{slug}", with: "")).map {
            "has a segment longer than the \(SitePath.maximumSegmentBytes) bytes a file name may have "
                + "('\(Diagnostic.excerpt(String($0)))')"
        }
    }
}
