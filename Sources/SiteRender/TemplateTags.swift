/// A tag of a Mustache template, for the checks rendering does not make (a missing partial or an
/// unknown name renders as empty text, as Mustache wants; cyclic partials would recurse forever).
struct TemplateTag: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case variable, section, inverted, close, partial, parent, block, comment, pragma, delimiters
    }
    var kind: Kind
    /// The name a tag prints, tests or includes (`name` of `uppercased(name)`; a dynamic partial's
    /// keeps its `*`); empty for comments, pragmas and set-delimiter tags.
    var name: String
    var line: Int
    var column: Int
    /// The byte offset of its opening delimiter in the template's text.
    var offset = 0

    /// What starts a tag of its kind that names a value (`#`, `^`, or nothing), for hints.
    var sigil: String { kind == .section ? "#" : kind == .inverted ? "^" : "" }
}

/// The tags `MustacheParser` read, in order (it notes them when given a log), each at its line
/// (counted at `\n`) and column (in characters), so one parser knows Mustache's tag syntax.
struct TagLog {
    private(set) var tags: [TemplateTag] = []
    private var line = 1, lineStart = 0, counted = 0

    /// Notes the tag starting at byte `i` of `bytes` (tags come in the order of the text).
    mutating func add(_ kind: TemplateTag.Kind, _ name: String, at i: Int, in bytes: [UInt8]) {
        for k in counted..<i where bytes[k] == 10 { line += 1; lineStart = k + 1 }
        counted = i
        let column = String(decoding: bytes[lineStart..<i], as: UTF8.self).count + 1
        tags.append(TemplateTag(kind: kind, name: name, line: line, column: column, offset: i))
    }

    /// The tags of `text` as the parser reads them, up to its syntax error if it has one.
    static func tags(of text: String) -> (tags: [TemplateTag], failure: MustacheParser.Failure?) {
        var parser = MustacheParser(text, name: "", names: TemplateNames(), partials: [:])
        parser.tagLog = TagLog()
        var failure: MustacheParser.Failure?
        do { _ = try parser.parse(.init()) } catch { failure = error }
        return (parser.tagLog?.tags ?? [], failure)
    }
}

/// A section closed by the wrong name or never closed, named by its tags (the parser reports
/// only where it noticed, as swift-mustache did, not which tags).
struct SectionMismatch {
    var line: Int
    var column: Int
    var message: String

    /// The mismatch that stopped the parser reading `text`, if that is what stopped it. Only the
    /// tags before a set-delimiter tag are matched (the messages write tags with `{{ }}`).
    static func find(in text: String) -> SectionMismatch? {
        let (tags, failure) = TagLog.tags(of: text)
        var open: [TemplateTag] = []
        for tag in tags.prefix(while: { $0.kind != .delimiters }) {
            switch tag.kind {
            case .section, .inverted, .block, .parent:
                open.append(tag)
            case .close:
                guard let top = open.popLast() else {
                    return SectionMismatch(
                        line: tag.line, column: tag.column,
                        message: "{{/\(tag.name)}} closes a section that was never opened")
                }
                if top.name != tag.name {
                    let opened = "{{\(sigil(top.kind))\(top.name)}} opened at \(top.line):\(top.column)"
                    return SectionMismatch(
                        line: tag.line, column: tag.column,
                        message: "{{/\(tag.name)}} does not match \(opened)")
                }
            default:
                continue
            }
        }
        // Sections still open are never closed only if the parser read to the end of the text.
        guard failure == .expectedSectionEnd, let unclosed = open.last else { return nil }
        let missing = "(missing {{/\(unclosed.name)}})"
        return SectionMismatch(
            line: unclosed.line, column: unclosed.column,
            message: "{{\(sigil(unclosed.kind))\(unclosed.name)}} is never closed \(missing)")
    }

    static func sigil(_ kind: TemplateTag.Kind) -> String {
        switch kind {
        case .inverted: "^"
        case .block: "$"
        case .parent: "<"
        default: "#"
        }
    }
}

extension String {
    func trimmingCharacters() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\n" || f == "\r" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\n" || l == "\r" { s.removeLast() }
        return String(s)
    }
}
