import Foundation
import SiteCore
import Testing
@testable import SiteBuild

/// A collection browsed by its values (`terms:`, issue 49): the index of a field's terms and a
/// paged list per term, built end to end.
@Suite struct TermPagesTests {
    /// Genres as lists (one repeated, two spellings of one slug, Hangul, an empty list, a plain
    /// string), directors as strings (one with no usable slug).
    static let movies = #"""
        [
          {"title": "Arrival", "director": "Denis Villeneuve", "rating": 7.9, "genres": ["Drama", "Sci-Fi"]},
          {"title": "Dune", "director": "Denis Villeneuve", "rating": 8.0, "genres": ["sci fi", "Adventure"]},
          {"title": "Parasite", "director": "봉준호", "rating": 8.5, "genres": ["Drama", "스릴러"]},
          {"title": "Mother", "director": "봉준호", "rating": 7.8, "genres": ["Drama", "스릴러", "Drama"]},
          {"title": "Heat", "director": "Michael Mann", "rating": 8.3, "genres": "Crime"},
          {"title": "Nameless", "director": "!!!", "rating": 5.0, "genres": []}
        ]
        """#

    static func site(terms: String = Self.terms, detail: String? = nil) throws -> Fixture {
        var files = [
            "site.yml": """
            title: Movies
            baseURL: https://example.org/
            collections:
              movies:
                data: movies.json
                slug: { from: title }
                sort: [{ field: rating, order: descending, compare: number }]
                pageSize: 2
            \(terms)
            """ + (detail == nil ? "" : "\n    detail: { template: movie }\n"),
            "content/movies.json": movies
        ]
        if let detail { files["templates/movie.mustache"] = detail }
        return try Fixture(files: files)
    }

    static let terms = """
            terms:
              genres: { field: genres, title: Genres }
              directors: { field: director, title: Directors, url: "/directors/{term}/" }
        """

    static func main(_ html: String) -> String {
        guard let a = html.range(of: "<main"), let b = html.range(of: "</main>") else { return html }
        return String(html[a.lowerBound..<b.upperBound])
    }

    @Test func termsAreTheFieldsValuesFolded() throws {
        let f = try Self.site()
        defer { f.remove() }
        _ = try f.build().get()
        let index = Self.main(try f.read("public/movies/genres/index.html"))
        // In collation order, each once: "sci fi" is Sci-Fi (its first spelling in the data),
        // Drama counted once on Mother, Hangul kept in the slug, an empty list gives nothing.
        let listed = index.matches(of: /<a href="([^"]+)">([^<]+)<\/a> <span class="tag-count">([^<]+)</).map {
            "\($0.output.2) \($0.output.1) \($0.output.3)"
        }
        #expect(
            listed == [
                "Adventure /movies/genres/adventure/ 1 item", "Crime /movies/genres/crime/ 1 item",
                "Drama /movies/genres/drama/ 3 items", "Sci-Fi /movies/genres/sci-fi/ 2 items",
                "스릴러 /movies/genres/%EC%8A%A4%EB%A6%B4%EB%9F%AC/ 2 items"
            ])
        // A term's items in the collection's order (rating, highest first), paged like its list.
        let cards = { (path: String) in
            Self.main(try f.read(path)).matches(of: /data-item="([a-z]+)"/).map { String($0.output.1) }
        }
        #expect(try cards("public/movies/genres/drama/index.html") == ["parasite", "arrival"])
        #expect(try cards("public/movies/genres/drama/page/2/index.html") == ["mother"])
        #expect(try cards("public/movies/genres/sci-fi/index.html") == ["dune", "arrival"])
        // A string field, at a URL of its own; "!!!" has no slug, so no term.
        let directors = Self.main(try f.read("public/directors/index.html"))
        #expect(directors.contains("href=\"/directors/denis-villeneuve/\"") && !directors.contains("!!!"))
        #expect(
            try cards("public/directors/%EB%B4%89%EC%A4%80%ED%98%B8/index.html".removingPercentEncoding!) == [
                "parasite", "mother"
            ])
        let sitemap = try f.read("public/sitemap.xml")
        for url in ["movies/genres/", "movies/genres/drama/page/2/", "directors/michael-mann/"] {
            #expect(sitemap.contains("<loc>https://example.org/\(url)</loc>"), "\(url)")
        }
    }

    /// The built-in item page lists each rule's terms as links, instead of the field's text; a
    /// template reaches them by rule name (`item.terms.<name>`).
    @Test func itemsLinkTheirTerms() throws {
        let f = try Self.site()
        defer { f.remove() }
        _ = try f.build().get()
        let page = Self.main(try f.read("public/movies/mother/index.html"))
        #expect(page.contains("<dt><a href=\"/movies/genres/\">Genres</a></dt>"))
        #expect(
            page.contains(
                "<li><a href=\"/movies/genres/drama/\">Drama</a></li><li><a "
                    + "href=\"/movies/genres/%EC%8A%A4%EB%A6%B4%EB%9F%AC/\">스릴러</a></li></ul>"))
        #expect(!page.contains("<dt>genres</dt>") && !page.contains("<dt>director</dt>"))
        let g = try Self.site(
            detail: "{{#item.terms.genres}}[{{name}} {{url}} {{count}}]{{/item.terms.genres}}"
                + "{{#item.terms.directors}}({{name}}){{/item.terms.directors}}")
        defer { g.remove() }
        _ = try g.build().get()
        #expect(
            try g.read("public/movies/dune/index.html")
                == "[Sci-Fi /movies/genres/sci-fi/ 2][Adventure /movies/genres/adventure/ 1](Denis Villeneuve)")
    }

    @Test(arguments: [
        (
            "terms:\n      genres: { title: Genres }",
            "error: missing required key 'collections.movies.terms.genres.field'"
        ),
        (
            "terms:\n      genres: { field: genres, url: /g/ }",
            "'collections.movies.terms.genres.url' must end with '{term}/'"
        ),
        (
            "terms:\n      genres: { field: genres, url: \"/{term}/{term}/\" }",
            "'collections.movies.terms.genres.url' must end with '{term}/', once"
        ),
        ("terms:\n      Genres: { field: genres }", "terms name 'Genres' must be a URL segment in lower case"),
        ("terms:\n      genres: { field: genre }", "no item of collection 'movies' has a value for the field 'genre'")
    ])
    func mistakesAreNamed(_ terms: String, _ message: String) throws {
        let f = try Self.site(terms: "    " + terms)
        defer { f.remove() }
        guard case .failure(let e) = f.build() else {
            Issue.record("built")
            return
        }
        #expect(e.items.contains { $0.description.contains(message) }, "\(e.items.map(\.description))")
    }

    /// A term whose page is an item's page is a clash, named like any other.
    @Test func aTermClashingWithAnItemIsAnError() throws {
        let f = try Self.site(terms: "    terms:\n      heat: { field: title, url: \"/movies/{term}/\" }")
        defer { f.remove() }
        guard case .failure(let e) = f.build() else {
            Issue.record("built")
            return
        }
        #expect(
            e.items.contains {
                $0.description == "collection 'movies' term 'Heat' page 1: error: 'movies/heat/index.html' is also "
                    + "written by content/movies.json [4]"
            }, "\(e.items.map(\.description))")
    }
}
