import SiteCore
import SiteLoad

/// How a model differs from the one its pass follows: what the later phases may keep of theirs.
/// Writing a note's text is the edit made most while previewing, and a site of 10,000 notes takes
/// longer to plan and version than to render the few pages that show the note.
enum ModelChange: Sendable {
    /// Made anew: the plan and every part's version are made again.
    case remade
    /// Only the rendered bodies of these notes (indices into `notes`) differ, and the HTML of
    /// the notes linking into them: the plan stands, and so does every other part's version.
    case bodies([Int])

    /// Whether the plan of the model before stands.
    var keepsPlan: Bool {
        switch self {
        case .remade: false
        case .bodies: true
        }
    }
}

extension SiteModel {
    /// This model with the notes at `edited` taken from `inputs`, when that changes only their
    /// bodies (`Note.keepsShape`) and nothing else it is made from changed: the same notes
    /// files, code stylesheet and asset names (the caller knows that the configuration,
    /// collections, templates and images did not change). Nil: the model must be made again.
    func withBodies(of edited: [Int], from inputs: SiteInputs) throws(Diagnostics) -> (SiteModel, ModelChange)? {
        guard inputs.notes.count == notes.count, inputs.codeStyles == codeStyles,
            inputs.assetNames == assetNames, !edited.isEmpty,
            edited.allSatisfy({ inputs.notes[$0].keepsShape(of: notes[$0]) })
        else { return nil }
        var model = self
        model.notes = inputs.notes
        // A link to an attached note's heading carries the note's slug when the heading is
        // there (`url(of:)`): notes linking into one whose headings changed are filled again.
        let moved = Set(
            edited.lazy.filter { notes[$0].attachment != nil && inputs.notes[$0].headings != notes[$0].headings }
                .map { notes[$0].file })
        let linking =
            moved.isEmpty
            ? []
            : notes.indices.filter { n in
                notes[n].noteLinks.contains { $0.path.map { moved.contains(SourceLayout.contentFile($0)) } ?? false }
            }
        let refilled = Array(Set(edited).union(linking)).sorted()
        let (html, problems) = Self.resolveNoteLinks(
            model.notes, only: refilled, noteURLs: noteURLs, collections: collections, urls: urls, content: content,
            images: images.images)
        if !problems.isEmpty { throw Diagnostics(problems) }
        for (k, n) in refilled.enumerated() { model.noteHTML[n] = html[k] }
        return (model, .bodies(refilled))
    }
}
