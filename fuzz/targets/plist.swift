// Property lists, binary and XML: parsing and locating must never crash or hang.
import Foundation

/// libFuzzer's LLVMFuzzerTestOneInput in the `plist` binary (fuzz/run.sh links it under that name).
@_cdecl("fuzz_plist")
public func fuzzPlist(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    if let value = try? PropertyListReader.read(data, file: "fuzz.plist") { _ = walk(value) }
    _ = PropertyListReader.location(of: [.index(0), .key("a")], in: data)
    _ = PropertyListReader.elementLocations(of: [], in: data)
    return 0
}
