import SiteCore

/// The elements cmark-gfm writes for Markdown (no raw HTML), and what the HTML passes need to know
/// of each: read once from the passes' own tables, so that `KnownMarkupPass` decides as they do.
/// A name not among them gives up the scan (the parsing pass reads it). All are in the allowlist
/// (`KnownMarkupPassTests`), which `KnownMarkupPass` therefore does not ask.
enum KnownElement: UInt8, CaseIterable {
    case p, h1, h2, h3, h4, h5, h6, ul, ol, li, blockquote, hr, br, code, em, strong, a, img, del
    case table, thead, tbody, tr, th, td

    struct Info {
        let name: String
        let utf8: [UInt8]
        let isVoid: Bool
        /// Its start tag closes an open `p`.
        let closesParagraph: Bool
        /// Not counted in the nesting (`NestingDepth.closedByNext`).
        let closedByNext: Bool
        /// Text in it (not only white space) is moved before the table by the parser.
        let holdsNoText: Bool
        let headingLevel: Int?
    }

    static let infos: [Info] = allCases.map { element in
        let name = String(describing: element)
        return Info(
            name: name, utf8: Array(name.utf8), isVoid: HTMLRewriter.void.contains(name),
            closesParagraph: HTMLRewriter.paragraphClosers.contains(name),
            closedByNext: NestingDepth.closedByNext.contains(name),
            holdsNoText: ["table", "thead", "tbody", "tfoot", "tr"].contains(name),
            headingLevel: HTMLRewriter.headings.contains(name) ? Int(name.dropFirst()) : nil)
    }

    var info: Info { Self.infos[Int(rawValue)] }

    /// The element named by `bytes[range]`, nil if cmark-gfm writes no such element.
    static func named(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> KnownElement? {
        for element in byFirstByte[Int(bytes[range.lowerBound])] {
            let name = element.info.utf8
            guard name.count == range.count else { continue }
            var k = 1
            while k < name.count, name[k] == bytes[range.lowerBound + k] { k += 1 }
            if k == name.count { return element }
        }
        return nil  // not an element cmark-gfm writes
    }

    /// The elements by the first byte of their name.
    private static let byFirstByte: [[KnownElement]] = (0..<256).map { b in
        allCases.filter { Int($0.info.utf8[0]) == b }
    }
}

/// cmark-gfm's HTML as a list of texts and tags, without making strings: where each is and what
/// element it names. nil where a tag is not as cmark-gfm writes one (then the parser reads it).
struct KnownMarkupScan {
    struct Token {
        enum Kind: UInt8 { case text, start, end, marker, markerEnd }
        var kind: Kind
        /// For `start` and `end`.
        var element: KnownElement
        /// Whether a start tag has attributes (which `attributes(of:)` reads).
        var hasAttributes: Bool
        /// The text, or the whole tag.
        var range: Range<Int>
        /// Where a tag's attributes start (after its name).
        var attributesStart: Int
    }

    let bytes: UnsafeBufferPointer<UInt8>
    /// The markers' element name (`MarkedHTML.marker`).
    let marker: [UInt8]

    func tokens() -> [Token]? {
        var tokens: [Token] = []
        tokens.reserveCapacity(bytes.count / 16)
        var i = 0
        while i < bytes.count {
            guard let at = bytes.firstIndex(of: UInt8(ascii: "<"), from: i) else {
                tokens.append(
                    Token(
                        kind: .text, element: .p, hasAttributes: false, range: i..<bytes.count,
                        attributesStart: 0))
                break
            }
            if at > i {
                tokens.append(Token(kind: .text, element: .p, hasAttributes: false, range: i..<at, attributesStart: 0))
            }
            guard let tag = tag(at: at) else { return nil }
            tokens.append(tag)
            i = tag.range.upperBound
        }
        return tokens
    }

    /// The tag starting at `lt`.
    func tag(at lt: Int) -> Token? {
        var j = lt + 1
        let closing = j < bytes.count && bytes[j] == UInt8(ascii: "/")
        if closing { j += 1 }
        let nameStart = j
        while j < bytes.count, Self.isNameByte(bytes[j]) { j += 1 }
        guard j > nameStart else { return nil }
        let isMarker = UnsafeBufferPointer(rebasing: bytes[nameStart..<j]).elementsEqual(marker)
        let element = isMarker ? KnownElement.p : KnownElement.named(bytes, nameStart..<j)
        guard let element else { return nil }
        let kind: Token.Kind = isMarker ? (closing ? .markerEnd : .marker) : (closing ? .end : .start)
        var token = Token(kind: kind, element: element, hasAttributes: false, range: lt..<lt, attributesStart: j)
        while j < bytes.count {
            switch bytes[j] {
            case UInt8(ascii: " "): j += 1
            case UInt8(ascii: ">"):
                if closing && token.hasAttributes { return nil }
                token.range = lt..<(j + 1)
                return token
            case UInt8(ascii: "/"):
                guard j + 1 < bytes.count, bytes[j + 1] == UInt8(ascii: ">"), !closing else { return nil }
                token.range = lt..<(j + 2)  // `/>` closes nothing in HTML: void elements have no end anyway
                return token
            default:
                guard let end = attribute(at: j) else { return nil }
                token.hasAttributes = true
                j = end
            }
        }
        return nil
    }

