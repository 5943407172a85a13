// CSV reader: parsing, and locating items and cells for messages, must never crash or hang.
import Foundation

/// libFuzzer's LLVMFuzzerTestOneInput in the `csv` binary (fuzz/run.sh links it under that name).
@_cdecl("fuzz_csv")
public func fuzzCSV(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    if let (value, _) = try? CSVReader.read(data, file: "fuzz.csv") {
        _ = walk(value)
        if case .array(let items) = value, case .dictionary(let cells)? = items.last, let key = cells.keys.first {
            _ = CSVReader.location(of: [.index(items.count - 1), .key(key)], in: data)
        }
    }
    _ = CSVReader.location(of: [.index(0)], in: data)
    return 0
}
