import Foundation
import Testing
@testable import SiteBuild

/// What templates see of data, through the typed views: the bytes the `[String: Any]` contexts
/// gave before (expected texts made by the build before the views were typed). Data integers
/// are text (no `plusone(n)`, as when they were Int64 values the conversion printed), null
/// fields are absent, sitegen's `slug` and `url` win over
/// data fields of the same name while `fieldList` keeps the data's, `related` stays a data
/// field where no related rule claims it.
@Suite struct ViewEncodingTests {
    @Test func dataFieldsAsTemplatesAlwaysSawThem() throws {
        let f = try Fixture(files: [
            "site.yml": """
            title: T
            baseURL: https://example.org/
            collections:
              things:
                title: Things
                data: things.json
                slug: id
                detail: { template: thing }
            """,
            "content/things.json": """
            [{"id": "one", "n": 0, "gone": null, "x": 1.5, "list": [1, null, "a"], "map": {"k": 2, "z": null}, "slug": "data-slug", "url": "http://data/", "related": "field"},
             {"id": "two", "n": 7, "gone": null, "x": 2, "list": [], "map": {}, "slug": "s", "url": "u", "related": "r"}]
            """,
            "templates/thing.mustache": """
            [{{#item}}n:{{#n}}yes {{n}}{{/n}}{{^n}}no{{/n}}|plus:{{plusone(n)}}|x:{{x}}|list:{{#list}}<{{.}}>{{/list}}|map:{{map.k}}{{map.z}}|slug:{{slug}}|url:{{url}}|related:{{related}}|gone:{{^gone}}absent{{/gone}}|fields:{{#fieldList}}{{name}}={{value}};{{/fieldList}}{{/item}}]
            [note:{{#notes}}{{title}}|{{#tags}}{{.}},{{/tags}}|{{date}}|{{mood}}|{{html}}{{/notes}}]

            """,
            "content/notes/a.md":
                "---\ntitle: A note\ndate: 2026-01-02\ntags: [Swift, sea]\nitem: things/one\nmood: 0\n---\nHi.\n"
        ])
        defer { f.remove() }
        _ = try f.build().get()
        #expect(
            try f.read("public/things/one/index.html") == """
                [n:yes 0|plus:|x:1.5|list:<1><a>|map:2|slug:one|url:/things/one/|related:field|gone:absent|fields:id=one;n=0;related=field;slug=data-slug;url=http://data/;x=1.5;]
                [note:A note|Swift,sea,|2026-01-02|0|&lt;p&gt;Hi.&lt;/p&gt;
                ]

                """)
        #expect(
            try f.read("public/things/two/index.html") == """
                [n:yes 7|plus:|x:2|list:|map:|slug:two|url:/things/two/|related:r|gone:absent|fields:id=two;n=7;related=r;slug=s;url=u;x=2;]
                [note:]

                """)
    }
}
