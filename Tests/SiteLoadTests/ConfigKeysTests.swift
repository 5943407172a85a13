import Testing
import SiteCore
@testable import SiteLoad

/// The keys each configuration mapping accepts, seen from outside: a stray `zzz` in every mapping,
/// including mappings whose reader reads some keys only on some paths (a layout kind, a derivation
/// format, a failed required key, `--base-url`), must be named with the same list of known keys.
@Suite struct ConfigKeysTests {
    static let collection =
        "card, data, derived, description, detail, feed, fields, icon, images, items, join, layout, list, menu, meta, pageSize, related, rename, search, slug, sort, terms, title"
    static let derivation = "equals, field, format, from, input, output, separator, template"
    static let top =
        "author, baseURL, collections, description, fetch, highlight, language, markdown, notes, pages, title, words"

    /// The hint given for the unknown key `path.zzz` in `yaml`, or nil when none is reported.
    func hint(_ yaml: String, _ path: String, baseURL: String? = nil) -> String? {
        let errors: [Diagnostic]
        do {
            _ = try SiteConfig.parse(yaml, file: "site.yml", baseURLOverride: baseURL)
            errors = []
        } catch {
            errors = error.items
        }
        let prefix = "unknown key '\(path)zzz' (expected one of: "
        guard let m = errors.first(where: { $0.message.hasPrefix(prefix) })?.message else { return nil }
        return String(m.dropFirst(prefix.count).dropLast())
    }

    /// A site with collection `a` whose further keys are `body` (indented under `a`).
    func inCollection(_ body: String) -> String {
        "title: T\nbaseURL: https://x.org/\ncollections:\n  a:\n    data: a.json\n    slug: id\n" + body
    }

