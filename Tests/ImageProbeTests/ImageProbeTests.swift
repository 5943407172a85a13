import Foundation
import Testing
import SiteCore
@testable import ImageProbe

private func size(_ data: Data, _ file: String = "img/test.bin") throws(Diagnostic) -> ImageSize {
    try ImageProbe.size(of: data, file: file)
}

/// The diagnostic thrown for `data`, or nil if it was (wrongly) accepted.
private func failure(_ data: Data, _ file: String = "img/test.bin") -> Diagnostic? {
    do {
        _ = try ImageProbe.size(of: data, file: file)
        return nil
    } catch {
        return error
    }
}

@Suite struct RasterFormatTests {
    @Test func supportedExtensions() {
        #expect(ImageProbe.supportedExtensions == ["png", "jpg", "jpeg", "gif", "webp", "svg"])
    }

    @Test func png() throws {
        #expect(try size(Samples.png(width: 640, height: 480)) == ImageSize(width: 640, height: 480))
        #expect(try size(Samples.png(width: 1, height: 99_999)) == ImageSize(width: 1, height: 99_999))
    }

    @Test func pngWithBadSignature() {
        var bytes = [UInt8](Samples.png(width: 10, height: 10))
        bytes[5] = 0x00
        let error = failure(Data(bytes), "a.png")
        #expect(error?.message == "not a PNG file: bad signature")
        #expect(error?.location.file == "a.png")
    }

    @Test func pngWhoseFirstChunkIsNotIHDR() {
        var bytes = [UInt8](Samples.png(width: 10, height: 10))
        bytes.replaceSubrange(12..<16, with: Array("IDAT".utf8))
        #expect(failure(Data(bytes))?.message.contains("IHDR") == true)
    }

    @Test func jpegWithoutExif() throws {
        #expect(try size(Samples.jpeg(width: 420, height: 600)) == ImageSize(width: 420, height: 600))
    }

    @Test(arguments: [UInt8(0xC0), 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF])
    func jpegFrameKinds(sof: UInt8) throws {
        #expect(try size(Samples.jpeg(width: 300, height: 200, sof: sof)) == ImageSize(width: 300, height: 200))
    }

    @Test(arguments: [Samples.ByteOrder.intel, .motorola])
    func jpegExifOrientation6SwapsSides(order: Samples.ByteOrder) throws {
        let data = Samples.jpeg(width: 400, height: 300, exif: Samples.exif(orientation: 6, order: order))
        #expect(try size(data) == ImageSize(width: 300, height: 400))
    }

    @Test(arguments: 1...8)
    func jpegEveryOrientation(orientation: Int) throws {
        let data = Samples.jpeg(width: 400, height: 300, exif: Samples.exif(orientation: orientation, order: .motorola))
        let expected = orientation >= 5 ? ImageSize(width: 300, height: 400) : ImageSize(width: 400, height: 300)
        #expect(try size(data) == expected)
    }

    @Test func jpegWithBrokenExifStillHasASize() throws {
        var exif = Samples.exif(orientation: 6, order: .intel)
        exif[12...15] = [0x49, 0x49, 0xFF, 0xFF]  // IFD offset far past the segment
        let data = Samples.jpeg(width: 400, height: 300, exif: exif)
        #expect(try size(data) == ImageSize(width: 400, height: 300))
    }

    @Test func jpegEndingBeforeItsFrame() {
        let full = [UInt8](Samples.jpeg(width: 10, height: 10))
        let sofAt = full.indices.first { full[$0] == 0xFF && full[$0 + 1] == 0xC0 } ?? 0
        #expect(failure(Data(full[..<sofAt]))?.message == "JPEG ends before its frame header")
        #expect(failure(Data(full[..<(sofAt + 6)]))?.message == "JPEG ends inside its frame header")
        #expect(failure(Data([0xFF, 0xD8, 0xFF, 0xD9]))?.message.contains("before its frame header") == true)
    }

    @Test func jpegWithGarbageWhereAMarkerShouldBe() {
        #expect(failure(Data([0xFF, 0xD8, 0x12, 0x34]))?.message.contains("expected a marker") == true)
        #expect(failure(Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01]))?.message.contains("length 1") == true)
    }

