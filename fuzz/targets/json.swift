// JSON reader: parsing, and locating values for messages, must never crash or hang.
import Foundation

/// libFuzzer's LLVMFuzzerTestOneInput in the `json` binary (fuzz/run.sh links it under that name).
@_cdecl("fuzz_json")
public func fuzzJSON(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    if let value = try? JSONReader.read(data, file: "fuzz.json") {
        _ = walk(value)
        if case .array(let items) = value, !items.isEmpty {
            _ = JSONReader.location(of: [.index(items.count - 1)], in: data)
        }
    }
    _ = JSONReader.elementLocations(of: [], in: data)
    _ = JSONReader.location(of: [.key("a"), .index(0)], in: data)
    return 0
}
