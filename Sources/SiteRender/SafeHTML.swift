import Foundation
import SiteCore

/// How every `{{name}}` of a sitegen template is written into HTML.
///
/// Escaping `& < > " '` makes a value text in element content and in quoted or unquoted
/// attributes. That is not enough where a value starts a URL: `href="{{link}}"` with
/// `javascript:alert(1)` would run script. A value a browser would read as a `javascript:`,
/// `vbscript:` or `data:` URL is therefore wrapped in two noncharacters while rendering, and
/// `SafeHTML.neutralise` replaces it by `about:invalid#sitegen-unsafe-url` wherever it starts
/// the value of a URL attribute (elsewhere the marks are dropped and the text stays as it was).
/// Triple-mustache `{{{name}}}` is the template asking for raw HTML and is left alone.
public enum SafeHTML {
    /// What a neutralised URL becomes (an inert link, as Go's html/template does).
    public static let neutralisedURL = "about:invalid#sitegen-unsafe-url"

    /// The content type's name in a `{{% CONTENT_TYPE: … }}` pragma that selects this escaping
    /// (what templates get anyway; swift-mustache needed it named before every template).
    static let contentTypeName = "SITEGEN_HTML"

    // U+FDD0 and U+FDD1 (noncharacters, never meaningful text) delimit a value to check; a value
    // containing them has them escaped as character references, so only sitegen writes them raw.
    static let open: [UInt8] = [0xEF, 0xB7, 0x90]
    static let close: [UInt8] = [0xEF, 0xB7, 0x91]

    /// `text` escaped for HTML; a value with a script-running URL scheme is marked.
    public static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var out: [UInt8] = []
            appendEscaped(bytes, to: &out)
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// Whether `byte` must be written as a character reference: `& < > " '`, or the first byte of
    /// a mark (U+FDD0/U+FDD1 start with 0xEF).
    @inline(__always)
    static func isSpecial(_ byte: UInt8) -> Bool {
        byte < 0x40 ? (byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27) : byte == 0xEF
    }

