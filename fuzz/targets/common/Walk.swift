// What every later stage of a build does with a parsed value: walk all of it. A value that stands
// for far more than its input (shared objects, YAML aliases) shows here as a hang, a value nested
// too deep as a stack overflow.
import Foundation

func walk(_ value: Value) -> Int {
    switch value {
    case .array(let items): return items.reduce(1) { $0 + walk($1) }
    case .dictionary(let entries): return entries.values.reduce(1) { $0 + walk($1) }
    default: return 1
    }
}
