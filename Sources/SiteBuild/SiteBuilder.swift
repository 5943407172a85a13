import Foundation
import SiteCore
import SiteLoad
import SiteRender
import SiteWrite

/// What `sitegen build` is asked to do.
public struct BuildOptions: Sendable {
    public var source: URL
    public var output: URL
    public var baseURL: String?
    public var includeDrafts: Bool

    public init(source: URL, output: URL? = nil, baseURL: String? = nil, includeDrafts: Bool = false) {
        self.source = source.standardizedFileURL
        self.output = (output ?? source.appendingPathComponent("public")).standardizedFileURL
        self.baseURL = baseURL
        self.includeDrafts = includeDrafts
    }
}

/// What a build did, for the summary line.
public struct BuildReport: Sendable {
    public var pages: Int
    public var files: Int
    /// Phase name and seconds, in order.
    public var phases: [(name: String, seconds: Double)]
    public var output: URL
}

/// The pipeline: load → normalise → sort/lay out → render → write.
public enum SiteBuilder {
    public static func build(_ options: BuildOptions) throws(Diagnostics) -> BuildReport {
        var clock = PhaseClock()
        let (config, content, templates) = try SiteInputs.loadConfiguration(options)
        clock.lap("config")
        let inputs = try SiteInputs.loadData(config: config, content: content, templates: templates, includeDrafts: options.includeDrafts)
        clock.lap("load")
        let model = try SiteModel.make(inputs)
        clock.lap("sort")

        let stage: OutputStage
        do { stage = try OutputStage(output: options.output) } catch { throw Diagnostics([error]) }
        do throws(Diagnostics) {
            let (pages, files) = try write(model, options: options, to: stage, clock: &clock)
            do { try stage.commit() } catch { throw Diagnostics([error]) }
            return BuildReport(pages: pages, files: files, phases: clock.phases, output: options.output)
        } catch {
            stage.discard()
            throw error
        }
    }

    /// Renders every page and writes every other file of `model` into `sink`; returns the counts.
    static func write(_ model: SiteModel, options: BuildOptions, to sink: some SiteSink, clock: inout PhaseClock) throws(Diagnostics) -> (pages: Int, files: Int) {
        let renderer = PageRenderer(model: model)
        let pages = try renderer.renderAll(to: sink)
        clock.lap("render")
        var count = 0
        do {
            for file in SiteFiles.list(model, source: options.source) {
                try sink.write(try SiteFiles.data(file, model: model, source: options.source), to: file.path, source: file.source)
                count += 1
            }
            for file in SiteFiles.sitemaps(renderer) {
                try sink.write(file.data, to: file.path, source: "sitemap")
                count += 1
            }
        } catch { throw Diagnostics([error]) }
        clock.lap("write")
        return (pages, count)
    }
}

struct PhaseClock {
    private var last = DispatchTime.now()
    private(set) var phases: [(name: String, seconds: Double)] = []

    mutating func lap(_ name: String) {
        let now = DispatchTime.now()
        phases.append((name, Double(now.uptimeNanoseconds - last.uptimeNanoseconds) / 1e9))
        last = now
    }
}
