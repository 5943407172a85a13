// Image headers (PNG, JPEG, GIF, WebP, SVG): reading a size must never crash or hang.
import Foundation

/// libFuzzer's LLVMFuzzerTestOneInput in the `image` binary (fuzz/run.sh links it under that name).
@_cdecl("fuzz_image")
public func fuzzImage(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    _ = try? ImageProbe.size(of: data, file: "fuzz.bin")
    return 0
}
