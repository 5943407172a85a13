// Benchmarks of sitegen's pure core, run on demand (never as timed tests):
//
//     swift run -c release sitegen-bench masonry [items] [rounds]
//     swift run -c release sitegen-bench templates [site folder] [rounds]
//     swift run -c release sitegen-bench markdown [notes folder] [rounds]
//     swift run -c release sitegen-bench highlight FILE [language] [blocks] [rounds]
//     swift run -c release sitegen-bench notecoding [site folder] [rounds]
//
// Prints the median and fastest wall time of each measured step over the rounds.
import Foundation
import SiteBuild
import SiteCore
import SiteRender

func measure(_ label: String, rounds: Int, _ body: () -> Int) {
    var times: [Double] = []
    var check = 0
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        check &+= body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    times.sort()
    let median = times[times.count / 2]
    print(
        String(
            format: "%-44@ median %8.2f ms   fastest %8.2f ms   (%d rounds, check %d)",
            label as NSString, median, times[0], rounds, check))
}

func masonry(items count: Int, rounds: Int) {
    var rng = SplitMix64(seed: 42)
    let sizes = [(400.0, 300.0), (300, 450), (500, 500), (640, 360), (450, 800), (300, 900), (900, 300)]
    let words = ["사진", "노을", "바다", "coffee", "morning", "산책", "city", "lights", "꽃", "여행"]
    let cards: [MasonryCard] = (0..<count).map { _ in
        let (w, h) = sizes[Int(rng.next() % UInt64(sizes.count))]
        let n = Int(rng.next() % 24)
        let text = (0..<n).map { _ in words[Int(rng.next() % UInt64(words.count))] }.joined(separator: " ")
        return MasonryCard(aspect: h / w, text: text)
    }
    let app = MasonryGeometry(columns: 2, gap: 12, insets: EdgeInsets(top: 23, left: 5, bottom: 10, right: 5))
    let items = cards.map { MasonryItem(fixedHeight: 25 + Double($0.text.count % 5) * 14, aspect: $0.aspect) }
    print("masonry placement, \(count) items")
    for policy in MasonryPolicy.allCases {
        for columns in [2, 4] {
            var g = app
            g.columns = columns
            measure("place \(policy.rawValue), \(columns) columns", rounds: rounds) {
                Masonry.place(items, geometry: g, policy: policy, referenceCardWidth: 170.5).columns.last ?? 0
            }
        }
    }
    let responsive = ResponsiveMasonry(
        policy: .roundRobin,
        breakpoints: [
            .init(minWidth: 0, columns: 2), .init(minWidth: 768, columns: 3), .init(minWidth: 1280, columns: 4)
        ],
        gap: 12, insets: app.insets, maxWidth: 1240)
    measure("3 breakpoints incl. text measure", rounds: rounds) {
        responsive.arrange(cards).reduce(0) { $0 + ($1.lines.last ?? 0) }
    }
}

let args = CommandLine.arguments.dropFirst()
switch args.first {
case "masonry":
    let count = args.dropFirst().first.flatMap { Int($0) } ?? 100_000
    let rounds = args.dropFirst(2).first.flatMap { Int($0) } ?? 21
    masonry(items: count, rounds: rounds)
case "templates":
    let source = URL(fileURLWithPath: args.dropFirst().first ?? ".")
    let rounds = args.dropFirst(2).first.flatMap { Int($0) } ?? 11
    templates(source: source, rounds: rounds)
case "markdown":
    let folder = URL(fileURLWithPath: args.dropFirst().first ?? "content/notes")
    let rounds = args.dropFirst(2).first.flatMap { Int($0) } ?? 5
    markdown(folder: folder, rounds: rounds)
case "highlight":
    guard let file = args.dropFirst().first else {
        print("sitegen-bench highlight FILE [language] [blocks] [rounds]")
        exit(64)
    }
    let rest = Array(args.dropFirst(2)).map { Int($0) }
    highlight(
        file: URL(fileURLWithPath: file), language: args.dropFirst(2).first ?? "swift",
        blocks: rest.dropFirst().first.flatMap { $0 } ?? 100,
        rounds: rest.dropFirst(2).first.flatMap { $0 } ?? 51)
case "notecoding":
    let site = URL(fileURLWithPath: args.dropFirst().first ?? ".")
    let rounds = args.dropFirst(2).first.flatMap { Int($0) } ?? 5
    noteCoding(site: site, rounds: rounds)
default:
    FileHandle.standardError.write(
        Data(
            ("usage: sitegen-bench masonry [items] [rounds] | templates [site folder] "
                + "[rounds] | markdown [notes folder] [rounds] | highlight FILE [language] [blocks] [rounds] "
                + "| notecoding [site folder] [rounds]\n")
                .utf8))
    exit(64)
}
