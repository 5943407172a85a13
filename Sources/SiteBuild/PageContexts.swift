import Foundation
import SiteCore
import SiteRender

/// Every page of a site as its template and template value, made as a build makes them (for
/// `sitegen-bench templates`, which times the template engines on them).
package enum PageContexts {
    package typealias Page = (template: String, value: TemplateValue)

    /// The templates, the pages with every object keeping its entries' names (turned back into
    /// Swift values by `TemplateNames.plain` for swift-mustache), and a maker of the pages as a
    /// build renders them (plan, views and values; items converted once, on first use: each
    /// call starts with none converted).
    package static func load(source: URL) throws(Diagnostics) -> (
        templates: TemplateLibrary, plain: [Page],
        build: () -> [Page]
    ) {
        let options = BuildOptions(source: source)
        let (config, content, templates) = try SiteInputs.loadConfiguration(options)
        let inputs = try SiteInputs.loadData(
            source: options.source, config: config, content: content, templates: templates, includeDrafts: false,
            threads: options.threads)
        let model = try SiteModel.make(inputs)
        let pages = { (r: PageRenderer) in r.plan.pages.map { ($0.template, r.templateValue($0)) } }
        let plain = PageRenderer(model: model, plan: SitePlan(model), sharesItemValues: false)
        return (templates, pages(plain), { pages(PageRenderer(model: model, plan: SitePlan(model))) })
    }
}
