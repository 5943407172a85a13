import Testing
import SiteCore
@testable import SiteLoad

/// `images:` of a collection: the resize options, per-field settings and their errors.
@Suite struct ImageConfigTests {
    func parse(_ images: String) throws -> ImageRule {
        let c = try SiteConfig.parse(
            "title: T\nbaseURL: https://x.org/\ncollections:\n  a:\n    data: a.json\n    slug: id\n    images: \(images)\n",
            file: "site.yml")
        return try #require(c.collections.first?.images)
    }

    func errors(_ images: String) -> [String] {
        configErrors(
            "title: T\nbaseURL: https://x.org/\ncollections:\n  a:\n    data: a.json\n    slug: id\n    images: \(images)\n"
        )
    }

    @Test func readsEveryOptionWithItsDefault() throws {
        let plain = try parse("{ fields: image }")
        #expect(plain.fields == ["image"] && plain.resize && !plain.keepMetadata && plain.maxPixels == 100_000_000)
        #expect(plain.output == ImageOutput(widths: nil, formats: nil, quality: 70, sizes: nil))
        let full = try parse(
            "{ fields: [a, b], widths: [300, 600], formats: [avif, png], quality: 55, sizes: \"50vw\", metadata: keep, maxPixels: 1000, resize: false }"
        )
        #expect(full.output == ImageOutput(widths: [300, 600], formats: ["avif", "png"], quality: 55, sizes: "50vw"))
        #expect(full.keepMetadata && full.maxPixels == 1000 && !full.resize)
    }

    @Test func aFieldMayHaveItsOwnSettings() throws {
        let r = try parse("{ fields: { image: {}, full: { widths: [720], sizes: \"100vw\" } }, quality: 60 }")
        #expect(r.fields == ["image", "full"])
        #expect(r.output("image") == ImageOutput(quality: 60))
        #expect(r.output("full") == ImageOutput(widths: [720], quality: 60, sizes: "100vw"))
    }

    @Test func mistakesAreLocated() {
        #expect(errors("{ fields: a, width: w }").isEmpty)  // `width` names the remote images' size field
        #expect(
            errors("{ fields: a, widht: [1] }") == [
                "site.yml:7:26: error: unknown key 'collections.a.images.widht'; did you mean 'width'? (expected one of: external, fields, formats, height, maxPixels, metadata, quality, resize, sizes, width, widths)"
            ])
        #expect(
            errors("{ fields: a, formats: [webp, avif] }") == [
                "site.yml:7:35: error: 'collections.a.images.formats' must end with a fallback every browser shows, jpeg or png, e.g. [avif, webp, jpeg]"
            ])
        #expect(
            errors("{ fields: a, formats: [heic, jpeg] }") == [
                "site.yml:7:35: error: 'collections.a.images.formats' has 'heic': the formats are avif, webp, jpeg and png"
            ])
        #expect(
            errors("{ fields: a, formats: [jpeg, jpeg] }") == [
                "site.yml:7:35: error: 'collections.a.images.formats' names a format twice"
            ])
        #expect(
            errors("{ fields: a, quality: 0 }") == [
                "site.yml:7:35: error: 'collections.a.images.quality' must be from 1 to 100, found 0"
            ])
        #expect(
            errors("{ fields: a, quality: 101 }") == [
                "site.yml:7:35: error: 'collections.a.images.quality' must be from 1 to 100, found 101"
            ])
        #expect(errors("{ fields: a, quality: 100, widths: [10000, 1] }").isEmpty)
        #expect(
            errors("{ fields: a, widths: [0] }") == [
                "site.yml:7:35: error: 'collections.a.images.widths' must be a list of widths in pixels from 1 to 10000, e.g. [400, 800]"
            ])
        #expect(
            errors("{ fields: a, widths: [10001] }") == [
                "site.yml:7:35: error: 'collections.a.images.widths' must be a list of widths in pixels from 1 to 10000, e.g. [400, 800]"
            ])
        #expect(
            errors("{ fields: a, metadata: gps }") == [
                "site.yml:7:36: error: 'collections.a.images.metadata' must be 'strip' (the default: no GPS or camera data published) or 'keep', found 'gps'"
            ])
        #expect(
            errors("{ fields: a, maxPixels: 0 }") == [
                "site.yml:7:37: error: 'collections.a.images.maxPixels' must be at least 1"
            ])
        #expect(
            errors("{ fields: { a: { quality: 5, sizez: x } } }") == [
                "site.yml:7:42: error: unknown key 'collections.a.images.fields.a.sizez'; did you mean 'sizes'? (expected one of: formats, quality, sizes, widths)"
            ])
    }
}
