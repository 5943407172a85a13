import Testing
import SiteRender
@testable import SiteBuild

@Suite struct BuiltinThemeTests {
    /// Every name the built-in theme prints, each part of a dotted one included, is one the page
    /// contexts provide (so the template check can hold user templates to the same list).
    @Test func builtInThemePassesItsOwnChecks() throws {
        let lib = try TemplateLibrary.load(directory: nil, files: [])
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
            // A note's table of contents (issue 32) and the flags its page reads.
            "toc", "showToc", "hasCode", "level", "id", "text", "children", "contentsLabel",
            // The stylesheet of highlighted code (issue 33).
            "codeStyles"
        ]
        #expect(PageViews.names == before)
    }

    @Test func aTypoInADottedNameIsFound() throws {
        let lib = try TemplateLibrary.load(directory: nil, files: [])
        #expect(
            lib.check(using: ["list"], knownNames: PageViews.names.subtracting(["isFirst"])).map(\.message)
                == ["unknown name 'pagination.isFirst': no page, item or note provides 'isFirst'"])
    }
}