    /// The offset after the attribute `name="value"` at `start`; nil if it is not written so, or
    /// its value holds a reference cmark-gfm does not write.
    private func attribute(at start: Int) -> Int? {
        var j = start
        while j < bytes.count, Self.isNameByte(bytes[j]) { j += 1 }
        guard j > start, j + 1 < bytes.count, bytes[j] == UInt8(ascii: "="), bytes[j + 1] == UInt8(ascii: "\""),
            let end = bytes.firstIndex(of: UInt8(ascii: "\""), from: j + 2)
        else { return nil }
        guard Self.hasOnlyKnownReferences(UnsafeBufferPointer(rebasing: bytes[(j + 2)..<end])) else { return nil }
        return end + 1
    }

    /// A start tag's attributes: names and decoded values, in order.
    func attributes(of token: Token) -> [(String, String)] {
        var attributes: [(String, String)] = []
        var j = token.attributesStart
        while j < token.range.upperBound {
            guard Self.isNameByte(bytes[j]) else { j += 1; continue }
            let start = j
            while j < token.range.upperBound, Self.isNameByte(bytes[j]) { j += 1 }
            let end = bytes.firstIndex(of: UInt8(ascii: "\""), from: j + 2) ?? j + 2
            let value = Self.decoded(UnsafeBufferPointer(rebasing: bytes[(j + 2)..<end])) ?? ""
            attributes.append((String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<j]), as: UTF8.self), value))
            j = end + 1
        }
        return attributes
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "-")
    }

    // MARK: - References

    /// The references cmark-gfm writes (`escape_html`, `escape_href`) and what they stand for.
    static let references: [(name: [UInt8], text: String)] = [
        ("amp;", "&"), ("lt;", "<"), ("gt;", ">"), ("quot;", "\""), ("#x27;", "'"), ("#39;", "'")
    ].map { (Array($0.0.utf8), $0.1) }

    /// `bytes` with cmark-gfm's references decoded, as the parser reads them (`HTMLText.asParsed`);
    /// nil if another reference is there.
    static func decoded(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        references(bytes).map(HTMLText.asParsed)
    }

    /// Whether every `&` of `bytes` starts one of `references`.
    static func hasOnlyKnownReferences(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while let amp = bytes.firstIndex(of: UInt8(ascii: "&"), from: i) {
            let after = UnsafeBufferPointer(rebasing: bytes[(amp + 1)...])
            guard let reference = references.first(where: { after.starts(with: $0.name) }) else { return false }
            i = amp + 1 + reference.name.count
        }
        return true
    }

    private static func references(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.firstIndex(of: UInt8(ascii: "&"), from: 0) != nil else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var out = ""
        var i = 0
        while let amp = bytes.firstIndex(of: UInt8(ascii: "&"), from: i) {
            out += String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<amp]), as: UTF8.self)
            let after = UnsafeBufferPointer(rebasing: bytes[(amp + 1)...])
            let reference = references.first { after.starts(with: $0.name) }
            guard let reference else { return nil }
            out += reference.text
            i = amp + 1 + reference.name.count
        }
        return out + String(decoding: UnsafeBufferPointer(rebasing: bytes[i...]), as: UTF8.self)
    }

    /// Whether text written as cmark-gfm wrote it is what `HTMLText.escape` writes of its
    /// decoded value: no byte that escaping changes, and only the references it writes.
    static func isWrittenAsEscaped(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < bytes.count {
            if changedByEscaping[Int(bytes[i])] {
                let after = UnsafeBufferPointer(rebasing: bytes[(i + 1)...])
                guard bytes[i] == UInt8(ascii: "&"),
                    let r = references.prefix(4).first(where: { after.starts(with: $0.name) })
                else { return false }
                i += r.name.count
            }
            i += 1
        }
        return true
    }

    /// The bytes `HTMLText.escape` may write otherwise (and `&`, which starts a reference).
    static let changedByEscaping: [Bool] = (0..<256).map { b in
        (b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0C) || b == 0x7F || b == 0xC2 || b >= 0xEF
            || b == Int(UInt8(ascii: "\"")) || b == Int(UInt8(ascii: ">")) || b == Int(UInt8(ascii: "<"))
            || b == Int(UInt8(ascii: "&"))
    }
}
