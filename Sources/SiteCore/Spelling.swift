/// The known name a mistyped one most likely meant, for "did you mean …?" hints (a subcommand,
/// a configuration key). Case is ignored; a swap of two neighbouring letters counts as one edit.
public enum Spelling {
    /// The candidate nearest to `name`, when it is at most a third of the name's length away
    /// (at least one edit); the first of equally near ones. nil when none is that close.
    public static func nearest(to name: String, among candidates: some Sequence<String>) -> String? {
        let typed = Array(name.lowercased())
        let allowed = max(1, typed.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let d = distance(typed, Array(candidate.lowercased()))
            if d <= allowed, d < (best?.distance ?? .max) { best = (candidate, d) }
        }
        return best?.name
    }

    /// Edits (insert, delete, replace, swap neighbours) turning `source` into `target` (optimal string
    /// alignment distance).
    static func distance(_ source: [Character], _ target: [Character]) -> Int {
        if source.isEmpty || target.isEmpty { return max(source.count, target.count) }
        var before = [Int](repeating: 0, count: target.count + 1)
        var previous = Array(0...target.count)
        var current = [Int](repeating: 0, count: target.count + 1)
        for i in 1...source.count {
            current[0] = i
            for j in 1...target.count {
                let cost = source[i - 1] == target[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, source[i - 1] == target[j - 2], source[i - 2] == target[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[target.count]
    }
}
