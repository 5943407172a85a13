import CVips
import CVipsLoader
import Foundation
import Testing
@testable import SiteImages

@Suite
struct ImageProcessorTests {
    /// liborc's generated code crashed with several threads resizing at once: libvips runs its
    /// C paths instead.
    @Test func libvipsGeneratesNoVectorCode() {
        #expect(Vips.startFailure == nil)
        #expect(!Vips.generatesVectorCode)
    }

    /// sitegen loads libvips at run time and passes these enum values without its headers.
    @Test func theLoadersConstantsAreThoseOfTheInstalledHeaders() {
        #expect(sgv_assumed("SIZE_DOWN") == Int32(VIPS_SIZE_DOWN.rawValue))
        #expect(sgv_assumed("FORMAT_UCHAR") == Int32(VIPS_FORMAT_UCHAR.rawValue))
        #expect(sgv_assumed("INTERPRETATION_sRGB") == Int32(VIPS_INTERPRETATION_sRGB.rawValue))
        #expect(sgv_assumed("HEIF_COMPRESSION_AV1") == Int32(VIPS_FOREIGN_HEIF_COMPRESSION_AV1.rawValue))
        #expect(sgv_assumed("LOG_LEVEL_WARNING") == Int32(G_LOG_LEVEL_WARNING.rawValue))
        #expect(sgv_assumed("FAIL_ON_ERROR") == Int32(VIPS_FAIL_ON_ERROR.rawValue))
        #expect(sgv_assumed("ACCESS_SEQUENTIAL") == Int32(VIPS_ACCESS_SEQUENTIAL.rawValue))
        #expect(sgv_assumed("ABI") == Int32(VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE))
        #expect(sgv_assumed("OTHER") == -1)
    }

    let recipe = ImageRecipe(widths: [40, 100, 4000], formats: [.avif, .webp, .jpeg], quality: 80)

    @Test func writesEveryWidthAndFormatTheSourceAllows() throws {
        let source = try TestPictures.jpeg(width: 160, height: 120)
        let (processed, files) = try ImageProcessor.process(source, sourceWidth: 160, recipe: recipe)
        // 4000 is wider than the source: the source's own width instead, never enlarged.
        #expect(processed.variants.map(\.width) == [40, 100, 160, 40, 100, 160, 40, 100, 160])
        #expect(processed.variants.map(\.format) == [.avif, .avif, .avif, .webp, .webp, .webp, .jpeg, .jpeg, .jpeg])
        for (variant, data) in zip(processed.variants, files) {
            let (format, w, h) = try Identify.header(data, ext: variant.format.fileExtension)
            #expect(format == ["avif": "AVIF", "webp": "WEBP", "jpeg": "JPEG"][variant.format.rawValue], "\(variant)")
            #expect(w == variant.width && h == variant.height)
            #expect(h == variant.width * 3 / 4)
        }
    }

    /// One source's decodes and encodes run on several threads when a build has spare ones (a
    /// photo changed alone): the files are those of one thread, byte for byte. A JPEG decodes
    /// each width on its own (shrunk on load), a PNG once at the widest.
    @Test(arguments: [ImageFormat.jpeg, .png])
    func theBytesDoNotDependOnTheThreads(family: ImageFormat) throws {
        let source =
            family == .png
            ? try TestPictures.png(width: 400, height: 300)
            : try TestPictures.jpeg(width: 300, height: 400, orientation: 6)
        let recipe = ImageRecipe(widths: [100, 200, 300], formats: [.avif, .webp, family], quality: 80)
        let (processed, files) = try ImageProcessor.process(
            source, sourceWidth: family == .png ? 400 : 300, recipe: recipe, threads: 1)
        for threads in [2, 5] {
            let (again, filesAgain) = try ImageProcessor.process(
                source, sourceWidth: family == .png ? 400 : 300, recipe: recipe, threads: threads)
            #expect(again == processed, "\(threads) threads")
            #expect(filesAgain == files, "\(threads) threads")
        }
        #expect(processed.variants.map(\.width) == [100, 200, 300, 100, 200, 300, 100, 200, 300])
        for (variant, data) in zip(processed.variants, files) {
            let (_, w, h) = try Identify.header(data, ext: variant.format.fileExtension)
            let aspect = family == .png ? 3.0 / 4 : 4.0 / 3
            #expect(w == variant.width && h == variant.height && h == Int((Double(w) * aspect).rounded()), "\(variant)")
        }
        #expect(processed.preview.hasPrefix("data:image/webp;base64,") && processed.color.hasPrefix("#"))
    }

