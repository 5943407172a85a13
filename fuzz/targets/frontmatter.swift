// Note front matter (YAML through Yams) and Markdown (cmark): must never crash or hang.
import Foundation

/// libFuzzer's LLVMFuzzerTestOneInput in the `frontmatter` binary (fuzz/run.sh links it under that name).
@_cdecl("fuzz_frontmatter")
public func fuzzFrontMatter(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let text = String(validating: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self) else { return 0 }
    if let doc = try? FrontMatter.parse(text, file: "content/notes/fuzz.md") {
        _ = doc.fields.values.reduce(0) { $0 + walk($1) }
    }
    return 0
}