    @Test func gif() throws {
        #expect(try size(Samples.gif(width: 320, height: 240)) == ImageSize(width: 320, height: 240))
        #expect(try size(Samples.gif(width: 65535, height: 2, version: "GIF87a")) == ImageSize(width: 65535, height: 2))
        #expect(failure(Data("GIF8xa".utf8) + Data(count: 6))?.message == "not a GIF file: bad signature")
    }

    @Test func webpLossy() throws {
        #expect(try size(Samples.webpLossy(width: 1024, height: 768)) == ImageSize(width: 1024, height: 768))
        // The top two bits of each field are a scaling hint, not part of the size.
        #expect(
            try size(Samples.webpLossy(width: 0xC000 | 50, height: 0x4000 | 60)) == ImageSize(width: 50, height: 60))
    }

    @Test func webpLossyWithBadStartCode() {
        var bytes = [UInt8](Samples.webpLossy(width: 10, height: 10))
        bytes[23] = 0x00
        #expect(failure(Data(bytes))?.message.contains("start code") == true)
    }

    @Test func webpLossless() throws {
        #expect(try size(Samples.webpLossless(width: 16383, height: 1)) == ImageSize(width: 16383, height: 1))
        #expect(try size(Samples.webpLossless(width: 777, height: 9999)) == ImageSize(width: 777, height: 9999))
    }

    @Test func webpExtended() throws {
        #expect(try size(Samples.webpExtended(width: 70_000, height: 3)) == ImageSize(width: 70_000, height: 3))
        let huge = Samples.webpExtended(width: 1 << 24, height: 5)
        #expect(failure(huge)?.message.contains("implausible") == true)
    }

    @Test func riffThatIsNotWebP() {
        var bytes = [UInt8](Samples.webpLossy(width: 10, height: 10))
        bytes.replaceSubrange(8..<12, with: Array("AVI ".utf8))
        #expect(failure(Data(bytes))?.message.contains("AVI") == true)
    }

    @Test func formatComesFromTheBytesNotTheExtension() throws {
        #expect(try size(Samples.gif(width: 5, height: 6), "photo.png") == ImageSize(width: 5, height: 6))
    }
}