    @Test func topLevelAndNotes() {
        #expect(hint("title: T\nbaseURL: https://x.org/\nzzz: 1\n", "") == Self.top)
        // With --base-url the reader does not read `baseURL`, yet it stays a known key.
        #expect(hint("title: T\nbaseURL: https://x.org/\nzzz: 1\n", "", baseURL: "https://y.org/") == Self.top)
        #expect(hint("title: T\nbaseURL: https://y.org/\n", "", baseURL: "https://y.org/") == nil)
        #expect(hint("title: T\nzzz: 1\n", "") == Self.top)
        #expect(
            hint("title: T\nbaseURL: https://x.org/\nnotes: { zzz: 1, url: bad }\n", "notes.")
                == "collection, feed, list, tags, template, title, url")
        #expect(
            hint("title: T\nbaseURL: https://x.org/\nnotes: { list: { zzz: 1 } }\n", "notes.list.") == "template, url")
        #expect(
            hint("title: T\nbaseURL: https://x.org/\npages: { p: { zzz: 1 } }\n", "pages.p.")
                == "description, section, template, title, url")
        #expect(
            hint("title: T\nbaseURL: https://x.org/\npages: { p: { zzz: 1, url: bad } }\n", "pages.p.")
                == "description, section, template, title, url")
    }

    @Test func collectionKeysOnEveryPath() {
        #expect(hint(inCollection("    zzz: 1\n"), "collections.a.") == Self.collection)
        // Missing `data` and `slug`: the collection is not built, its other keys are still known.
        #expect(
            hint("title: T\nbaseURL: https://x.org/\ncollections:\n  a:\n    zzz: 1\n", "collections.a.")
                == Self.collection)
        #expect(hint(inCollection("    items: '[x'\n    zzz: 1\n"), "collections.a.") == Self.collection)
        #expect(hint(inCollection("    list: { zzz: 1 }\n"), "collections.a.list.") == "template, url")
        #expect(hint(inCollection("    detail: { zzz: 1 }\n"), "collections.a.detail.") == "template, url")
        #expect(hint(inCollection("    card: { zzz: 1 }\n"), "collections.a.card.") == "image, subtitle, title")
        #expect(
            hint(
                "title: T\nbaseURL: https://x.org/\ncollections:\n  a:\n    data: a.json\n    slug: { zzz: 1 }\n",
                "collections.a.slug.") == "from")
        #expect(hint(inCollection("    fields: { x: { zzz: 1 } }\n"), "collections.a.fields.x.") == "default, type")
        #expect(
            hint(inCollection("    fields: { x: { type: nope, zzz: 1 } }\n"), "collections.a.fields.x.")
                == "default, type")
        #expect(
            hint(inCollection("    sort: [{ zzz: 1 }]\n"), "collections.a.sort.") == "compare, field, format, order")
        #expect(
            hint(inCollection("    sort: [{ field: x, order: up, zzz: 1 }]\n"), "collections.a.sort.")
                == "compare, field, format, order")
        #expect(hint(inCollection("    join: { j: { zzz: 1 } }\n"), "collections.a.join.j.") == "data, items, key, on")
        #expect(
            hint(inCollection("    join: { j: { data: b.json, items: '[', zzz: 1 } }\n"), "collections.a.join.j.")
                == "data, items, key, on")
        #expect(
            hint(inCollection("    related: { r: { zzz: 1 } }\n"), "collections.a.related.r.") == "collection, key, via"
        )
        #expect(hint(inCollection("    search: { url: bad, zzz: 1 }\n"), "collections.a.search.") == "fields, url")
        #expect(hint(inCollection("    feed: { url: bad, zzz: 1 }\n"), "collections.a.feed.") == "date, limit, url")
    }

    @Test func derivationKeysWhateverTheFormat() {
        for d in [
            "{ zzz: 1 }", "{ template: x, zzz: 1 }", "{ from: x, zzz: 1 }", "{ from: x, format: date, zzz: 1 }",
            "{ from: x, format: list, zzz: 1 }", "{ from: x, equals: y, zzz: 1 }", "{ from: x, format: nope, zzz: 1 }"
        ] {
            #expect(
                hint(inCollection("    derived: { d: \(d) }\n"), "collections.a.derived.d.") == Self.derivation, "\(d)")
            #expect(hint(inCollection("    meta: { m: \(d) }\n"), "collections.a.meta.m.") == Self.derivation, "\(d)")
        }
    }

    @Test func layoutKeysPerKind() {
        #expect(hint(inCollection("    layout: { zzz: 1 }\n"), "collections.a.layout.") == "kind")
        #expect(
            hint(inCollection("    layout: { kind: grid, zzz: 1 }\n"), "collections.a.layout.")
                == "columns, inset, kind, mediaAspect, spacing, textHeight")
        #expect(
            hint(inCollection("    layout: { kind: grid, mediaAspect: bad, zzz: 1 }\n"), "collections.a.layout.")
                == "columns, inset, kind, mediaAspect, spacing, textHeight")
        #expect(
            hint(inCollection("    layout: { kind: masonry, zzz: 1 }\n"), "collections.a.layout.")
                == "columns, gap, insets, kind, maxWidth, policy, text")
        #expect(
            hint(inCollection("    layout: { kind: masonry, policy: bad, zzz: 1 }\n"), "collections.a.layout.")
                == "columns, gap, insets, kind, maxWidth, policy, text")
        #expect(
            hint(inCollection("    layout: { kind: masonry, insets: { zzz: 1 } }\n"), "collections.a.layout.insets.")
                == "bottom, left, right, top")
        #expect(
            hint(inCollection("    layout: { kind: masonry, text: { zzz: 1 } }\n"), "collections.a.layout.text.")
                == "inset, lineHeight, maxLines, padding, size, titleLineHeight, titleSize")
    }

    @Test func imageKeys() {
        #expect(
            hint(inCollection("    images: { fields: x, zzz: 1 }\n"), "collections.a.images.")
                == "external, fields, formats, height, maxPixels, metadata, quality, resize, sizes, width, widths")
        #expect(
            hint(inCollection("    images: { zzz: 1 }\n"), "collections.a.images.")
                == "external, fields, formats, height, maxPixels, metadata, quality, resize, sizes, width, widths")
        #expect(
            hint(inCollection("    images: { fields: { x: { zzz: 1 } } }\n"), "collections.a.images.fields.x.")
                == "formats, quality, sizes, widths")
        #expect(
            hint(
                inCollection("    images: { fields: { x: { formats: { a: 1 }, zzz: 1 } } }\n"),
                "collections.a.images.fields.x.") == "formats, quality, sizes, widths")
    }

    /// A misspelt required key is reported as unknown (with the right name listed), not as missing.
    @Test func misspeltRequiredKeysAreNamed() {
        #expect(
            configErrors(inCollection("    sort: [{ feild: x }]\n"))
                == [
                    "site.yml:7:14: error: unknown key 'collections.a.sort.feild'; did you mean 'field'? (expected one of: compare, field, format, order)"
                ])
        #expect(
            configErrors(inCollection("    fields: { x: { tpye: string } }\n"))
                == [
                    "site.yml:7:20: error: unknown key 'collections.a.fields.x.tpye'; did you mean 'type'? (expected one of: default, type)"
                ])
    }

    /// A mapping's unknown keys come before the problems of its values, and a parent's before its
    /// children's: the order of a reader that checked its keys first, although they are known only at its end.
    @Test func unknownKeysComeFirst() {
        #expect(
            configErrors("title: T\nbaseURL: https://x.org/\nnotes: { url: bad, zzz: 1 }\nzzz: 2\n") == [
                "site.yml:4:1: error: unknown key 'zzz' (expected one of: \(Self.top))",
                "site.yml:3:20: error: unknown key 'notes.zzz' (expected one of: collection, feed, list, tags, template, title, url)",
                "site.yml:3:15: error: 'notes.url' must start and end with '/' (found 'bad')"
            ])
    }

    /// A reader that stops at its first problem still reports an unknown key before a bad value
    /// of the same mapping (the value's error is held back until the keys are checked).
    @Test func anUnknownKeyComesBeforeABadValue() {
        #expect(
            configErrors(inCollection("    sort: [{ field: [x], ordr: up }]\n"))
                == [
                    "site.yml:7:26: error: unknown key 'collections.a.sort.ordr'; did you mean 'order'? (expected one of: compare, field, format, order)"
                ])
        #expect(
            configErrors(inCollection("    derived: { d: { from: [x], zzz: 1 } }\n"))
                == [
                    "site.yml:7:32: error: unknown key 'collections.a.derived.d.zzz' (expected one of: \(Self.derivation))"
                ])
        #expect(
            hint(inCollection("    layout: { kind: grid, spacing: -1, columns: x, zzz: 1 }\n"), "collections.a.layout.")
                == "columns, inset, kind, mediaAspect, spacing, textHeight")
        #expect(
            hint(
                inCollection("    layout: { kind: masonry, gap: -1, insets: { top: -1 }, zzz: 1 }\n"),
                "collections.a.layout.") == "columns, gap, insets, kind, maxWidth, policy, text")
        #expect(
            hint(
                inCollection("    layout: { kind: masonry, text: { size: -1, zzz: 1 } }\n"),
                "collections.a.layout.text.")
                == "inset, lineHeight, maxLines, padding, size, titleLineHeight, titleSize")
        #expect(
            configErrors(inCollection("    related: { r: { via: [a], zzz: 1 } }\n")) == [
                "site.yml:7:31: error: unknown key 'collections.a.related.r.zzz' (expected one of: collection, key, via)",
                "site.yml:7:26: error: 'collections.a.related.r.via' must be text"
            ])
        #expect(hint(inCollection("    feed: { limit: x, zzz: 1 }\n"), "collections.a.feed.") == "date, limit, url")
        #expect(
            hint(inCollection("    search: { fields: { a: 1 }, zzz: 1 }\n"), "collections.a.search.") == "fields, url")
        #expect(
            hint("title: T\nbaseURL: https://x.org/\npages: { p: { url: [a], zzz: 1 } }\n", "pages.p.")
                == "description, section, template, title, url")
    }
}
