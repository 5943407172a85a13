import Foundation
import SiteCore
import SiteRender

/// Every page of a site as its template and context, made as a build makes them (for
/// `sitegen-bench templates`, which times the template engines on them).
public enum PageContexts {
    public static func load(source: URL) throws(Diagnostics) -> (templates: TemplateLibrary, pages: [(template: String, context: [String: Any])]) {
        let options = BuildOptions(source: source)
        let (config, content, templates) = try SiteInputs.loadConfiguration(options)
        var inputs = try SiteInputs.loadData(config: config, content: content, templates: templates, includeDrafts: false)
        inputs.assetNames = try SiteFiles.fingerprintedAssets(options.source)
        let renderer = PageRenderer(model: try SiteModel.make(inputs))
        return (templates, renderer.jobs().map { (renderer.template(of: $0), renderer.context($0)) })
    }
}
