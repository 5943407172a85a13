import SiteCore

extension LoadedCollection {
    /// A grid without `mediaAspect` gets its card images' most common aspect (posters 2:3,
    /// photos 3:2), once they are sized; 1:1 when none has a known size.
    mutating func takeMediaAspectFromImages() {
        guard case .grid(var g) = config.layout, g.aspectFromImages, let field = config.cardImageField else { return }
        let sizes = items.compactMap { item in
            item.images[field].flatMap { i in i.width.flatMap { w in i.height.map { (width: w, height: $0) } } }
        }
        guard let aspect = GridGeometry.commonAspect(sizes) else { return }
        g.mediaAspect = aspect
        config.layout = .grid(g)
    }
}