@Suite struct SVGTests {
    @Test func viewBoxAfterPrologRounds() throws {
        let text = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment with <svg width="1" height="1"> inside -->
            <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
              <!ENTITY ns "http://www.w3.org/2000/svg">
            ]>
            <svg xmlns="http://www.w3.org/2000/svg"
                 viewBox = '-10,-20 100.6   50.4' width="100%">
              <rect/>
            </svg>
            """
        #expect(try size(Samples.svg(text)) == ImageSize(width: 101, height: 50))
    }

    @Test func viewBoxWinsOverWidthAndHeight() throws {
        let text = #"<svg width="10" height="10" viewBox="0 0 300 150"/>"#
        #expect(try size(Samples.svg(text)) == ImageSize(width: 300, height: 150))
    }

    @Test func widthAndHeightInPixelsOrUnitless() throws {
        #expect(try size(Samples.svg(#"<svg width="120px" height="80"></svg>"#)) == ImageSize(width: 120, height: 80))
        #expect(
            try size(Samples.svg(#"<svg:svg xmlns:svg="x" width=" 1.5e2 " height='33.5px'>"#))
                == ImageSize(width: 150, height: 34))
    }

    @Test func neitherViewBoxNorSize() {
        #expect(
            failure(Samples.svg(#"<svg xmlns="http://www.w3.org/2000/svg" width="10"></svg>"#))?.message
                == "SVG has neither a viewBox nor width and height")
    }

    @Test func unsupportedUnitsAndBadNumbers() {
        #expect(failure(Samples.svg(#"<svg width="50%" height="10">"#))?.message.contains("50%") == true)
        #expect(failure(Samples.svg(#"<svg width="10em" height="10">"#))?.message.contains("10em") == true)
        #expect(failure(Samples.svg(#"<svg width="inf" height="10">"#)) != nil)
        #expect(failure(Samples.svg(#"<svg viewBox="0 0 10">"#))?.message.contains("four numbers") == true)
        #expect(failure(Samples.svg(#"<svg viewBox="0 0 1e400 10">"#)) != nil)
        #expect(failure(Samples.svg(#"<svg viewBox="0 0 -5 10">"#))?.message.contains("negative") == true)
        #expect(failure(Samples.svg(#"<svg viewBox="0 0 0.2 10">"#))?.message.contains("zero") == true)
    }

    @Test func rootThatIsNotSVG() {
        #expect(
            failure(Samples.svg("<html><svg viewBox='0 0 1 1'></svg></html>"), "a.svg")?.message
                == "not an SVG file: the root element is <html>")
        #expect(failure(Samples.svg("<svgfoo viewBox='0 0 1 1'>"), "a.svg")?.message.contains("<svgfoo>") == true)
    }

    /// Markup under another image's name is said to be what it looks like, not a broken SVG.
    @Test func markupUnderARasterNameSaysWhatItIs() throws {
        let page = Samples.svg("<!DOCTYPE html>\n<html><head><title>404</title></head></html>")
        #expect(failure(page, "photo.jpg")?.message == "not a PNG, JPEG, GIF, WebP or SVG image: it starts like HTML")
        #expect(
            failure(Samples.svg("<?xml version='1.0'?><rss>"), "photo.png")?.message
                == "not a PNG, JPEG, GIF, WebP or SVG image: it starts like markup with the root <rss>")
        // An SVG is one whatever its name.
        #expect(try size(Samples.svg("<svg viewBox='0 0 3 4'/>"), "photo.jpg") == ImageSize(width: 3, height: 4))
    }

    @Test func truncatedSVG() {
        #expect(failure(Samples.svg(#"<svg viewBox="0 0 10 10""#))?.message.contains("ends inside") == true)
        #expect(failure(Samples.svg("<!-- never closed"))?.message == "SVG ends inside a comment")
        #expect(failure(Samples.svg("<?xml version='1.0'?>  "))?.message == "SVG has no root element")
    }
}

@Suite struct RobustnessTests {
    static let samples: [(String, Data)] = [
        ("png", Samples.png(width: 33, height: 44)),
        ("jpeg", Samples.jpeg(width: 33, height: 44, exif: Samples.exif(orientation: 8, order: .intel))),
        ("jpeg-mm", Samples.jpeg(width: 33, height: 44, exif: Samples.exif(orientation: 5, order: .motorola))),
        ("gif", Samples.gif(width: 33, height: 44)),
        ("webp-lossy", Samples.webpLossy(width: 33, height: 44)),
        ("webp-lossless", Samples.webpLossless(width: 33, height: 44)),
        ("webp-extended", Samples.webpExtended(width: 33, height: 44)),
        ("svg", Samples.svg(#"<?xml version="1.0"?><svg viewBox="0 0 33 44"></svg>"#))
    ]

    @Test func emptyAndUnknownInput() {
        #expect(failure(Data())?.message == "image file is empty")
        #expect(failure(Data("hello".utf8), "x.bin")?.message.contains("not a recognised image format") == true)
        #expect(failure(Data("hello".utf8), "x.JPG")?.message == "not a JPEG file: bad signature")
        #expect(failure(Data([0x89, 0x50, 0x4E, 0x47]))?.message.contains("PNG ends") == true)
    }

    @Test func zeroAndAbsurdSizes() {
        #expect(failure(Samples.png(width: 0, height: 10))?.message.contains("zero size") == true)
        #expect(failure(Samples.gif(width: 10, height: 0))?.message.contains("zero size") == true)
        #expect(failure(Samples.png(width: 100_001, height: 10))?.message.contains("implausible") == true)
        // 2³²−1 must neither overflow nor pass.
        #expect(failure(Samples.png(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF))?.message.contains("implausible") == true)
        #expect(failure(Samples.svg(#"<svg viewBox="0 0 1e300 1"/>"#))?.message.contains("implausible") == true)
    }

    /// A sample cut short anywhere either fails or still gives the full file's size.
    @Test(arguments: samples.map(\.0))
    func everyTruncationFailsOrAgrees(name: String) throws {
        let data = try #require(Self.samples.first { $0.0 == name }?.1)
        let full = try size(data)
        #expect(full.width * full.height == 33 * 44)
        for length in 0..<data.count {
            // A slice keeps its parent's indices, which the reader must not assume start at 0.
            let prefix = Data(data.dropLast(data.count - length)).dropFirst(0)
            if let result = try? size(prefix) { #expect(result == full, "prefix of \(length) bytes") }
        }
        // Every size field lies beyond byte 9, so nine bytes can never be enough.
        #expect(failure(data.prefix(9)) != nil)
    }

    @Test func readsFromASliceWithOffsetIndices() throws {
        let padded = Data(count: 7) + Samples.jpeg(width: 12, height: 34)
        let slice = padded.dropFirst(7)
        #expect(slice.startIndex == 7)
        #expect(try size(slice) == ImageSize(width: 12, height: 34))
    }

    @Test func randomGarbageAndMutationsNeverCrash() {
        var rng = SplitMix64(seed: 0x51_7E_6E_2)
        var accepted = 0
        for round in 0..<4000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            } else {
                bytes = [UInt8](Self.samples[round / 2 % Self.samples.count].1)
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                }
            }
            if let result = try? size(Data(bytes)) {
                accepted += 1
                #expect((1...ImageProbe.maximumSide).contains(result.width))
                #expect((1...ImageProbe.maximumSide).contains(result.height))
            }
        }
        // Mutations often miss the size fields, so some inputs must still be accepted.
        #expect(accepted > 0)
    }

    @Test func onlyTheHeaderIsRead() throws {
        // 64 MB behind a small header: reading it all would show up as a slow test.
        let tail = Data(count: 64 << 20)
        let start = ContinuousClock.now
        #expect(try size(Samples.png(width: 5, height: 7) + tail) == ImageSize(width: 5, height: 7))
        #expect(try size(Samples.svg("<svg width='5' height='7'>") + tail) == ImageSize(width: 5, height: 7))
        #expect(failure(Samples.svg("<!--") + tail)?.message.contains("first \(SVG.scanLimit) bytes") == true)
        #expect(ContinuousClock.now - start < .seconds(5))
    }
}

/// The boundaries of each reader's guards, one case per guard (scripts/mutants.txt, issue 37).
@Suite struct ProbeBoundaryTests {
    @Test func sidesUpToTheMaximumAreAccepted() throws {
        let side = ImageProbe.maximumSide
        #expect(try size(Samples.png(width: side, height: side)) == ImageSize(width: side, height: side))
        #expect(failure(Samples.png(width: side + 1, height: side))?.message.contains("implausible") == true)
        #expect(failure(Samples.png(width: side, height: side + 1))?.message.contains("implausible") == true)
    }

    /// Bytes of no known format: the extension names the format the author meant.
    @Test func unknownBytesAreNamedByTheExtension() {
        let text = Data("hello".utf8)
        #expect(failure(text, "a.png")?.message == "not a PNG file: bad signature")
        #expect(failure(text, "a.jpeg")?.message == "not a JPEG file: bad signature")
        #expect(failure(text, "a.gif")?.message == "not a GIF file: bad signature")
        #expect(failure(text, "a.webp")?.message == "not a WebP file: bad signature")
        #expect(failure(text, "a.svg")?.message == "not an SVG file: it does not start with markup")
        #expect(failure(Data(" \n\t<svg width='2' height='3'/>".utf8), "a.txt").map(\.message) == nil)
    }

    @Test func losslessWebPHeight() throws {
        #expect(try size(Samples.webpLossless(width: 1, height: 16384)) == ImageSize(width: 1, height: 16384))
    }

    @Test func losslessWebPWithABadSignature() {
        var bytes = [UInt8](Samples.webpLossless(width: 10, height: 10))
        bytes[20] = 0x2E
        #expect(failure(Data(bytes))?.message == "WebP (lossless) has a bad signature")
    }

    /// Any negative side is refused as negative, even one that would round to zero.
    @Test func slightlyNegativeSides() {
        #expect(failure(Samples.svg(#"<svg viewBox="0 0 -0.4 10">"#))?.message == "SVG viewBox width is negative")
        #expect(failure(Samples.svg(#"<svg width="10" height="-0.9px">"#))?.message == "SVG height is negative")
    }

    @Test func viewBoxOfMoreThanFourParts() {
        #expect(failure(Samples.svg(#"<svg viewBox="0 0 10 10 px">"#))?.message.contains("four numbers") == true)
        #expect(failure(Samples.svg(#"<svg viewBox="0 0 10 10 20">"#))?.message.contains("four numbers") == true)
    }

    @Test func numbersThatDoubleWouldTakeButXMLDoesNot() {
        for text in ["0x10", "1_0", "10.5.5", "nan", " 1 2"] {
            #expect(SVG.number(text) == nil, "\(text)")
            #expect(failure(Samples.svg("<svg width='\(text)' height='10'>"))?.message.contains("not a length") == true)
        }
        #expect(SVG.number("-1.5e+2") == -150)
    }

    @Test func doctypeWithAQuotedGreaterThanSign() throws {
        let text = #"<!DOCTYPE svg SYSTEM "a>b.dtd" [ <!ENTITY x 'c>d'> ]><svg viewBox="0 0 7 8"/>"#
        #expect(try size(Samples.svg(text)) == ImageSize(width: 7, height: 8))
    }

    @Test func theFirstOfDuplicateAttributesCounts() throws {
        #expect(
            try size(Samples.svg(#"<svg viewBox="0 0 3 4" viewBox="0 0 30 40">"#)) == ImageSize(width: 3, height: 4))
    }

    @Test func attributesMustBeSeparatedBySpace() {
        #expect(failure(Samples.svg(#"<svg width="1"height="2">"#))?.message == "SVG root <svg> tag is malformed")
        #expect(
            failure(Samples.svg(#"<svg width="1" height=2>"#))?.message == "SVG attribute height has an unquoted value")
        #expect(failure(Samples.svg(#"<svg width>"#))?.message == "SVG attribute width has no value")
    }

    @Test func aPrologThatEndsAtTheLastByte() {
        #expect(failure(Samples.svg("<!-- c -->"))?.message == "SVG has no root element")
        #expect(failure(Samples.svg("<?xml?>"))?.message == "SVG has no root element")
        #expect(failure(Samples.svg("<!DOCTYPE svg>"))?.message == "SVG has no root element")
        #expect(failure(Samples.svg("<!DOCTYPE svg"))?.message == "SVG ends inside its doctype")
        #expect(failure(Samples.svg("<?xml"))?.message == "SVG ends inside a processing instruction")
    }

    /// A file that ends inside an attribute's name or value says so, not that the value is malformed.
    @Test func aTagCutInsideAnAttribute() {
        for text in ["<svg width", "<svg width ", #"<svg viewBox="0 0 10"#, "<svg viewBox='"] {
            #expect(failure(Samples.svg(text))?.message == "SVG ends inside its root <svg> tag", "\(text)")
        }
        let padding = String(repeating: " ", count: SVG.scanLimit - 10)
        let cut = "SVG has no complete root <svg> tag within its first \(SVG.scanLimit) bytes"
        #expect(failure(Samples.svg(padding + "<svg viewBox='0 0 1 1'>"))?.message == cut, "cut in the name")
        #expect(failure(Samples.svg(padding + "<svg a='0 0 1 1'>"))?.message == cut, "cut in the value")
    }

    @Test func aTagCutAtTheScanLimitSaysSo() throws {
        let padding = String(repeating: " ", count: SVG.scanLimit - 10)
        let spaces = String(repeating: " ", count: 20)
        #expect(
            failure(Samples.svg(padding + "<svg" + spaces + "viewBox='0 0 1 1'>"))?.message
                == "SVG has no complete root <svg> tag within its first \(SVG.scanLimit) bytes")
        // A tag that ends just within the limit is read.
        let fits = String(repeating: " ", count: SVG.scanLimit - 24) + "<svg viewBox='0 0 1 1'>"
        #expect(fits.utf8.count == SVG.scanLimit - 1)
        #expect(try size(Samples.svg(fits + "  ")) == ImageSize(width: 1, height: 1))
    }
}
