// site.yml: every configuration, valid or not, gives a configuration or diagnostics, never a crash.
import Foundation

/// libFuzzer's LLVMFuzzerTestOneInput in the `config` binary (fuzz/run.sh links it under that name).
@_cdecl("fuzz_config")
public func fuzzConfig(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let text = String(validating: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self) else { return 0 }
    _ = try? SiteConfig.parse(text, file: "site.yml")
    return 0
}
