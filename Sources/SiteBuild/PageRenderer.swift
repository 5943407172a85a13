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
        let config = model.config, urls = model.urls
        templates = model.templates
        self.threads = threads
        self.urls = urls
        views = ViewMaker(model: model, plan: plan)
        // `{{#site.asset}}photos.css{{/site.asset}}`: the file's fingerprinted URL (its plain one
        // for other files).
        let names = model.assetNames
        let site = SiteView(
            title: config.title, language: config.language, root: urls.root, baseURL: config.baseURL.description,
            notesURL: urls.notesList(page: 1), notesTitle: config.notes.title, words: config.words,
            description: config.description,
            feed: model.feedNotes.isEmpty ? nil : urls.notesFeed,
            asset: TemplateLibrary.helper { path in urls.asset(names[path] ?? path) },
            tags: plan.tags.isEmpty ? nil : urls.tags)
        let templateNames =
            sharesItemValues ? model.templates.compiled.names : model.templates.compiled.names.keepingAllEntries
        encoding = TemplateEncoding(
            names: templateNames, site: site, items: model.collections.map(\.itemViews),
            shared: sharesItemValues
                ? model.collections.map { SharedTemplateValues(count: $0.itemViews.count, names: templateNames) } : nil,
            sites: sharesItemValues
                ? SharedTemplateValues(count: views.sections(current: nil).count + 1, names: templateNames) : nil)
    }

    /// Renders `pages` in parallel, writing each page as soon as it is rendered.
    func render(_ pages: [PlannedPage], to sink: some SiteSink) throws(Diagnostics) {
        let results: [Result<Void, Diagnostic>] = pages.parallelMap(threads: threads, minimumCount: 32) { page in
            Result { () throws(Diagnostic) in
                let html = self.templates.renderBytes(page.template, self.templateValue(page))
                try sink.write(Data(html), to: self.urls.file(ofPagePath: page.path), source: page.source)
            }
        }
        let problems = results.compactMap { r -> Diagnostic? in
            if case .failure(let d) = r { return d }; return nil
        }
        if !problems.isEmpty { throw Diagnostics(problems) }
    }

    /// What the template of a page renders: its view (made now, as the plan says) encoded.
    func templateValue(_ page: PlannedPage) -> TemplateValue { encoding.page(page.content(views)) }
}
