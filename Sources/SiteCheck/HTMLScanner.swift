import SiteCore

/// One start tag as the scanner saw it. Names are lower-cased ASCII; values stay byte ranges
/// into the page until asked for, so the attributes nobody checks (`class`, `style`) cost nothing.
struct StartTag {
    struct Attribute {
        var name: String
        /// The value's bytes (without quotes); nil for an attribute written without `=`.
        var value: Range<Int>?
        /// Where the value starts (or the name, without a value): what a problem points at.
        var offset: Int
    }

    var name: String
    var attributes: [Attribute]

    /// The first attribute of that name (the HTML parser ignores repeats).
    func attribute(_ name: String) -> Attribute? {
        attributes.first { $0.name == name }
    }
}

/// A one-pass scanner of HTML start tags, after the tokenizer of the HTML standard (§13.2.5) in
/// the parts that decide where a tag is: quoted and unquoted attribute values, comments,
/// doctypes and other `<!…>`, end tags (whose attributes are skipped), and the raw text of
/// `<script>`, `<style>`, `<textarea>`, `<title>` … so that a `<a href>` written inside a script
/// string is not taken for a link. Never fails: any bytes scan to some list of tags.
enum HTMLScanner {
    /// Elements whose content is text up to their end tag (raw text and RCDATA in the standard).
    /// `<noscript>` is not among them: its markup is what readers without JavaScript get, and its
    /// links have to work too.
    static let rawTextElements: Set<String> = [
        "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes"
    ]

    /// Calls `visit` with every start tag, in document order.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, _ visit: (StartTag) -> Void) {
        let n = bytes.count
        var i = 0
        while let lt = find(UInt8(ascii: "<"), in: bytes, from: i) {
            i = lt + 1
            guard i < n else { return }
            switch bytes[i] {
            case UInt8(ascii: "!"):
                if i + 2 < n, bytes[i + 1] == UInt8(ascii: "-"), bytes[i + 2] == UInt8(ascii: "-") {
                    i = endOfComment(bytes, from: i + 3)
                } else {
                    // <!DOCTYPE …>, <![CDATA[…]]> and bogus comments
                    i = after(UInt8(ascii: ">"), in: bytes, from: i)
                }
            case UInt8(ascii: "?"):
                i = after(UInt8(ascii: ">"), in: bytes, from: i)
            case UInt8(ascii: "/"):
                if i + 1 < n, isASCIILetter(bytes[i + 1]) {
                    guard let (_, end) = tag(bytes, nameStart: i + 1) else { return }
                    i = end
                } else {
                    i = after(UInt8(ascii: ">"), in: bytes, from: i)  // `</>` and `</ …>`
                }
            case let c where isASCIILetter(c):
                // A tag cut off by the end of the file is dropped.
                guard let (t, end) = tag(bytes, nameStart: i) else { return }
                visit(t)
                i = end
                if t.name == "plaintext" { return }
                if rawTextElements.contains(t.name) { i = endTag(t.name, in: bytes, from: i) ?? n }
            default:
                continue  // a lone `<` is text
            }
        }
    }

    /// Reads a tag from its name on: the lower-cased name, its attributes and the index after `>`;
    /// nil when the file ends inside it.
    private static func tag(_ bytes: UnsafeBufferPointer<UInt8>, nameStart: Int) -> (StartTag, Int)? {
        let n = bytes.count
        var i = nameStart
        while i < n, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: "/"), bytes[i] != UInt8(ascii: ">") { i += 1 }
        var t = StartTag(name: lowercased(bytes, nameStart..<i), attributes: [])
        while true {
            while i < n, isSpace(bytes[i]) || bytes[i] == UInt8(ascii: "/") { i += 1 }
            guard i < n else { return nil }
            if bytes[i] == UInt8(ascii: ">") { return (t, i + 1) }
            // The name: its first character may even be `=`.
            let nameStart = i
            i += 1
            while i < n, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: "/"), bytes[i] != UInt8(ascii: ">"),
                bytes[i] != UInt8(ascii: "=")
            { i += 1 }
            let nameEnd = i
            while i < n, isSpace(bytes[i]) { i += 1 }
            var value: Range<Int>?
            if i < n, bytes[i] == UInt8(ascii: "=") {
                i += 1
                while i < n, isSpace(bytes[i]) { i += 1 }
                if i < n, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") {
                    guard let close = find(bytes[i], in: bytes, from: i + 1) else { return nil }
                    value = (i + 1)..<close
                    i = close + 1
                } else {
                    let start = i
                    while i < n, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: ">") { i += 1 }
                    value = start..<i
                }
            }
            let name = lowercased(bytes, nameStart..<nameEnd)
            if !t.attributes.contains(where: { $0.name == name }) {
                t.attributes.append(.init(name: name, value: value, offset: value?.lowerBound ?? nameStart))
            }
        }
    }

    /// After `<!--`: the index after the comment's end (`-->`, `--!>`, or at once `>` / `->`).
    private static func endOfComment(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let n = bytes.count
        if start < n, bytes[start] == UInt8(ascii: ">") { return start + 1 }
        if start + 1 < n, bytes[start] == UInt8(ascii: "-"), bytes[start + 1] == UInt8(ascii: ">") { return start + 2 }
        var i = start
        while let gt = find(UInt8(ascii: ">"), in: bytes, from: i) {
            if gt >= start + 2, bytes[gt - 1] == UInt8(ascii: "-"), bytes[gt - 2] == UInt8(ascii: "-") { return gt + 1 }
            if gt >= start + 3, bytes[gt - 1] == UInt8(ascii: "!"), bytes[gt - 2] == UInt8(ascii: "-"),
                bytes[gt - 3] == UInt8(ascii: "-")
            {
                return gt + 1
            }
            i = gt + 1
        }
        return n
    }

    /// The index of the `</name` that ends a raw text element (case-insensitive, followed by
    /// a space, `/` or `>`), or nil when there is none.
    private static func endTag(_ name: String, in b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let name = Array(name.utf8)
        let n = b.count
        var i = start
        while let lt = find(UInt8(ascii: "<"), in: b, from: i) {
            i = lt + 1
            let end = lt + 2 + name.count
            guard end <= n else { return nil }
            guard b[lt + 1] == UInt8(ascii: "/") else { continue }
            var same = true
            for k in 0..<name.count where asciiLower(b[lt + 2 + k]) != name[k] { same = false; break }
            if same, end == n || isSpace(b[end]) || b[end] == UInt8(ascii: "/") || b[end] == UInt8(ascii: ">") {
                return lt
            }
        }
        return nil
    }

    /// The index of the next `byte` from `start` (memchr: most of a page is text between tags).
    static func find(_ byte: UInt8, in b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        b.firstIndex(of: byte, from: start)
    }

    private static func after(_ byte: UInt8, in b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        find(byte, in: b, from: start).map { $0 + 1 } ?? b.count
    }

    /// The HTML standard's ASCII whitespace: tab, line feed, form feed, carriage return, space.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    static func asciiLower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    private static func lowercased(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(unsafeUninitializedCapacity: range.count) { out in
            for (k, i) in range.enumerated() { out[k] = asciiLower(bytes[i]) }
            return range.count
        }
    }
}
