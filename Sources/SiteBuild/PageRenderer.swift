import Foundation
import SiteCore
import SiteLoad
import SiteRender
import SiteWrite

/// Renders every page of the plan and writes each as soon as it is rendered, so memory holds
/// the data model, never the rendered site. Everything here is immutable once made, shared
/// read-only by the rendering threads.
final class PageRenderer: Sendable {
    let templates: TemplateLibrary
    /// Threads for rendering (`BuildOptions.threads`).
    let threads: Int
    let urls: URLScheme
    /// Every page of the site.
    let plan: SitePlan
    /// What each page's view is made from (`PlannedPage.content`).
    let views: ViewMaker
    /// Views into template values (the render layer's edge).
    let encoding: TemplateEncoding

    /// `sharesItemValues` false: every page converts the items it shows anew, and objects keep
    /// every entry with its name (what the differential tests' swift-mustache reference needs).
    init(model: SiteModel, plan: SitePlan, threads: Int = Parallelism.cores, sharesItemValues: Bool = true) {
        self.plan = plan
        let urls = model.urls
        templates = model.templates
        self.threads = threads
        self.urls = urls
        views = ViewMaker(model: model, plan: plan)
        let site = views.siteWide.site
        let templateNames =
            sharesItemValues ? model.templates.compiled.names : model.templates.compiled.names.keepingAllEntries
        encoding = TemplateEncoding(
            names: templateNames, site: site, items: model.collections.map(\.itemViews),
            collectionNames: model.collections.map(\.config.name),
            shared: sharesItemValues
                ? model.collections.map { SharedTemplateValues(count: $0.itemViews.count, names: templateNames) } : nil,
            sites: sharesItemValues
                ? SharedTemplateValues(count: views.siteWide.navigation.count + 1, names: templateNames) : nil)
    }

    /// What rendering one page recorded: the parts its view read (`PageReads`) and the digest
    /// of the bytes written (a build keeps a page whose file still holds them: `BuildRecord`).
    struct Rendered {
        var reads: [ModelPart]
        var bytes: UInt64
    }

    /// Renders `pages` in parallel, writing each page as soon as it is rendered; returns what
    /// each page recorded, in `pages`' order.
    /// `recording` false: nothing is recorded (a pass that compares nothing afterwards).
    @discardableResult
    func render(_ pages: [PlannedPage], to sink: some SiteSink, recording: Bool = true) throws(Diagnostics)
        -> [Rendered]
    {
        let results: [Result<Rendered, Diagnostic>] = pages.parallelMap(threads: threads, minimumCount: 32) {
            page in
            Result { () throws(Diagnostic) in
                let reads = PageReads(keeps: recording)
                let html = Data(self.templates.renderBytes(page.template, self.templateValue(page, reads)))
                try sink.write(html, to: self.urls.file(ofPagePath: page.path), source: page.source)
                var digest = StableDigest()
                if recording { digest.combine(html) }
                return Rendered(reads: reads.parts, bytes: digest.value)
            }
        }
        var problems: [Diagnostic] = []
        var reads: [Rendered] = []
        reads.reserveCapacity(results.count)
        for r in results {
            switch r {
            case .success(let parts): reads.append(parts)
            case .failure(let d): problems.append(d)
            }
        }
        if !problems.isEmpty { throw Diagnostics(problems) }
        return reads
    }

    /// What the template of a page renders: its view (made now, as the plan says) encoded;
    /// `reads` records what the view read.
    func templateValue(_ page: PlannedPage, _ reads: PageReads = PageReads()) -> TemplateValue {
        page.content(ViewReader(views, reads)).encoded(by: encoding, reads: reads)
    }
}
