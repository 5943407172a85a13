import Foundation
import SiteCore

/// Every form in which a secret can be printed, for redaction: a message may quote a URL
/// (percent-encoded), a client's error (Swift's `\r`), a server's answer (JSON's `\u000d`, HTML's
/// `&amp;`) or a value through `Diagnostic.visible`. Searching for the raw value alone let a
/// secret ending in `\r` through, printed escaped. The runs between the characters such escapes
/// rewrite are forms too, so that an escaping not listed here cannot show a long run whole.
enum SecretForms {
    /// The forms of `secret`, longest first: those of at least `shortest` characters.
    static func of(_ secret: String, shortest: Int) -> [String] {
        var forms: Set<String> = []
        func add(_ text: String) {
            for form in [text] + encodings(text) where form.count >= shortest { forms.insert(form) }
        }
        add(secret)
        for run in runs(secret) { add(run) }
        return forms.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// The ways of printing `text` other than as it is.
    static func encodings(_ text: String) -> [String] {
        let percent = RemoteSource.percentEncoded(text)
        return [
            percent, lowerHex(percent), percent.replacingOccurrences(of: "%20", with: "+"),
            String(String(reflecting: text).dropFirst().dropLast()),
            Diagnostic.visible(text),
            html(text)
        ]
            + [false, true].flatMap { ascii in
                [json(text, asciiOnly: ascii), json(text, asciiOnly: ascii).replacingOccurrences(of: "/", with: "\\/")]
            }
    }

    /// Characters some escaping rewrites: controls, DEL, non-ASCII, quotes, `\`, `/`, `&`, `<`, `>`.
    static func isRewritten(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value >= 0x7F || "\"'\\/&<>".unicodeScalars.contains(scalar)
    }

    /// The runs of `text` between rewritten characters (none when nothing in it is rewritten).
    static func runs(_ text: String) -> [String] {
        guard text.unicodeScalars.contains(where: isRewritten) else { return [] }
        return text.unicodeScalars.split(whereSeparator: isRewritten).map { String(String.UnicodeScalarView($0)) }
    }

    /// `%0D` as `%0d`.
    static func lowerHex(_ percent: String) -> String {
        var out = ""
        var pending = 0
        for character in percent {
            if character == "%" {
                pending = 2
                out.append(character)
            } else if pending > 0 {
                pending -= 1
                out += character.lowercased()
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// As a JSON string's contents: `\"`, `\\`, `\n`, `\r`, `\t`, other controls and DEL as
    /// `\u00xx`; with `asciiOnly` (Python's default) every non-ASCII character as `\uxxxx`.
    static func json(_ text: String, asciiOnly: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (asciiOnly && scalar.value > 0x7F) {
                    for unit in String(scalar).utf16 { out += String(format: "\\u%04x", unit) }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// With `&`, `<`, `>`, `"` and `'` as HTML's character references.
    static func html(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
