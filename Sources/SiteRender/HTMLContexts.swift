/// Where in HTML a template prints an escaped value (`{{name}}`), found by reading the template's
/// own text as a browser's tokenizer reads HTML, each Mustache tag skipped as opaque.
///
/// Escaping `& < > " '` makes a value text in element content and in quoted attribute values,
/// and nowhere else: unquoted, a value with a space adds attributes (`x onfocus=alert(1)`); where
/// an attribute's name goes, it adds them outright; in a comment, a value ending in `--` ends it
/// early where the template's `>` follows; inside `<script>` or `<style>`, in an `on…`
/// event handler or in `srcdoc`, the browser runs or renders the value (decoding the escaping
/// first, in attributes). Those places are template errors: no escaping sitegen could choose
/// makes data safe there. Each template file is read from its start as a page's body would be
/// (a partial is not re-read in the context of the tag that includes it). A raw value's own markup
/// (`{{{html}}}`) is the template's to answer for: it is read as if it were plain text.
enum HTMLContexts {
    /// A place where an escaped value is unsafe, with what the message says of it.
    enum Unsafe: Equatable, Sendable {
        case unquotedValue(attribute: String)
        case attributeName
        case comment
        case rawText(element: String)
        case eventHandler(attribute: String)
        case srcdoc
    }

    /// Each escaped variable tag of `text` printed where escaping does not make it safe. Nothing
    /// when the template changes its delimiters (its tags are then not `{{…}}`).
    static func unsafeVariables(in text: String, tags: [TemplateTag]) -> [(tag: TemplateTag, place: Unsafe)] {
        guard !tags.contains(where: { $0.kind == .delimiters }) else { return [] }
        var reader = Reader(bytes: Array(text.utf8))
        var found: [(TemplateTag, Unsafe)] = []
        for tag in tags {
            reader.advance(to: tag.offset)
            let end = reader.tagEnd(at: tag.offset)
            if tag.kind == .variable, !reader.isRaw(at: tag.offset), let place = reader.unsafePlace() {
                found.append((tag, place))
            }
            if tag.kind == .variable { reader.valuePrinted() }
            reader.skip(to: end)
        }
        return found
    }

    /// The message for a value printed at `place`.
    static func message(_ name: String, _ place: Unsafe) -> String {
        let tag = "{{\(name)}}"
        switch place {
        case .unquotedValue(let attribute):
            return "\(tag) is the unquoted value of '\(attribute)': a value with a space would add attributes; "
                + "quote it: \(attribute)=\"\(tag)\""
        case .attributeName:
            return "\(tag) is printed where an attribute's name goes: a value there would add attributes; "
                + "print it inside a quoted attribute value"
        case .comment:
            return "\(tag) is printed inside an HTML comment, which a value ending in '--' would end early: "
                + "print it outside the comment"
        case .rawText(let element):
            let reads = element == "style" ? "reads as CSS" : "runs as script"
            return "\(tag) is printed inside <\(element)>, whose text the browser \(reads) whatever its escaping: "
                + "hand data to scripts as a JSON file, or print trusted text raw with {{{\(name)}}}"
        case .eventHandler(let attribute):
            return "\(tag) is printed in the event handler '\(attribute)', whose value the browser decodes and runs "
                + "as script: put the value in a data- attribute and read it from a script"
        case .srcdoc:
            return "\(tag) is printed in 'srcdoc', whose value the browser decodes and renders as a page, scripts "
                + "included: give the frame a src instead"
        }
    }

    /// HTML's tokenizer, reduced to what decides a value's context.
    struct Reader {
        enum State {
            case data, comment, bogus, rawText, tagName, beforeName, name, afterName, beforeValue
            case doubleQuoted, singleQuoted, unquoted
        }
        let bytes: [UInt8]
        var i = 0
        var state = State.data
        var isEndTag = false
        var element: [UInt8] = []
        var attribute: [UInt8] = []
        /// The element whose text is raw (`script`, `style`, `textarea`…) while in `rawText`.
        var rawElement: [UInt8] = []

        static let rawTextElements: Set<String> = [
            "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript"
        ]

        /// Where the Mustache tag at `start` ends (after `}}`, or `}}}` for a triple).
        func tagEnd(at start: Int) -> Int {
            let triple = isRaw(at: start) && bytes[start + 2] == UInt8(ascii: "{")
            let close: [UInt8] = triple ? [125, 125, 125] : [125, 125]
            var k = start + 2
            while k + close.count <= bytes.count {
                if bytes[k..<(k + close.count)].elementsEqual(close) { return k + close.count }
                k += 1
            }
            return bytes.count
        }

        /// Whether the tag at `start` prints raw (`{{{name}}}` or `{{&name}}`).
        func isRaw(at start: Int) -> Bool {
            start + 2 < bytes.count && (bytes[start + 2] == UInt8(ascii: "{") || bytes[start + 2] == UInt8(ascii: "&"))
        }

        mutating func skip(to end: Int) { i = max(i, end) }

