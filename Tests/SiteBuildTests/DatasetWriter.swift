import Foundation

/// A dataset value as the differential test writes it, in any of the three formats sitegen reads.
/// Records keep their keys in order and the writers are the test's own, so one spec gives the
/// same bytes in every process (Foundation's binary plists follow a dictionary's hashed order).
indirect enum DataValue {
    case string(String)
    case integer(Int)
    case real(Double)
    /// A calendar day: text `YYYY-MM-DD` in JSON, a `<date>` in property lists.
    case day(Int, Int, Int)
    case list([DataValue])
    case record([(String, DataValue)])
}

/// The file formats of collections' datasets.
enum DataFormat: String, CaseIterable {
    case json, wrappedJSON, xmlPlist, binaryPlist

    var fileExtension: String { self == .json || self == .wrappedJSON ? "json" : "plist" }

    func encode(_ items: [DataValue]) -> Data {
        switch self {
        case .json: Data((JSONText.write(.list(items)) + "\n").utf8)
        case .wrappedJSON:
            Data((JSONText.write(.record([("count", .integer(items.count)), ("results", .list(items))])) + "\n").utf8)
        case .xmlPlist: Data(XMLPlistText.write(.list(items)).utf8)
        case .binaryPlist: BinaryPlist.write(.list(items))
        }
    }
}

/// Days from 1970-01-01 to a proleptic Gregorian day (H. Hinnant's days_from_civil).
func daysFromCivil(_ y: Int, _ m: Int, _ d: Int) -> Int {
    let y = m <= 2 ? y - 1 : y
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146097 + doe - 719468
}

func dayText(_ y: Int, _ m: Int, _ d: Int) -> String {
    String(format: "%04d-%02d-%02d", y, m, d)
}

enum JSONText {
    static func write(_ v: DataValue, indent: String = "") -> String {
        switch v {
        case .string(let s): return quote(s)
        case .integer(let i): return String(i)
        case .real(let r): return String(r)
        case .day(let y, let m, let d): return quote(dayText(y, m, d))
        case .list(let l):
            let inner = indent + "  "
            return l.isEmpty
                ? "[]"
                : "[\n" + l.map { inner + write($0, indent: inner) }.joined(separator: ",\n") + "\n"
                    + indent + "]"
        case .record(let r):
            return "{" + r.map { "\(quote($0.0)): \(write($0.1, indent: indent))" }.joined(separator: ", ") + "}"
        }
    }

    static func quote(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

enum XMLPlistText {
    static func write(_ v: DataValue) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(element(v))
        </plist>

        """
    }

    static func element(_ v: DataValue) -> String {
        switch v {
        case .string(let s): "<string>\(escape(s))</string>"
        case .integer(let i): "<integer>\(i)</integer>"
        case .real(let r): "<real>\(r)</real>"
        case .day(let y, let m, let d): "<date>\(dayText(y, m, d))T00:00:00Z</date>"
        case .list(let l): "<array>\n" + l.map { element($0) + "\n" }.joined() + "</array>"
        case .record(let r): "<dict>" + r.map { "<key>\(escape($0.0))</key>\(element($0.1))" }.joined() + "</dict>"
        }
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

/// A `bplist00` writer: objects in depth-first order, 2-byte object references, 4-byte offsets.
enum BinaryPlist {
    static func write(_ root: DataValue) -> Data {
        var objects: [Data] = []
        _ = add(root, to: &objects)
        var out = Data("bplist00".utf8)
        var offsets: [Int] = []
        for o in objects {
            offsets.append(out.count)
            out.append(o)
        }
        let table = out.count
        for o in offsets { out.append(bigEndian(UInt64(o), bytes: 4)) }
        out.append(Data(repeating: 0, count: 6))
        out.append(contentsOf: [4, 2])
        out.append(bigEndian(UInt64(objects.count), bytes: 8))
        out.append(bigEndian(0, bytes: 8))
        out.append(bigEndian(UInt64(table), bytes: 8))
        return out
    }

    /// Appends `v` (after its children) and returns its index; a container's slot is taken first
    /// so that the root is object 0.
    private static func add(_ v: DataValue, to objects: inout [Data]) -> Int {
        let index = objects.count
        objects.append(Data())
        var body: Data
        switch v {
        case .string(let s):
            if s.allSatisfy(\.isASCII) {
                body = marker(0x50, count: s.utf8.count) + Data(s.utf8)
            } else {
                let units = Array(s.utf16)
                body = marker(0x60, count: units.count)
                for u in units { body.append(bigEndian(UInt64(u), bytes: 2)) }
            }
        case .integer(let i): body = Data([0x13]) + bigEndian(UInt64(bitPattern: Int64(i)), bytes: 8)
        case .real(let r): body = Data([0x23]) + bigEndian(r.bitPattern, bytes: 8)
        case .day(let y, let m, let d):
            let seconds = Double((daysFromCivil(y, m, d) - daysFromCivil(2001, 1, 1)) * 86400)
            body = Data([0x33]) + bigEndian(seconds.bitPattern, bytes: 8)
        case .list(let l):
            let refs = l.map { add($0, to: &objects) }
            body = marker(0xA0, count: refs.count)
            for r in refs { body.append(bigEndian(UInt64(r), bytes: 2)) }
        case .record(let r):
            let keys = r.map { add(.string($0.0), to: &objects) }, values = r.map { add($0.1, to: &objects) }
            body = marker(0xD0, count: r.count)
            for ref in keys + values { body.append(bigEndian(UInt64(ref), bytes: 2)) }
        }
        objects[index] = body
        return index
    }

    private static func marker(_ kind: UInt8, count: Int) -> Data {
        count < 15 ? Data([kind | UInt8(count)]) : Data([kind | 0xF, 0x13]) + bigEndian(UInt64(count), bytes: 8)
    }

    private static func bigEndian(_ v: UInt64, bytes: Int) -> Data {
        Data((0..<bytes).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) })
    }
}
