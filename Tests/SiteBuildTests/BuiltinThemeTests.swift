import Testing
@testable import SiteRender
@testable import SiteBuild

@Suite struct BuiltinThemeTests {
    /// Every name the built-in theme prints, each part of a dotted one included, is one the page
    /// contexts provide (so the template check can hold user templates to the same list).
    @Test func builtInThemePassesItsOwnChecks() throws {
        let lib = try TemplateLibrary.load(directory: nil, files: [], builtin: BuiltinTheme.templates)
        let problems = lib.check(using: BuiltinTheme.templates.keys.sorted(), knownNames: PageViews.names)
        #expect(problems.isEmpty, "\(problems)")
    }

    /// The names come from the views' types: every name the pages provided before they were
    /// typed, no more and no fewer.
    @Test func theViewsProvideTheNamesPagesAlwaysHad() {
        let before: Set<String> = [
            "site", "page", "collection", "collections", "items", "item", "notes", "note", "pagination", "layout",
            "slug", "url", "card", "fieldList", "title", "subtitle", "image", "src", "width", "height", "name", "value",
            "number", "current", "layoutStyle", "meta", "related", "data", "search", "icon", "description", "count",
            "countText", "date", "html", "tags", "summary", "prev", "next",
            "language", "root", "baseURL", "generator", "notesURL", "notesTitle", "skipText", "navLabel", "closeLabel",
            "pagesLabel", "emptyText", "sections",
            "canonical", "isFirst", "isLast", "many", "pages", "kind", "css", "style",
            "first", "last", "index", "even", "odd", "feed", "type", "tag", "tagLinks", "tagsTitle", "asset",
            "srcset", "sizes", "sources", "placeholder", "color", "preview", "avif", "webp", "detail",
            // Every format's srcset by its name, as images always held them (issue 51: now known).
            "jpeg", "png",
            // A note's table of contents (issue 32) and the flags its page reads.
            "toc", "showToc", "hasCode", "level", "id", "text", "children", "contentsLabel",
            // The stylesheet of highlighted code (issue 33).
            "codeStyles",
            // A collection's terms (issue 49): an item's by rule and listed, a term page's.
            "terms", "termLists", "term"
        ]
        #expect(PageViews.names == before)
    }

    /// The built-in theme prints every value where escaping makes it text.
    @Test func theBuiltinThemeIsSafe() throws {
        for (name, text) in BuiltinTheme.templates {
            let tags = TagLog.tags(of: text).tags
            #expect(HTMLContexts.unsafeVariables(in: text, tags: tags).isEmpty, "\(name)")
        }
    }

    /// Each page kind puts its built-in template in the theme under the name its pages
    /// render by default, beside the partials; none is missing, none replaces a partial.
    @Test func everyKindsTemplateIsInTheTheme() {
        for kind in PageID.Kind.allCases {
            guard let builtin = kind.declaration.builtin else { continue }
            #expect(BuiltinTheme.templates[builtin.name] == builtin.text, "\(kind)")
            #expect(BuiltinTheme.partials[builtin.name] == nil, "\(kind)")
        }
        #expect(BuiltinTheme.templates.count == BuiltinTheme.partials.count + 10)
    }

    @Test func aTypoInADottedNameIsFound() throws {
        let lib = try TemplateLibrary.load(directory: nil, files: [], builtin: BuiltinTheme.templates)
        #expect(
            lib.check(using: ["list"], knownNames: PageViews.names.subtracting(["isFirst"])).map(\.message)
                == ["unknown name 'pagination.isFirst': no page, item or note provides 'isFirst'"])
    }
}