    /// The process allocates with tcmalloc: `malloc` itself is tcmalloc's (its count of bytes in
    /// use grows by a block's size), not only its extension linked beside glibc's `malloc`.
    @Test func mallocIsTcmalloc() throws {
        let before = try #require(FreedMemory.setting("generic.current_allocated_bytes"))
        let block = malloc(64 << 20)!
        defer { free(block) }
        let during = try #require(FreedMemory.setting("generic.current_allocated_bytes"))
        #expect(during - before >= 64 << 20, "\(before) bytes in use before, \(during) with the block")
    }

    /// Once libvips has started, freed pages go back to the system at once and the threads'
    /// caches are smaller: the AV1 encoder's memory is not held encode after encode.
    @Test func freedMemoryGoesBackToTheSystemOnceLibvipsStarts() throws {
        try Vips.started()
        #expect(FreedMemory.setting("tcmalloc.aggressive_memory_decommit") == 1)
        #expect(FreedMemory.setting("tcmalloc.max_total_thread_cache_bytes") == FreedMemory.threadCacheBytes)
        // 200 blocks of 1 MB (tcmalloc's large objects: whole runs of pages), all touched, then
        // freed: resident memory falls without a call (a test on another thread may allocate
        // meanwhile, which this margin allows).
        let blocks = (0..<200).map { _ in
            let p = malloc(1 << 20)!; memset(p, 1, 1 << 20); return p
        }
        let before = try Self.residentMB()
        for p in blocks { free(p) }
        let after = try Self.residentMB()
        #expect(before - after > 100, "resident \(before) MB before, \(after) MB after")
    }

    static func residentMB() throws -> Int {
        let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
        return ((Int(statm[1]) ?? 0) * sysconf(Int32(_SC_PAGESIZE))) >> 20
    }

    @Test func aSourceNarrowerThanEveryWidthIsWrittenAtItsOwn() throws {
        let source = try TestPictures.jpeg(width: 30, height: 20)
        let (processed, _) = try ImageProcessor.process(
            source, sourceWidth: 30, recipe: ImageRecipe(widths: [300, 600], formats: [.jpeg], quality: 80))
        #expect(processed.variants == [ImageVariant(format: .jpeg, width: 30, height: 20)])
    }

    @Test(arguments: 1...8)
    func comesOutUprightWithNoMetadata(orientation: Int) throws {
        let source = try TestPictures.jpeg(width: 80, height: 60, orientation: orientation)
        // The source really carries what must go: its stored picture is turned, it holds GPS.
        #expect(source.range(of: Data("SitegenTestCam".utf8)) != nil)
        let (processed, files) = try ImageProcessor.process(
            source, sourceWidth: 80, recipe: ImageRecipe(widths: [80], formats: [.avif, .webp, .jpeg], quality: 90))
        for (variant, data) in zip(processed.variants, files) {
            let ext = variant.format.fileExtension
            #expect(try Identify.header(data, ext: ext).1 == 80, "orientation \(orientation) \(ext)")
            for q in TestPictures.quadrantColors {
                let (r, g, b) = try Identify.pixel(data, ext: ext, x: q.x, y: q.y)
                let close = abs(r - q.rgb.0) < 40 && abs(g - q.rgb.1) < 40 && abs(b - q.rgb.2) < 40
                #expect(close, "orientation \(orientation) \(ext) at (\(q.x), \(q.y)): \(r),\(g),\(b)")
            }
            #expect(try Identify.run(data, ext: ext, format: "%[EXIF:*]").isEmpty, "orientation \(orientation) \(ext)")
            #expect(data.range(of: Data("SitegenTestCam".utf8)) == nil)
            #expect(data.range(of: Data("Exif".utf8)) == nil)
        }
    }

    @Test func keepsMetadataWhenAsked() throws {
        let source = try TestPictures.jpeg(width: 80, height: 60)
        let (_, files) = try ImageProcessor.process(
            source, sourceWidth: 80,
            recipe: ImageRecipe(widths: [80], formats: [.jpeg], quality: 90, keepMetadata: true))
        #expect(try Identify.run(files[0], ext: "jpg", format: "%[EXIF:Make]").contains("SitegenTestCam"))
    }

