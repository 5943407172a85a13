// Decoding and resizing through libvips, as the build does: a header past the pixel limit is
// refused first (here 4 megapixels, to keep each run short); anything else must decode or fail
// with an error, never crash or hang.
import Foundation

/// libFuzzer's LLVMFuzzerTestOneInput in the `vips` binary (fuzz/run.sh links it under that name).
@_cdecl("fuzz_vips")
public func fuzzVips(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    guard let size = try? ImageProbe.size(of: data, file: "fuzz.bin"), size.width * size.height <= 4_000_000 else { return 0 }
    let recipe = ImageRecipe(widths: [16, 64], formats: [.webp, .jpeg], quality: 50)
    _ = try? ImageProcessor.process(data, sourceWidth: size.width, recipe: recipe)
    return 0
}
