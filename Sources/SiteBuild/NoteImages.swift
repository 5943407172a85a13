import SiteCore
import SiteLoad
import SiteMarkdown
import SiteRender

/// A note's local images as pages show them, once the image step has made their files: a
/// `<picture>` with AVIF/WebP sources, `srcset`/`sizes`, `width`/`height` (no layout shift), the
/// placeholder, `loading="lazy"` after the note's first image.
enum NoteImages {
    /// The markup of the k-th image of `note`, for its hole.
    static func markup(_ k: Int, of note: Note, published: [ImageUse: PublishedImage], root: String) -> String {
        let loaded = note.images[k]
        return markup(loaded, published: published[ImageStep.noteUse(loaded.info.source)], root: root, lazy: k > 0)
    }

    static func markup(_ loaded: LoadedNoteImage, published: PublishedImage?, root: String, lazy: Bool) -> String {
        let view =
            published?.view(root: root)
            ?? ImageView(
                src: URLScheme.content(loaded.info.source, root: root), width: loaded.info.width,
                height: loaded.info.height)
        // The author's width (a README's `<img width="250">`) wins; the height follows the picture's proportions.
        let attributes = loaded.image.attributes
        let own = attributes.first { $0.name == "width" }.flatMap { Int($0.value) }
        var width = view.width, height = view.height
        if let own, let w = view.width, let h = view.height, w > 0 {
            width = own
            height =
                attributes.first { $0.name == "height" }.flatMap { Int($0.value) }
                ?? Int((Double(own) * Double(h) / Double(w)).rounded())
        }
        var img = "<img src=\"\(SafeHTML.escape(view.src))\""
        if let r = view.resized {
            let sizes = own.map { "(min-width: \($0 + 32)px) \($0)px, calc(100vw - 32px)" } ?? r.sizes
            img += " srcset=\"\(SafeHTML.escape(r.srcset))\" sizes=\"\(SafeHTML.escape(sizes))\""
            var sources = ""
            for s in r.sources {
                sources +=
                    "<source type=\"\(s.type)\" srcset=\"\(SafeHTML.escape(s.srcset))\" "
                    + "sizes=\"\(SafeHTML.escape(sizes))\">"
            }
            img = sources + img
        }
        if let width, let height { img += " width=\"\(width)\" height=\"\(height)\"" }
        for a in attributes where a.name != "width" && a.name != "height" {
            img += " \(a.name)=\"\(SafeHTML.escape(a.value))\""
        }
        if !attributes.contains(where: { $0.name == "alt" }) { img += " alt=\"\"" }
        if let r = view.resized {
            img += " style=\"background-color:\(r.color);background-image:url(\(r.preview));background-size:cover\""
        }
        if lazy { img += " loading=\"lazy\"" }
        img += " decoding=\"async\">"
        return view.resized == nil ? img : "<picture>\(img)</picture>"
    }
}
