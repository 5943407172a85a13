import SiteCore

/// The names data provides, for the template check.
enum DataNames {
    /// Every key of `fields` and of the dictionaries nested in them (a joined record's `cast`
    /// is a name a template may use inside a section).
    static func collect(of fields: [String: Value], into names: inout Set<String>) {
        var stack: [Value] = []
        for (k, v) in fields {
            names.insert(k)
            if case .array = v { stack.append(v) } else if case .dictionary = v { stack.append(v) }
        }
        while let v = stack.popLast() {
            switch v {
            case .dictionary(let d):
                for (k, child) in d {
                    names.insert(k)
                    if case .array = child {
                        stack.append(child)
                    } else if case .dictionary = child {
                        stack.append(child)
                    }
                }
            case .array(let a):
                for child in a {
                    if case .array = child {
                        stack.append(child)
                    } else if case .dictionary = child {
                        stack.append(child)
                    }
                }
            default: break
            }
        }
    }
}