    @Test func placeholderIsATinyBlurredPreviewAndTheDominantColour() throws {
        // Teal on the left three fifths, orange on the rest.
        let source = try TestPictures.jpeg(width: 200, height: 100) { x, _, w, _ in
            x < w * 3 / 5 ? (0, 128, 128) : (255, 128, 0)
        }
        let (processed, _) = try ImageProcessor.process(
            source, sourceWidth: 200, recipe: ImageRecipe(widths: [200], formats: [.jpeg], quality: 90))
        #expect(processed.preview.hasPrefix("data:image/webp;base64,"))
        #expect(processed.preview.utf8.count <= 1024)
        let preview = try #require(
            Data(base64Encoded: String(processed.preview.dropFirst("data:image/webp;base64,".count))))
        let (format, w, h) = try Identify.header(preview, ext: "webp")
        #expect(format == "WEBP" && w == 16 && h == 8)
        let rgb = [1, 3, 5].map { Int(processed.color.dropFirst($0).prefix(2), radix: 16) ?? -1 }
        #expect(abs(rgb[0] - 0) < 12 && abs(rgb[1] - 128) < 12 && abs(rgb[2] - 128) < 12, "\(processed.color)")
    }

    /// A strip far taller than wide still gets a preview at least one pixel wide.
    @Test func aThinStripStillHasAPreview() throws {
        let source = try TestPictures.jpeg(width: 2, height: 300)
        let (processed, _) = try ImageProcessor.process(
            source, sourceWidth: 2, recipe: ImageRecipe(widths: [2], formats: [.jpeg], quality: 90))
        let preview = try #require(
            Data(base64Encoded: String(processed.preview.dropFirst("data:image/webp;base64,".count))))
        let (format, w, _) = try Identify.header(preview, ext: "webp")
        #expect(format == "WEBP" && w == 1)
    }

    /// Decoded whole (an output as wide as the source) and shrunk on load (a quarter as wide):
    /// each path fails on its own.
    @Test(arguments: [400, 100])
    func aTruncatedJPEGIsAnError(width: Int) throws {
        let source = try TestPictures.jpeg(width: 400, height: 300, quality: 90)
        let cut = source.prefix(source.count / 2)
        #expect {
            _ = try ImageProcessor.process(
                Data(cut), sourceWidth: 400, recipe: ImageRecipe(widths: [width], formats: [.jpeg], quality: 80))
        } throws: { error in
            let message = (error as? ImageFailure)?.message ?? ""
            return message == "cannot decode: VipsJpeg: Premature end of input file"
        }
    }

    /// libjpeg decodes a JPEG 2, 4 or 8 times smaller when the output is still at least as wide
    /// (libvips sizes it by whole division), the rest is resized.
    @Test func aJPEGShrinksOnLoadByTheLargestFactorThatKeepsTheWidth() {
        #expect(ImageProcessor.jpegShrink(sourceWidth: 4000, width: 1920) == 2)
        #expect(ImageProcessor.jpegShrink(sourceWidth: 4000, width: 960) == 4)
        #expect(ImageProcessor.jpegShrink(sourceWidth: 4000, width: 480) == 8)
        #expect(ImageProcessor.jpegShrink(sourceWidth: 4000, width: 250) == 8)
        #expect(ImageProcessor.jpegShrink(sourceWidth: 3840, width: 1920) == 2)
        #expect(ImageProcessor.jpegShrink(sourceWidth: 3839, width: 1920) == 1)
        #expect(ImageProcessor.jpegShrink(sourceWidth: 1920, width: 1920) == 1)
        #expect(ImageProcessor.jpegShrink(sourceWidth: 300, width: 1920) == 1)
    }

    /// A photo's parts start largest first (their own order where equal): the widest decode
    /// and encode take longest, and a changed photo's build waits for the last part to end.
    @Test func aPhotosLargestPartsStartFirst() throws {
        #expect(ImageProcessor.largestFirst([480, 960, 1920]) == [2, 1, 0])
        #expect(ImageProcessor.largestFirst([5, 9, 5, 9]) == [1, 3, 0, 2])
        let source = try TestPictures.jpeg(width: 400, height: 300)
        let decoded = try ImageProcessor.decode(
            source, sourceWidth: 400, recipe: ImageRecipe(widths: [100, 200, 400], formats: [.webp, .jpeg], quality: 80)
        )
        // Parts in the variants' order: webp 100, 200, 400, then jpeg 100, 200, 400.
        #expect(decoded.parts.map(\.picture) == [0, 1, 2, 0, 1, 2])
        #expect(decoded.startOrder(threads: 2) == [2, 5, 1, 4, 0, 3])
    }

    /// On one thread a photo's encodes start with its narrowest picture, each picture's AVIF
    /// after its other formats, and each picture is dropped once its files are made: the widest
    /// AVIF encode (the AV1 encoder's buffers are a build's largest) runs with no picture held.
    @Test func onOneThreadTheNarrowestPictureIsEncodedAndDroppedFirst() throws {
        let source = try TestPictures.jpeg(width: 400, height: 300)
        let recipe = ImageRecipe(widths: [100, 200, 400], formats: [.avif, .webp], quality: 60)
        let decoded = try ImageProcessor.decode(source, sourceWidth: 400, recipe: recipe)
        // Parts: avif 100, 200, 400 (0-2), then webp 100, 200, 400 (3-5).
        #expect(decoded.startOrder(threads: 1) == [3, 0, 4, 1, 5, 2])
        #expect(decoded.startOrder(threads: 2) == [5, 2, 4, 1, 3, 0])
        #expect(decoded.pictures.held == 3)
        let files = try decoded.encode(threads: 1)
        #expect(decoded.pictures.held == 0)
        #expect(files.count == 6)
        #expect(files[2].prefix(12).suffix(8) == Data("ftypavif".utf8))
        #expect(throws: ImageFailure.self) { try decoded.encode(threads: 1) }
    }

    /// A picture is dropped after its last use that succeeds, not before: a failed use keeps it,
    /// so the failure can be read again alone.
    @Test func aPictureIsHeldUntilItsLastUseSucceeds() throws {
        let source = try TestPictures.jpeg(width: 400, height: 300)
        let decoded = try ImageProcessor.decode(source, sourceWidth: 400, recipe: oneWidth)
        let pictures = DecodedPictures([try decoded.pictures.use(0) { $0 }], usesEach: 2)
        _ = try pictures.use(0) { $0.width }
        #expect(pictures.holds(0))
        #expect(throws: ImageFailure.self) { try pictures.use(0) { _ throws(ImageFailure) in throw ImageFailure("x") } }
        #expect(pictures.holds(0))
        #expect(try pictures.use(0) { $0.width } == 100)
        #expect(!pictures.holds(0) && pictures.held == 0)
    }

    /// Shrunk on load (8 times: 640 px to 80), the picture is still turned upright, at the
    /// exact width and aspect.
    @Test(arguments: [1, 3, 6, 8])
    func comesOutUprightWhenShrunkOnLoad(orientation: Int) throws {
        let source = try TestPictures.jpeg(width: 640, height: 480, orientation: orientation)
        let (processed, files) = try ImageProcessor.process(
            source, sourceWidth: 640, recipe: ImageRecipe(widths: [80, 250], formats: [.jpeg], quality: 90))
        #expect(
            processed.variants == [
                ImageVariant(format: .jpeg, width: 80, height: 60), ImageVariant(format: .jpeg, width: 250, height: 188)
            ])
        for q in TestPictures.quadrantColors {
            let (r, g, b) = try Identify.pixel(files[0], ext: "jpg", x: q.x, y: q.y)
            let close = abs(r - q.rgb.0) < 40 && abs(g - q.rgb.1) < 40 && abs(b - q.rgb.2) < 40
            #expect(close, "orientation \(orientation) at (\(q.x), \(q.y)): \(r),\(g),\(b)")
        }
    }

    /// libvips keeps one error text per process, where the warnings of pictures decoded
    /// without failing (on any thread) pile up: a failure's message is its own reason alone.
    @Test func aFailureIsNotBlamedOnOtherPicturesWarnings() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let source = try Data(contentsOf: repository.appendingPathComponent("content/pinterest/photos/02.jpg"))
        var damaged = source
        damaged[source.count / 2] ^= 0x5A  // decodes, with a warning ("premature end of data segment")
        // Alone, so no other test's failure takes the warnings first.
        try Vips.alone { () throws(ImageFailure) in
            _ = try ImageProcessor.processOnce(damaged, sourceWidth: 400, recipe: recipe)
            #expect(Vips.takeError().contains("Corrupt JPEG data"))
            _ = try ImageProcessor.processOnce(damaged, sourceWidth: 400, recipe: recipe)
        }
        // One width: the failing part is the first to read the text (of several, the widest runs
        // first and takes the warnings with its own error, which is not the one reported).
        #expect {
            _ = try ImageProcessor.process(Data(source.prefix(source.count / 2)), sourceWidth: 400, recipe: oneWidth)
        } throws: { error in
            (error as? ImageFailure)?.message == "cannot decode: VipsJpeg: Premature end of input file"
        }
    }

    let oneWidth = ImageRecipe(widths: [100], formats: [.jpeg], quality: 80)

    /// Warnings another picture left in libvips' error text after a failure's first run (a CI
    /// run once read "Corrupt JPEG data …; Premature end of input file") are not part of the
    /// message its second run, alone, reads.
    @Test func aRunAloneReadsNoWarningsLeftBeforeIt() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let source = try Data(contentsOf: repository.appendingPathComponent("content/pinterest/photos/02.jpg"))
        var damaged = source
        damaged[source.count / 2] ^= 0x5A  // decodes, with a warning ("premature end of data segment")
        let cut = try TestPictures.jpeg(width: 400, height: 300, quality: 90)
        try Vips.alone { () throws(ImageFailure) in
            _ = try ImageProcessor.processOnce(damaged, sourceWidth: 400, recipe: recipe)
        }
        #expect {
            try Vips.alone { () throws(ImageFailure) in
                _ = try ImageProcessor.decodeOnce(Data(cut.prefix(cut.count / 2)), sourceWidth: 400, recipe: oneWidth)
            }
        } throws: { error in
            (error as? ImageFailure)?.message == "cannot decode: VipsJpeg: Premature end of input file"
        }
    }

    /// Found by fuzz/run.sh vips: a 98-byte GIF whose frame declares 65530×57825 px (its header
    /// says 7×5) made libvips allocate 15 GB. Under a .png name it would have reached libvips.
    @Test func onlyJPEGPNGAndWebPBytesAreDecoded() throws {
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("fuzz/seeds/vips")
        let bomb = try Data(contentsOf: seeds.appendingPathComponent("gif-frame-bomb.gif"))
        #expect {
            _ = try ImageProcessor.process(bomb, sourceWidth: 7, recipe: recipe)
        } throws: { error in
            (error as? ImageFailure)?.message
                == "is not a JPEG, PNG or WebP file whatever its name says; only those are resized"
        }
        for name in ["a.jpg", "a.png", "a.webp"] {
            #expect(ImageProcessor.isResizable(try Data(contentsOf: seeds.appendingPathComponent(name))), "\(name)")
        }
    }

    /// Found by fuzz/run.sh vips: a 135×5 JPEG shrunk 8 times on load for a 16 px output had
    /// no row left, and libvips aborted the process. It is shrunk no further than it has rows,
    /// and its corrupt data is an error (the process lives on).
    @Test func aJPEGFewerRowsTallThanItsShrinkIsResizedWhole() throws {
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("fuzz/seeds/vips")
        let source = try Data(contentsOf: seeds.appendingPathComponent("jpeg-shrunk-to-no-row.jpg"))
        #expect {
            _ = try ImageProcessor.process(
                source, sourceWidth: 135, recipe: ImageRecipe(widths: [16, 64], formats: [.jpeg], quality: 50))
        } throws: { error in
            (error as? ImageFailure)?.message.hasSuffix("Quantization table 0x3d was not defined") ?? false
        }
    }

    @Test func bytesThatAreNoImageAreAnError() throws {
        #expect {
            _ = try ImageProcessor.process(Data("not a picture at all".utf8), sourceWidth: 100, recipe: recipe)
        } throws: { error in
            (error as? ImageFailure)?.message.hasPrefix("is not a JPEG, PNG or WebP file") ?? false
        }
    }
}
