/// The parser's readers: names, delimiters, comments and pragmas, whitespace and line ends, as
/// swift-mustache reads them (Characters there; UTF-8 bytes here, `\r\n` counted as one).
extension MustacheParser {
    static let nameBytes: [Bool] = table("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?*()")
    static let plainNameBytes: [Bool] = table("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?*")
    static let partialNameBytes: [Bool] = table(
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?*()/")

    static func table(_ chars: String) -> [Bool] {
        var t = [Bool](repeating: false, count: 256)
        for b in chars.utf8 { t[Int(b)] = true }
        return t
    }

    /// The length of the line break at `i` (Swift's `Character.isNewline`), 0 if none.
    func newlineLength(at i: Int) -> Int {
        guard i < bytes.count else { return 0 }
        switch bytes[i] {
        case 0x0A, 0x0B, 0x0C: return 1
        case 0x0D: return i + 1 < bytes.count && bytes[i + 1] == 0x0A ? 2 : 1
        case 0xC2: return i + 1 < bytes.count && bytes[i + 1] == 0x85 ? 2 : 0
        case 0xE2:
            return i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9) ? 3 : 0
        default: return 0
        }
    }

    /// The length of the whitespace character at `i` (Swift's `Character.isWhitespace`), 0 if none.
    func whitespaceLength(at i: Int) -> Int {
        guard i < bytes.count else { return 0 }
        let b = bytes[i]
        if b == 0x20 || b == 0x09 { return 1 }
        if let n = Optional(newlineLength(at: i)), n > 0 { return n }
        guard b >= 0xC2, i + 1 < bytes.count else { return 0 }
        let b1 = bytes[i + 1]
        if b == 0xC2 { return b1 == 0xA0 ? 2 : 0 }
        guard i + 2 < bytes.count else { return 0 }
        let b2 = bytes[i + 2]
        switch (b, b1) {
        case (0xE1, 0x9A): return b2 == 0x80 ? 3 : 0
        case (0xE2, 0x80): return (b2 >= 0x80 && b2 <= 0x8A) || b2 == 0xAF ? 3 : 0
        case (0xE2, 0x81): return b2 == 0x9F ? 3 : 0
        case (0xE3, 0x80): return b2 == 0x80 ? 3 : 0
        default: return 0
        }
    }

    /// The length of the character at `i` (a scalar; `\r\n` is one).
    func characterLength(at i: Int) -> Int {
        let b = bytes[i]
        if b == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { return 2 }
        if b < 0x80 { return 1 }
        if b >= 0xF0 { return 4 }
        if b >= 0xE0 { return 3 }
        return b >= 0xC0 ? 2 : 1
    }

    /// The position `characters` characters before `i`.
    func retreat(from i: Int, characters: Int) -> Int {
        var j = i
        for _ in 0..<characters where j > 0 {
            j -= 1
            while j > 0, bytes[j] & 0xC0 == 0x80 { j -= 1 }
            if j > 0, bytes[j] == 0x0A, bytes[j - 1] == 0x0D { j -= 1 }
        }
        return j
    }

    mutating func readSpacesAndTabs() -> Range<Int> {
        let start = pos
        while pos < bytes.count, bytes[pos] == 0x20 || bytes[pos] == 0x09 { pos += 1 }
        return start..<pos
    }

    mutating func skipWhitespace() {
        while case let n = whitespaceLength(at: pos), n > 0 { pos += n }
    }

    /// Reads `delimiter` if it comes next; the text ending before it has as many characters is
    /// an overflow (swift-mustache reads that many characters before comparing).
    mutating func read(_ delimiter: [UInt8]) throws(Failure) -> Bool {
        var i = pos, characters = 0
        let needed = String(decoding: delimiter, as: UTF8.self).unicodeScalars.count
        while characters < needed {
            guard i < bytes.count else { throw .overflow }
            i += characterLength(at: i)
            characters += 1
        }
        guard pos + delimiter.count <= bytes.count, bytes[pos..<(pos + delimiter.count)].elementsEqual(delimiter) else {
            return false
        }
        pos += delimiter.count
        return true
    }

    /// Text up to the next tag (whose opening delimiter is read) or line break (not read).
    mutating func readUntilDelimiterOrNewline(_ state: State) throws(Failure) -> Range<Int> {
        let start = pos
        let first = state.start[0]
        while pos < bytes.count {
            let b = bytes[pos]
            if b == 0x0A || (b == 0x0D && pos + 1 < bytes.count && bytes[pos + 1] == 0x0A) { return start..<pos }
            if b == first {
                let textEnd = pos
                if try read(state.start) { return start..<textEnd }
                pos += characterLength(at: pos)
                continue
            }
            pos += 1
        }
        return start..<pos
    }

