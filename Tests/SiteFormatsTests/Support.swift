import Foundation
import SiteCore
@testable import SiteFormats

/// The diagnostic thrown by `body`, or nil if it succeeded.
func failure(_ body: () throws(Diagnostic) -> Value) -> Diagnostic? {
    switch Result(catching: body) {
    case .success: nil
    case .failure(let diagnostic): diagnostic
    }
}

func jsonFailure(_ text: String) -> Diagnostic? {
    failure { () throws(Diagnostic) in try JSONReader.read(Data(text.utf8), file: "t.json") }
}

func jsonFailure(bytes: [UInt8]) -> Diagnostic? {
    failure { () throws(Diagnostic) in try JSONReader.read(Data(bytes), file: "t.json") }
}

func plistFailure(_ data: Data) -> Diagnostic? {
    failure { () throws(Diagnostic) in try PropertyListReader.read(data, file: "t.plist") }
}

func plistFailure(_ text: String) -> Diagnostic? {
    plistFailure(Data(text.utf8))
}

/// Wraps plist XML body text in the usual header.
func xmlPlist(_ body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    \(body)
    </plist>

    """
}

/// Builds binary property lists object by object, so tests can write malformed ones.
struct BinaryPlistBuilder {
    var objects: [[UInt8]] = []
    var top = 0
    var refSize = 1
    var offsetSize = 1

    static func bigEndian(_ value: Int, _ size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    func ref(_ object: Int) -> [UInt8] { Self.bigEndian(object, refSize) }

    func array(_ refs: [Int], marker: UInt8 = 0xA0) -> [UInt8] {
        precondition(refs.count < 15)
        return [marker | UInt8(refs.count)] + refs.flatMap(ref)
    }

    func dict(_ keys: [Int], _ values: [Int]) -> [UInt8] {
        precondition(keys.count < 15)
        return [0xD0 | UInt8(keys.count)] + keys.flatMap(ref) + values.flatMap(ref)
    }

    static func ascii(_ s: String) -> [UInt8] {
        precondition(s.utf8.count < 15)
        return [0x50 | UInt8(s.utf8.count)] + Array(s.utf8)
    }

    @discardableResult
    mutating func add(_ object: [UInt8]) -> Int {
        objects.append(object)
        return objects.count - 1
    }

    /// The file, and where its offset table and trailer start (for mutation).
    func build() -> (bytes: [UInt8], tableOffset: Int, trailer: Int) {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(out.count)
            out += object
        }
        let tableOffset = out.count
        for offset in offsets { out += Self.bigEndian(offset, offsetSize) }
        let trailer = out.count
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
        out += Self.bigEndian(objects.count, 8) + Self.bigEndian(top, 8) + Self.bigEndian(tableOffset, 8)
        return (out, tableOffset, trailer)
    }

    var data: Data { Data(build().bytes) }
}

/// How many arrays deep `value` goes along first elements (a chain of one-element arrays).
func nestingLevels(_ value: Value) -> Int {
    var value = value
    var levels = 0
    while case .array(let items) = value {
        levels += 1
        guard let first = items.first else { break }
        value = first
    }
    return levels
}
