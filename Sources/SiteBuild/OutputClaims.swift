import SiteCore
import SiteWrite

extension SitePlan {
    /// The output files two things of the plan would write — pages, other files, the sitemaps —
    /// each an error at the second: found while planning, before anything is written, in a full
    /// build as in a rebuild.
    func claimedTwice(_ urls: URLScheme) -> [Diagnostic] {
        var owners: [String: String] = [:]
        var problems: [Diagnostic] = []
        func claim(_ file: String, by owner: String) {
            if let previous = owners.updateValue(owner, forKey: file) {
                problems.append(Diagnostic(file: owner, "'\(file)' is also written by \(previous)"))
            }
        }
        for page in pages { claim(urls.file(ofPagePath: page.path), by: page.source) }
        for file in files { claim(file.path, by: file.source) }
        for name in Sitemap.fileNames(urlCount: pages.lazy.filter(\.inSitemap).count) { claim(name, by: "sitemap") }
        return problems
    }
}
