import SiteCore
import SiteLoad
import SiteMarkdown

extension SiteModel {
    /// Each note's HTML with its holes filled (`NoteHole`): its images' markup (`NoteImages`),
    /// and its links to other notes (`[x](other.md#usage)`) pointing at their pages: a standalone
    /// note's page, or the page of the item a note is attached to (its heading ids there carry its
    /// slug, and so does the fragment). A link to a `.md` file that is no note of this build, or
    /// that leaves `content/`, is an error at its line. `only`: the notes to fill (in that
    /// order), of notes in their files' order (a session's, whose notes follow the content tree).
    static func resolveNoteLinks(
        _ notes: [Note], only: [Int]? = nil, noteURLs: [String], collections: [SortedCollection], urls: URLScheme,
        content: ContentTree, images: [ImageUse: PublishedImage] = [:]
    ) -> ([String], [Diagnostic]) {
        let index: (String) -> Int?
        if only == nil {
            let byPath = Dictionary(notes.indices.map { (notes[$0].file, $0) }, uniquingKeysWith: { a, _ in a })
            index = { byPath[$0] }
        } else {
            // A few notes: binary searches instead of an index of every note.
            index = { notes.lazy.map(\.file).sortedIndex(of: $0) }
        }
        var problems: [Diagnostic] = []
        var html: [String] = []
        html.reserveCapacity(only?.count ?? notes.count)
        for i in only ?? Array(notes.indices) {
            let note = notes[i]
            var resolved: [String] = []
            for link in note.noteLinks {
                guard let path = link.path else {
                    problems.append(
                        Diagnostic(file: note.file, line: link.line, "link to '\(link.written)' leaves content/"))
                    resolved.append("")
                    continue
                }
                guard let target = index(SourceLayout.contentFile(path)) else {
                    let why =
                        content.notes.sortedContains(path)
                        ? "a draft, left out of this build (--drafts includes it)" : "no such note"
                    problems.append(
                        Diagnostic(
                            file: note.file, line: link.line,
                            "link to '\(link.written)': \(SourceLayout.contentFile(path)) is \(why)"))
                    resolved.append("")
                    continue
                }
                resolved.append(
                    url(
                        of: target, notes: notes, noteURLs: noteURLs, collections: collections, urls: urls,
                        fragment: link.fragment))
            }
            html.append(
                NoteHole.fill(
                    note.html, holes: note.holes, noteURL: { resolved[$0] },
                    image: { NoteImages.markup($0, of: note, published: images, root: urls.root) }))
        }
        return (html, problems)
    }

    /// Note `i`'s page URL with `fragment`: its own page, or the page of its item.
    static func url(
        of i: Int, notes: [Note], noteURLs: [String], collections: [SortedCollection], urls: URLScheme,
        fragment: String?
    ) -> String {
        let note = notes[i]
        var base = noteURLs[i]
        var fragment = fragment
        if let a = note.attachment, let c = collections.first(where: { $0.config.name == a.collection }),
            let page = urls.item(c.config, slug: a.slug)
        {
            base = page
            // Headings of an attached note carry its slug.
            if let f = fragment, note.headings.contains(where: { $0.id == "\(note.slug)-\(f)" }) {
                fragment = "\(note.slug)-\(f)"
            }
        }
        guard let fragment, !fragment.isEmpty else { return base }
        return base + "#" + fragment
    }
}
