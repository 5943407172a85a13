/// Build-time estimate of how many lines a text wraps to, without a font engine.
///
/// Masonry cards give their text a box of a fixed number of lines computed here, so the layout
/// never depends on the font a browser picks; the estimate only decides how much room the text
/// gets (too few lines clamp with an ellipsis, too many leave space). It errs on the wide side:
/// DejaVu Sans' advance widths for ASCII (the widest common UI sans face: Linux's default;
/// SF, Segoe UI, Roboto and Helvetica are narrower), a full em for Hangul and CJK, and line
/// breaks only where every browser breaks.
public enum TextMeasure {
    /// Margin on top of DejaVu Sans' widths (kerning differences, hinting, rounding).
    public static let safetyFactor = 1.04

    /// Estimated advance width of `text` in em.
    public static func width<S: StringProtocol>(of text: S) -> Double {
        var total = 0.0
        for scalar in text.unicodeScalars { total += advance(scalar) }
        return total
    }

    /// Lines `text` wraps to in a box `width` px wide at `fontSize` px: breaks after spaces and
    /// between Hangul or CJK characters, and (as `overflow-wrap: anywhere`) inside a word too long
    /// for a line. Newlines start a new line. Empty text takes no line.
    public static func lineCount(_ text: String, width: Double, fontSize: Double) -> Int {
        MeasuredText(text).lineCount(width: width, fontSize: fontSize)
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }

    static func isIdeographic(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0x2E80...0x2FDF, 0x3040...0x30FF, 0x3130...0x318F, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xA960...0xA97F, 0xAC00...0xD7AF, 0xF900...0xFAFF:
            true
        default: false
        }
    }

    /// Advance width of one scalar in em.
    static func advance(_ scalar: Unicode.Scalar) -> Double {
        let v = scalar.value
        if v >= 0x20, v < 0x7F { return Double(asciiWidths[Int(v - 0x20)]) / 1000 * safetyFactor }
        switch v {
        case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F: return 0  // combining marks, zero-width
        case 0x1100...0x11FF, 0x2E80...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7AF,
            0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6:
            return 1.0
        case 0x1F000...0x1FAFF: return 1.25  // emoji
        default: return 0.75 * safetyFactor  // other letters: a wide Latin letter
        }
    }

    /// DejaVu Sans Book advance widths (units per 1000 em) for U+0020 … U+007E.
    static let asciiWidths: [Int] = [
        318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,  // space … /
        636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531,  // 0 … ?
        1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787,  // @ … O
        603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500,  // P … _
        500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,  // ` … o
        635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838  // p … ~
    ]
}

/// A text cut into the unbreakable runs between its line-break opportunities, measured once so
/// that it can be wrapped at many widths cheaply.
public struct MeasuredText: Sendable, Hashable {
    struct Run: Sendable, Hashable {
        /// Width of the run in em.
        var width: Double
        /// Width of the spaces after it (they hang at a line end).
        var space: Double
        /// A newline follows.
        var breakAfter: Bool
    }
    var runs: [Run] = []
    public let isEmpty: Bool

    public init(_ text: String) {
        isEmpty = text.isEmpty
        var current = Run(width: 0, space: 0, breakAfter: false)
        func finish() {
            if current.width > 0 || current.space > 0 || current.breakAfter { runs.append(current) }
            current = Run(width: 0, space: 0, breakAfter: false)
        }
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                current.breakAfter = true
                finish()
            } else if TextMeasure.isSpace(scalar) {
                current.space += TextMeasure.advance(scalar)
            } else {
                if current.space > 0 { finish() }
                if TextMeasure.isIdeographic(scalar) {
                    // A break opportunity on both sides of each Hangul syllable or ideograph.
                    finish()
                    current.width = TextMeasure.advance(scalar)
                    finish()
                } else {
                    current.width += TextMeasure.advance(scalar)
                }
            }
        }
        finish()
    }

    /// Lines in a box `width` px wide at `fontSize` px (greedy filling, as browsers do).
    public func lineCount(width: Double, fontSize: Double) -> Int {
        if isEmpty { return 0 }
        let available = width / max(fontSize, 0.1)
        guard available > 0 else { return 1 }
        var lines = 1
        var used = 0.0  // width on the current line, without its trailing spaces
        var pending = 0.0  // spaces since the last run on this line
        for run in runs {
            if run.width > 0 {
                if used > 0, used + pending + run.width > available {
                    lines += 1
                    used = 0
                }
                var w = run.width
                if used == 0 {
                    // A run longer than a line breaks anywhere (overflow-wrap: anywhere).
                    while w > available { w -= available; lines += 1 }
                    used = w
                } else {
                    used += pending + w
                }
                pending = run.space
            } else if used > 0 {
                pending += run.space
            }
            if run.breakAfter {
                lines += 1
                used = 0
                pending = 0
            }
        }
        return lines
    }
}
