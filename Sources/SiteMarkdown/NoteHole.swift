/// A place in a note's HTML where something goes that the note cannot know when it is rendered:
/// another note's page URL, or the `<picture>` of a local image, whose files the image step
/// makes later. The HTML keeps nothing there (no token to search for); the build fills the holes
/// once it knows them, in one pass over the HTML. So a note is rendered (and cached) alone, and
/// another note moving or an image re-encoded costs the fill, never cmark-gfm again.
public struct NoteHole: Sendable, Hashable, Codable {
    /// What goes in a hole.
    public enum Fill: Sendable, Hashable, Codable {
        /// The URL of the k-th of `noteLinks`, inside an `href="…"`.
        case noteLink(Int)
        /// The markup of the k-th of `images`, where the `<img>` was.
        case image(Int)
    }

    /// Where, in UTF-8 bytes from the start of the HTML (always between two characters of
    /// markup, never inside a character).
    public var offset: Int
    public var fill: Fill

    public init(offset: Int, fill: Fill) {
        self.offset = offset
        self.fill = fill
    }

    /// `html` with every hole filled: a link's with `noteURL(k)` (escaped here, for the attribute
    /// it is in), an image's with `image(k)`, which must be HTML. `holes` in order of offset.
    public static func fill(
        _ html: String, holes: [NoteHole], noteURL: (Int) -> String, image: (Int) -> String
    ) -> String {
        // Most notes have none: their HTML is shared, not copied (10,000 notes' HTML twice over
        // was 33 MB more of a build's memory).
        guard !holes.isEmpty else { return html }
        var out = ""
        out.reserveCapacity(html.utf8.count + 128 * holes.count)
        let utf8 = html.utf8
        var from = utf8.startIndex
        for hole in holes {
            let at = utf8.index(utf8.startIndex, offsetBy: hole.offset)
            out += html[from..<at]
            switch hole.fill {
            case .noteLink(let k): out += HTMLText.escape(noteURL(k))
            case .image(let k): out += image(k)
            }
            from = at
        }
        out += html[from...]
        return out
    }
}