        /// A value was printed here: after `=`, it starts an unquoted value.
        mutating func valuePrinted() {
            if state == .beforeValue { state = .unquoted }
        }

        /// Why a value printed in the current state is unsafe; nil where escaping makes it text.
        func unsafePlace() -> Unsafe? {
            let attribute = String(decoding: attribute, as: UTF8.self)
            switch state {
            case .data, .bogus: return nil
            case .comment: return .comment
            case .rawText:
                let name = String(decoding: rawElement, as: UTF8.self)
                return name == "script" || name == "style" ? .rawText(element: name) : nil
            case .tagName, .beforeName, .name, .afterName: return .attributeName
            case .beforeValue, .unquoted: return .unquotedValue(attribute: attribute)
            case .doubleQuoted, .singleQuoted:
                if attribute == "srcdoc" { return .srcdoc }
                if attribute.count > 2, attribute.hasPrefix("on") { return .eventHandler(attribute: attribute) }
                return nil
            }
        }

        /// Reads the template's text up to byte `end`.
        mutating func advance(to end: Int) {
            while i < min(end, bytes.count) { step() }
        }

        static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D }
        static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

        func starts(with text: String, at k: Int) -> Bool {
            let t = Array(text.utf8)
            return k + t.count <= bytes.count && zip(bytes[k..<(k + t.count)], t).allSatisfy { ($0 | 0x20) == $1 }
        }

        mutating func step() {
            let b = bytes[i]
            i += 1
            switch state {
            case .data:
                guard b == UInt8(ascii: "<"), i < bytes.count else { return }
                if starts(with: "!--", at: i) {
                    state = .comment
                    i += 3
                } else if bytes[i] == UInt8(ascii: "!") || bytes[i] == UInt8(ascii: "?") {
                    state = .bogus
                } else if bytes[i] == UInt8(ascii: "/"), i + 1 < bytes.count, Self.isLetter(bytes[i + 1]) {
                    (state, isEndTag, element, i) = (.tagName, true, [], i + 1)
                } else if Self.isLetter(bytes[i]) {
                    (state, isEndTag, element) = (.tagName, false, [])
                }
            case .comment:
                if b == UInt8(ascii: "-"), starts(with: "->", at: i) {
                    state = .data
                    i += 2
                }
            case .bogus:
                if b == UInt8(ascii: ">") { state = .data }
            case .rawText:
                if b == UInt8(ascii: "<"), i < bytes.count, bytes[i] == UInt8(ascii: "/"),
                    starts(with: String(decoding: rawElement, as: UTF8.self), at: i + 1)
                {
                    let after = i + 1 + rawElement.count
                    if after >= bytes.count || Self.isSpace(bytes[after]) || bytes[after] == UInt8(ascii: ">")
                        || bytes[after] == UInt8(ascii: "/")
                    {
                        (state, isEndTag, element, i) = (.tagName, true, rawElement, after)
                    }
                }
            case .tagName:
                if Self.isSpace(b) || b == UInt8(ascii: "/") {
                    state = .beforeName
                } else if b == UInt8(ascii: ">") {
                    tagEnded()
                } else {
                    element.append(b | (Self.isLetter(b) ? 0x20 : 0))
                }
            case .beforeName, .afterName:
                if b == UInt8(ascii: ">") {
                    tagEnded()
                } else if b == UInt8(ascii: "=") && state == .afterName {
                    state = .beforeValue
                } else if !Self.isSpace(b) && b != UInt8(ascii: "/") {
                    (state, attribute) = (.name, [b | (Self.isLetter(b) ? 0x20 : 0)])
                } else if b == UInt8(ascii: "/") {
                    state = .beforeName
                }
            case .name:
                if Self.isSpace(b) {
                    state = .afterName
                } else if b == UInt8(ascii: "/") {
                    state = .beforeName
                } else if b == UInt8(ascii: "=") {
                    state = .beforeValue
                } else if b == UInt8(ascii: ">") {
                    tagEnded()
                } else {
                    attribute.append(b | (Self.isLetter(b) ? 0x20 : 0))
                }
            case .beforeValue:
                if b == UInt8(ascii: "\"") {
                    state = .doubleQuoted
                } else if b == UInt8(ascii: "'") {
                    state = .singleQuoted
                } else if b == UInt8(ascii: ">") {
                    tagEnded()
                } else if !Self.isSpace(b) {
                    state = .unquoted
                }
            case .doubleQuoted:
                if b == UInt8(ascii: "\"") { state = .beforeName }
            case .singleQuoted:
                if b == UInt8(ascii: "'") { state = .beforeName }
            case .unquoted:
                if Self.isSpace(b) {
                    state = .beforeName
                } else if b == UInt8(ascii: ">") {
                    tagEnded()
                }
            }
        }

        /// After a tag's `>`: the text of `<script>`, `<style>` and the like is raw until its end tag.
        mutating func tagEnded() {
            let name = String(decoding: element, as: UTF8.self)
            if !isEndTag, Self.rawTextElements.contains(name) {
                (state, rawElement) = (.rawText, element)
            } else {
                state = .data
            }
            attribute = []
        }
    }
}
