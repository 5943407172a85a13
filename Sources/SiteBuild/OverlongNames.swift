import SiteCore
import SiteLoad
import SiteWrite

extension SitePlan {
    /// The model's plan, unless a template its pages render is missing or uses a name nothing
    /// provides (`SiteModel.checkTemplates`), a path of it cannot be written (`overlongNames`)
    /// or an output file is claimed twice (`claimedTwice`): found before anything is written. `since`: what
    /// the last pass wrote, from a plan checked so; a plan claiming the very same files (an
    /// edit's usual case) is not checked for claims again (15,000 pages: ~25 ms of a rebuild).
    static func checked(_ model: SiteModel, since written: BuildPass.Written? = nil) throws(Diagnostics) -> SitePlan {
        let plan = SitePlan(model)
        let problems = model.checkTemplates(plan.templates) + plan.overlongNames(model)
        if !problems.isEmpty { throw Diagnostics(problems) }
        if let written, plan.claimsTheSame(as: written) { return plan }
        let claimedTwice = plan.claimedTwice(model.urls)
        if !claimedTwice.isEmpty { throw Diagnostics(claimedTwice) }
        return plan
    }

    /// Whether the plan claims the output files `written` holds: the same page paths, other
    /// files and sitemap files.
    func claimsTheSame(as written: BuildPass.Written) -> Bool {
        written.paths.count == pages.count && zip(written.paths, pages).allSatisfy { $0 == $1.path }
            && written.files == Set(files)
            && written.sitemaps == Set(Sitemap.fileNames(urlCount: pages.lazy.filter(\.inSitemap).count))
    }

    /// The planned paths with a segment no file system can hold (over 255 bytes), each reported
    /// at the value it comes from — the item (its dataset line and column), the note's front
    /// matter line, the tag's note, the content file — with at most 60 characters of the name:
    /// found while planning, before anything is written (not as the system's "File name too long").
    func overlongNames(_ model: SiteModel) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for page in pages {
            // Decoding never lengthens a segment, and a file adds only `index.html`: a path no
            // longer than a segment may be cannot hold one too long (most paths; decoding is slow).
            guard page.path.utf8.count > SitePath.maximumSegmentBytes,
                let segment = SitePath.overlongSegment(model.urls.file(ofPagePath: page.path)),
                let origin = page.id.page.origin(self, model)
            else { continue }
            problems.append(Diagnostic(origin.at, Self.overlong(origin.what, segment)))
        }
        for f in files {
            guard let segment = SitePath.overlongSegment(f.path) else { continue }
            problems.append(Diagnostic(file: f.source, Self.overlong("the file \(f.source)", segment)))
        }
        return problems
    }

    static func overlong(_ what: String, _ segment: Substring) -> String {
        "\(what) makes the file name '\(Diagnostic.excerpt(String(segment)))', "
            + "longer than the \(SitePath.maximumSegmentBytes) bytes a file name may have: shorten it"
    }
}
