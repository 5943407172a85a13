import Foundation
import MustacheReference
import SiteBuild
import SiteCore
import SiteRender

/// Renders every page of a site with swift-mustache and with the compiled engine, on one thread,
/// and prints the CPU time per page of each: the compiled engine as the build runs it (plan,
/// typed views, their template values, rendering) and rendering alone.
func templates(source: URL, rounds: Int) {
    let loaded: (templates: TemplateLibrary, plain: [PageContexts.Page], build: () -> [PageContexts.Page])
    do { loaded = try PageContexts.load(source: source) } catch {
        print(error.items.map(\.description).joined(separator: "\n")); exit(1)
    }
    let (library, pages, build) = loaded
    let compiled = library.compiled
    let reference: SwiftMustacheReference
    do { reference = try SwiftMustacheReference(library.texts) } catch { print("swift-mustache: \(error)"); exit(1) }
    // swift-mustache renders Swift values: the pages' values with every entry named, turned back.
    let keeping = compiled.names.keepingAllEntries
    let records = pages.map { (template: $0.template, context: keeping.plain($0.value) as? [String: Any] ?? [:]) }
    var mismatches = 0
    for (p, b) in zip(records, build())
    where reference.render(p.template, p.context) != compiled.render(b.template, b.value) ?? "" { mismatches += 1 }
    let bytes = pages.reduce(0) { $0 + (compiled.render($1.template, $1.value)?.utf8.count ?? 0) }
    print(
        "\(pages.count) pages of \(source.path), \(bytes / max(1, pages.count)) bytes per page on average; pages "
            + "that differ: \(mismatches)"
    )
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
        print(
            String(
                format: "%-52@ median %9.0f ns/page   fastest %9.0f ns/page   (CPU; %d rounds, check %d)",
                label as NSString, times[times.count / 2], times[0], rounds, check))
    }
    perPage("swift-mustache") { records.reduce(0) { $0 + reference.render($1.template, $1.context).utf8.count } }
    perPage("contexts + render, as the build (pages made too)") {
        build().reduce(0) { $0 + (compiled.renderBytes($1.template, $1.value)?.count ?? 0) }
    }
    perPage("views and values only, as the build") { build().count }
    let values = build()
    perPage("compiled, render only (value made beforehand)") {
        values.reduce(0) { $0 + (compiled.renderBytes($1.template, $1.value)?.count ?? 0) }
    }
}

/// Nanoseconds of CPU this thread has used.
func threadCPUTime() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}