    /// Appends `bytes` escaped for HTML to `out`, marked when their URL scheme runs script.
    /// Most values have nothing to escape and are copied whole.
    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        let dangerous = hasUnsafeScheme(bytes)
        if !dangerous && !bytes.contains(where: isSpecial) {
            out.append(contentsOf: bytes)
            return
        }
        out.reserveCapacity(out.count + bytes.count + 16)
        if dangerous { out += open }
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if appendReference(b, to: &out) {
            } else if b == 0xEF, i + 2 < bytes.count, bytes[i + 1] == 0xB7, bytes[i + 2] == 0x90 || bytes[i + 2] == 0x91
            {
                out.append(contentsOf: (bytes[i + 2] == 0x90 ? "&#xFDD0;" : "&#xFDD1;").utf8)
                i += 2
            } else {
                out.append(b)
            }
            i += 1
        }
        if dangerous { out += close }
    }

    /// Appends `bytes` with swift-mustache's plain HTML escaping (`{{% CONTENT_TYPE: HTML }}`):
    /// the five characters, no marks.
    static func appendPlainEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        for b in bytes where !appendReference(b, to: &out) { out.append(b) }
    }

    /// Appends the character reference for `& < > " '`; false (nothing appended) for other bytes.
    @inline(__always)
    static func appendReference(_ byte: UInt8, to out: inout [UInt8]) -> Bool {
        switch byte {
        case 0x26: out.append(contentsOf: "&amp;".utf8)
        case 0x3C: out.append(contentsOf: "&lt;".utf8)
        case 0x3E: out.append(contentsOf: "&gt;".utf8)
        case 0x22: out.append(contentsOf: "&quot;".utf8)
        case 0x27: out.append(contentsOf: "&#39;".utf8)
        default: return false
        }
        return true
    }

    /// Whether a browser would take `bytes`, as a URL, to have the `javascript:`, `vbscript:` or
    /// `data:` scheme: as URL parsing does, leading C0 controls and spaces are skipped and tabs and
    /// line breaks ignored, and the scheme is compared without case.
    static func hasUnsafeScheme(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < bytes.count, bytes[i] <= 0x20 { i += 1 }
        // Most values fail here, without allocating.
        guard i < bytes.count, [0x6A, 0x76, 0x64].contains(bytes[i] | 0x20) else { return false }
        var scheme: [UInt8] = []
        while i < bytes.count, scheme.count <= 10 {
            let b = bytes[i]
            i += 1
            if b == 0x09 || b == 0x0A || b == 0x0D { continue }
            if b == 0x3A { break }
            let lower = b | 0x20
            guard
                (lower >= 0x61 && lower <= 0x7A)
                    || (!scheme.isEmpty && ((b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2D || b == 0x2E))
            else { return false }
            scheme.append(lower)
        }
        guard i <= bytes.count, i > 0, bytes[i - 1] == 0x3A else { return false }
        return scheme == Array("javascript".utf8) || scheme == Array("vbscript".utf8) || scheme == Array("data".utf8)
    }

    /// Attributes whose value a browser follows or loads as a URL.
    static let urlAttributes: Set<String> = [
        "href", "src", "action", "formaction", "poster", "cite", "background", "data", "codebase",
        "srcset", "ping", "manifest", "longdesc", "lowsrc", "dynsrc", "icon", "xlink:href", "itemtype", "archive",
        "classid"
    ]

    /// Rendered HTML with every marked value that starts a URL attribute replaced by
    /// `neutralisedURL`, and the marks of all other values removed.
    public static func neutralise(_ html: String) -> String {
        var html = html
        return html.withUTF8 { bytes in
            guard contains(open, in: bytes, from: 0) != nil else { return String(decoding: bytes, as: UTF8.self) }
            return String(decoding: neutralise(bytes), as: UTF8.self)
        }
    }

    /// As `neutralise(_:)` on bytes; nil when there is no mark (the bytes stay as they are).
    static func neutralise(bytes html: [UInt8]) -> [UInt8]? {
        html.withUnsafeBufferPointer { bytes in
            contains(open, in: bytes, from: 0) == nil ? nil : neutralise(bytes)
        }
    }

    static func neutralise(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while let start = contains(open, in: bytes, from: i) {
            out += bytes[i..<start]
            let valueStart = start + open.count
            guard let end = contains(close, in: bytes, from: valueStart) else {
                // Not written by `escape` (it always closes): keep as it is.
                out += bytes[start..<valueStart]; i = valueStart; continue
            }
            if startsURLAttribute(out) {
                out += Array(neutralisedURL.utf8)
            } else {
                out += bytes[valueStart..<end]
            }
            i = end + close.count
        }
        out += bytes[i...]
        return out
    }

    /// Whether `html` ends with the opening of a URL attribute's value: `href="`, `src='`, `href=`.
    static func startsURLAttribute(_ html: [UInt8]) -> Bool {
        var j = html.count - 1
        guard j >= 0 else { return false }
        if html[j] == 0x22 || html[j] == 0x27 { j -= 1 }
        while j >= 0, isSpace(html[j]) { j -= 1 }
        guard j >= 0, html[j] == 0x3D else { return false }  // "="
        j -= 1
        while j >= 0, isSpace(html[j]) { j -= 1 }
        let nameEnd = j + 1
        while j >= 0, !isSpace(html[j]), html[j] != 0x3C, html[j] != 0x22, html[j] != 0x27, html[j] != 0x3D,
            html[j] != 0x2F
        { j -= 1 }
        guard j + 1 < nameEnd else { return false }
        let name = String(
            decoding: html[(j + 1)..<nameEnd].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        return urlAttributes.contains(name)
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    static func contains(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var i = from
        while i + needle.count <= bytes.count {
            guard let hit = bytes.firstIndex(of: needle[0], from: i) else { return nil }
            i = hit
            if i + needle.count <= bytes.count && bytes[i + 1] == needle[1] && bytes[i + 2] == needle[2] { return i }
            i += 1
        }
        return nil
    }
}