    /// Whether the tag just read is alone on its line; if so the rest of the line is read.
    mutating func isStandalone(_ state: State) -> Bool {
        guard state.newLine else { return false }
        if pos >= bytes.count { return true }
        var p = pos
        while p < bytes.count, bytes[p] == 0x20 || bytes[p] == 0x09 { p += 1 }
        let n = newlineLength(at: p)
        guard n > 0 else { return false }
        pos = p + n
        return true
    }

    /// A tag's name and its transforms, outermost first: `first(reversed(x))` → (x, [first, reversed]).
    mutating func parseName(_ state: State) throws(Failure) -> (Substring, [Substring]) {
        skipWhitespace()
        let start = pos
        while pos < bytes.count, Self.nameBytes[Int(bytes[pos])] { pos += 1 }
        let name = Substring(decoding: bytes[start..<pos], as: UTF8.self)
        skipWhitespace()
        guard try read(state.end) else { throw .unfinishedName }
        return try Self.transforms(of: name)
    }

    static func transforms(of text: Substring) throws(Failure) -> (Substring, [Substring]) {
        let u = Array(text.utf8)
        var p = 0
        func word() -> Substring {
            let s = p
            while p < u.count, plainNameBytes[Int(u[p])] { p += 1 }
            return text.dropFirst(s).prefix(p - s)
        }
        let first = word()
        if p == u.count { return (text, []) }
        guard u[p] == UInt8(ascii: "(") else { throw .unfinishedName }
        p += 1
        var transforms = [first]
        while true {
            let name = word()
            guard p < u.count else { throw .unfinishedName }
            if u[p] == UInt8(ascii: ")") {
                p += 1
                var closing = 0
                while p < u.count, u[p] == UInt8(ascii: ")") { p += 1; closing += 1 }
                guard closing + 1 == transforms.count, p == u.count else { throw .unfinishedName }
                return (name, transforms)
            }
            guard u[p] == UInt8(ascii: "(") else { throw .unfinishedName }
            p += 1
            transforms.append(name)
        }
    }

    mutating func parsePartialName(_ state: State) throws(Failure) -> Substring {
        skipWhitespace()
        let start = pos
        while pos < bytes.count, Self.partialNameBytes[Int(bytes[pos])] { pos += 1 }
        let name = Substring(decoding: bytes[start..<pos], as: UTF8.self)
        skipWhitespace()
        guard try read(state.end) else { throw .unfinishedName }
        return name
    }

    /// Skips a comment up to the closing delimiter (with swift-mustache's matching, which
    /// restarts without rereading the character that broke a partial match).
    mutating func skipComment(_ state: State) throws(Failure) {
        let start = pos
        var matched = 0
        while pos < bytes.count {
            if bytes[pos] == state.end[matched] {
                matched += 1
                if matched == state.end.count { pos += 1; return }
            } else {
                matched = 0
            }
            pos += 1
        }
        pos = start
        throw .overflow
    }

    /// `{{=<% %>=}}`
    mutating func setDelimiters(_ state: inout State) throws(Failure) {
        func until(_ stop: (Int) -> Bool) throws(Failure) -> [UInt8] {
            let s = pos
            while pos < bytes.count {
                if stop(pos) { return Array(bytes[s..<pos]) }
                pos += characterLength(at: pos)
            }
            pos = s
            throw .invalidSetDelimiter
        }
        skipWhitespace()
        let open = try until { whitespaceLength(at: $0) > 0 }
        skipWhitespace()
        let close = try until { bytes[$0] == UInt8(ascii: "=") || whitespaceLength(at: $0) > 0 }
        skipWhitespace()
        guard pos < bytes.count else { throw .overflow }
        guard bytes[pos] == UInt8(ascii: "=") else { throw .invalidSetDelimiter }
        pos += 1
        guard try read(state.end) else { throw .invalidSetDelimiter }
        guard !open.isEmpty, !close.isEmpty else { throw .invalidSetDelimiter }
        state.start = open
        state.end = close
        state.isPartialDefinitionTopLevel = false
    }

    /// `{{% CONTENT_TYPE: HTML }}` (or TEXT, or sitegen's own SITEGEN_HTML).
    mutating func readPragma(_ state: State) throws(Failure) -> MustacheEscaping {
        func word() -> String {
            let s = pos
            while pos < bytes.count, Self.plainNameBytes[Int(bytes[pos])] { pos += 1 }
            return String(decoding: bytes[s..<pos], as: UTF8.self)
        }
        skipWhitespace()
        let variable = word()
        skipWhitespace()
        guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else { throw .invalidPragma }
        pos += 1
        skipWhitespace()
        let value = word()
        skipWhitespace()
        guard (try? read(state.end)) == true, variable == "CONTENT_TYPE" else { throw .invalidPragma }
        switch value {
        case "HTML": return .html
        case "TEXT": return .text
        case SafeHTML.contentTypeName: return .sitegen
        default: throw .invalidPragma
        }
    }
}
