import Foundation
import SiteCore

/// The files `sitegen init` writes: a configuration, a small dataset, two notes and a detail template.
public enum StarterSite {
    static let files: [(String, String)] = [
        (
            "site.yml",
            """
            # sitegen site configuration: see the README for every key.
            title: My site
            baseURL: https://example.org/
            language: en
            description: A site built with sitegen.

            collections:
              books:
                title: Books
                data: books.json
                slug: { from: title }
                sort:
                  - { field: year, order: descending, compare: number }
                derived:
                  pagesText: { from: pages, format: thousands }
                card: { title: title, subtitle: author }
                layout: { kind: list }
                detail: { template: book }      # templates/book.mustache: the page of one book

            notes:
              collection: books

            """
        ),
        (
            "content/books.json",
            """
            [
              { "title": "The Little Prince", "author": "Antoine de Saint-Exupéry", "year": 1943, "pages": 96 },
              { "title": "Norwegian Wood", "author": "Haruki Murakami", "year": 1987, "pages": 1296 }
            ]

            """
        ),
        (
            "content/notes/welcome.md",
            """
            ---
            title: Welcome
            date: 2026-01-01
            ---
            This page comes from `content/notes/welcome.md`. Edit it and run `sitegen build` again.

            """
        ),
        (
            "content/notes/little-prince.md",
            """
            ---
            title: Why I reread it
            item: the-little-prince
            ---
            Notes with `item:` appear on that item's page.

            """
        ),
        (
            "templates/book.mustache",
            """
            {{! A book's page (README: "Templates"). item.title and the other item names are the book's
                fields (content/books.json, and pagesText made in site.yml); prev and next are its
                neighbours in the list. The theme's classes: detail (the centred column), fields (labels
                and values side by side), neighbours, prose (text). }}
            {{<base}}
            {{$title}}{{item.title}} · {{collection.title}} · {{site.title}}{{/title}}
            {{$content}}
            <article class="detail" data-item="{{item.slug}}">
            <a class="close" href="{{collection.url}}" aria-label="{{site.closeLabel}}">×</a>
            <h1 class="detail-name">{{item.title}}</h1>
            <p class="detail-subtitle">{{item.author}}</p>
            <dl class="fields">
            <dt>Published</dt><dd>{{item.year}}</dd>
            <dt>Pages</dt><dd>{{item.pagesText}}</dd>
            </dl>
            {{#notes}}<section class="note prose">{{#title}}<h2>{{title}}</h2>{{/title}}{{{html}}}</section>{{/notes}}
            <nav class="neighbours">{{#prev}}<a rel="prev" href="{{url}}">← {{title}}</a>{{/prev}}{{#next}}<a \
            rel="next" href="{{url}}">{{title}} →</a>{{/next}}</nav>
            </article>
            {{/content}}
            {{/base}}

            """
        ),
        (".gitignore", gitignore)
    ]

    /// What the site's `.gitignore` leaves out of git: the built site and the image cache.
    public static let gitignore = "\(SourceLayout.defaultOutput)/\n\(SourceLayout.defaultCache)/\n"

    /// What `write(to:)` left as it was: a `.gitignore` the folder already had.
    public struct Outcome: Sendable {
        public var keptGitignore = false
    }

    /// Writes the starter site into `directory`, which must be missing or hold nothing but
    /// dotfiles (a fresh `git init`); a `.gitignore` there is kept as it is.
    @discardableResult
    public static func write(to directory: URL) throws(Diagnostic) -> Outcome {
        let fm = FileManager.default
        let existing = (try? fm.contentsOfDirectory(atPath: directory.path)) ?? []
        if let taken = existing.sorted().first(where: { !$0.hasPrefix(".") }) {
            throw Diagnostic(
                file: directory.path,
                "folder is not empty (it holds '\(taken)'); sitegen init writes only "
                    + "into a new folder or one holding nothing but dotfiles such as .git")
        }
        var outcome = Outcome()
        do {
            for (path, text) in files {
                if existing.contains(path) { outcome.keptGitignore = true; continue }
                let url = directory.appendingPathComponent(path)
                try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
        } catch {
            throw Diagnostic(file: directory.path, "cannot create the starter site: \(error.localizedDescription)")
        }
        return outcome
    }
}
