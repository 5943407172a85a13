import Foundation
import SiteCore

/// The files `sitegen init` writes: a configuration, a small dataset and a note.
public enum StarterSite {
    static let files: [(String, String)] = [
        ("site.yml", """
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

        notes:
          collection: books

        """),
        ("content/books.json", """
        [
          { "title": "The Little Prince", "author": "Antoine de Saint-Exupéry", "year": 1943, "pages": 96 },
          { "title": "Norwegian Wood", "author": "Haruki Murakami", "year": 1987, "pages": 1296 }
        ]

        """),
        ("content/notes/welcome.md", """
        ---
        title: Welcome
        date: 2026-01-01
        ---
        This page comes from `content/notes/welcome.md`. Edit it and run `sitegen build` again.

        """),
        ("content/notes/little-prince.md", """
        ---
        title: Why I reread it
        item: the-little-prince
        ---
        Notes with `item:` appear on that item's page.

        """),
        (".gitignore", "public/\n"),
    ]

    /// Writes the starter site into `directory`, which must be missing or empty.
    public static func write(to directory: URL) throws(Diagnostic) {
        let fm = FileManager.default
        if let existing = try? fm.contentsOfDirectory(atPath: directory.path), !existing.isEmpty {
            throw Diagnostic(file: directory.path, "folder is not empty; sitegen init will not overwrite files")
        }
        do {
            for (path, text) in files {
                let url = directory.appendingPathComponent(path)
                try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
        } catch {
            throw Diagnostic(file: directory.path, "cannot create the starter site: \(error.localizedDescription)")
        }
    }
}
