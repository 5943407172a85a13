import Foundation

/// The normal form search compares in, on both sides: the index text at build time and the query
/// in the browser (`SearchText.browserFold` is the same steps in JavaScript).
///
/// NFKD splits accented letters into letter + mark and Hangul syllables into jamo, so dropping
/// the marks makes "cafe" find "Café", and a syllable typed so far ("바") finds the words that
/// start with it ("바람"); compatibility forms (full-width letters, ligatures) become plain ones.
public enum SearchText {
    public static func fold(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        for u in text.decomposedStringWithCompatibilityMapping.unicodeScalars {
            switch u.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: continue
            default: break
            }
            if isSpace(u) {
                pendingSpace = !scalars.isEmpty
                continue
            }
            if pendingSpace { scalars.append(" "); pendingSpace = false }
            scalars.append(u)
        }
        // Final sigma folds to σ (JavaScript lowers it by context, Swift does not).
        return String(scalars).lowercased().replacingOccurrences(of: "ς", with: "σ")
    }

    /// JavaScript's `\s` (ECMA-262 WhiteSpace and LineTerminator) and NEL (U+0085, a line break
    /// and Unicode white space that `\s` leaves out), so both sides split alike.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
            true
        default: false
        }
    }

    /// The same normalisation for a page script: `fold(text)`.
    public static let browserFold = """
        function fold(t){return t.normalize('NFKD').replace(/\\p{M}/gu,'').toLowerCase()\
        .replace(/ς/g,'σ').replace(/[\\s\\u0085]+/g,' ').trim();}
        """
}
