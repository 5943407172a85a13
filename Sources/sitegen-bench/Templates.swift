import Foundation
import MustacheReference
import SiteBuild
import SiteCore
import SiteRender

/// Renders every page of a site with swift-mustache and with the compiled engine, on one thread,
/// and prints the time per page of each (the compiled engine with and without turning the
/// `[String: Any]` context into a `TemplateValue` first).
func templates(source: URL, rounds: Int) {
    let loaded: (templates: TemplateLibrary, plain: [PageContexts.Page], build: () -> [PageContexts.Page])
    do { loaded = try PageContexts.load(source: source) } catch {
        print(error.items.map(\.description).joined(separator: "\n")); exit(1)
    }
    let (library, pages, build) = loaded
    let compiled = library.compiled
    let reference: SwiftMustacheReference
    do { reference = try SwiftMustacheReference(library.texts) } catch { print("swift-mustache: \(error)"); exit(1) }
    var mismatches = 0
    for (p, b) in zip(pages, build()) where reference.render(p.template, p.context) != library.render(b.template, b.context) { mismatches += 1 }
    let bytes = pages.reduce(0) { $0 + library.render($1.template, $1.context).utf8.count }
    print("\(pages.count) pages of \(source.path), \(bytes / max(1, pages.count)) bytes per page on average; pages that differ: \(mismatches)")
    let values = pages.map { compiled.names.object($0.context) }
    // Thread CPU time, not wall time: the machine is shared, and a descheduled thread's wait is
    // not the engine's cost.
    func perPage(_ label: String, _ body: () -> Int) {
        var times: [Double] = []
        var check = 0
        for _ in 0..<rounds {
            let start = threadCPUTime()
            check &+= body()
            times.append(Double(threadCPUTime() - start) / Double(pages.count))
        }
        times.sort()
        print(String(format: "%-52@ median %9.0f ns/page   fastest %9.0f ns/page   (CPU; %d rounds, check %d)",
                     label as NSString, times[times.count / 2], times[0], rounds, check))
    }
    let warm = build(); for p in warm { _ = compiled.names.object(p.context) }
    conversionByTemplate(warm, compiled)
    perPage("swift-mustache") { pages.reduce(0) { $0 + reference.render($1.template, $1.context).utf8.count } }
    var builds = (0..<rounds).map { _ in build() }
    perPage("compiled, as the build: items converted once") {
        let pages = builds.removeLast()
        return pages.reduce(0) { $0 + (compiled.renderBytes($1.template, compiled.names.object($1.context))?.count ?? 0) }
    }
    perPage("contexts + render, as the build (pages made too)") {
        build().reduce(0) { $0 + (compiled.renderBytes($1.template, compiled.names.object($1.context))?.count ?? 0) }
    }
    perPage("contexts only, as the build") { build().count }
    perPage("compiled, every record converted on every page") { pages.reduce(0) { $0 + (compiled.renderBytes($1.template, compiled.names.object($1.context))?.count ?? 0) } }
    perPage("compiled, render only (value made beforehand)") {
        zip(pages, values).reduce(0) { $0 + (compiled.renderBytes($1.0.template, $1.1)?.count ?? 0) }
    }
    perPage("context conversion only") {
        pages.reduce(0) { r, p in if case .object = compiled.names.object(p.context) { return r + 1 }; return r }
    }
}

/// Conversion time by template (where the `[String: Any]` → `TemplateValue` cost goes).
func conversionByTemplate(_ pages: [(template: String, context: [String: Any])], _ compiled: CompiledTemplates) {
    var byTemplate: [String: (Int, Double)] = [:]
    for p in pages {
        let start = threadCPUTime()
        for _ in 0..<5 { _ = compiled.names.object(p.context) }
        let t = Double(threadCPUTime() - start) / 5
        byTemplate[p.template, default: (0, 0)].0 += 1
        byTemplate[p.template, default: (0, 0)].1 += t
    }
    for (k, v) in byTemplate.sorted(by: { $0.value.1 > $1.value.1 }) {
        print(String(format: "  %-24@ %4d pages  %9.0f ns/page", k as NSString, v.0, v.1 / Double(v.0)))
    }
}

/// Nanoseconds of CPU this thread has used.
func threadCPUTime() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}
