/// A tag found in Mustache text, for the checks rendering does not make (a missing partial or an
/// unknown name renders as empty text, as Mustache wants; cyclic partials would recurse forever).
struct TemplateTag: Sendable, Hashable {
    enum Kind: Sendable, Hashable { case variable, section, inverted, close, partial, parent, block, comment, other }
    var kind: Kind
    var name: String
    var line: Int
    var column: Int
}

enum TemplateScan {
    /// The tags of `text` in order. Scanning stops at a set-delimiter tag (`{{=<% %>=}}`): the
    /// checks then cover only the part before it.
    static func tags(in text: String) -> [TemplateTag] {
        var tags: [TemplateTag] = []
        let bytes = Array(text.utf8)
        var i = 0, line = 1, lineStart = 0
        while i + 1 < bytes.count {
            if bytes[i] == 10 { line += 1; lineStart = i + 1; i += 1; continue }
            guard bytes[i] == 123, bytes[i + 1] == 123 else { i += 1; continue }  // "{{"
            let column = String(decoding: bytes[lineStart..<i], as: UTF8.self).count + 1
            var j = i + 2
            let triple = j < bytes.count && bytes[j] == 123
            if triple { j += 1 }
            var end = j
            while end + 1 < bytes.count, !(bytes[end] == 125 && bytes[end + 1] == 125) { end += 1 }
            guard end + 1 < bytes.count else { break }
            var inner = String(decoding: bytes[j..<end], as: UTF8.self).trimmingCharacters()
            var kind = TemplateTag.Kind.variable
            if !triple, let first = inner.first {
                switch first {
                case "#": kind = .section
                case "^": kind = .inverted
                case "/": kind = .close
                case ">": kind = .partial
                case "<": kind = .parent
                case "$": kind = .block
                case "!": kind = .comment
                case "&": kind = .variable
                case "=": return tags  // custom delimiters: stop here
                case "%": kind = .other
                default: break
                }
                if kind != .variable || first == "&" { inner = String(inner.dropFirst()).trimmingCharacters() }
            }
            // Transforms: `uppercased(name)` names `name`.
            if let open = inner.lastIndex(of: "("), let close = inner.firstIndex(of: ")"), open < close {
                inner = String(inner[inner.index(after: open)..<close])
            }
            tags.append(TemplateTag(kind: kind, name: inner, line: line, column: column))
            // A tag may span lines (`{{! long comment }}`): keep counting from its end.
            for k in i..<(end + 2) where bytes[k] == 10 { line += 1; lineStart = k + 1 }
            i = end + 2 + (triple && end + 2 < bytes.count && bytes[end + 2] == 125 ? 1 : 0)
        }
        return tags
    }
}

/// A section closed by the wrong name or never closed, found by scanning the tags (the parser
/// reports only where it noticed, as swift-mustache did, not which tags).
struct SectionMismatch {
    var line: Int
    var column: Int
    var message: String

    static func find(in text: String) -> SectionMismatch? {
        var open: [TemplateTag] = []
        for tag in TemplateScan.tags(in: text) {
            switch tag.kind {
            case .section, .inverted, .block, .parent:
                open.append(tag)
            case .close:
                guard let top = open.popLast() else {
                    return SectionMismatch(line: tag.line, column: tag.column, message: "{{/\(tag.name)}} closes a section that was never opened")
                }
                if top.name != tag.name {
                    return SectionMismatch(line: tag.line, column: tag.column,
                                           message: "{{/\(tag.name)}} does not match {{\(sigil(top.kind))\(top.name)}} opened at \(top.line):\(top.column)")
                }
            default:
                continue
            }
        }
        guard let unclosed = open.last else { return nil }
        return SectionMismatch(line: unclosed.line, column: unclosed.column,
                               message: "{{\(sigil(unclosed.kind))\(unclosed.name)}} is never closed (missing {{/\(unclosed.name)}})")
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
