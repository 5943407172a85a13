import Foundation

/// A path as the kernel will follow it: absolute, symbolic links resolved, `.` and `..` applied
/// after each link (as the kernel applies them, not as text). A part that does not exist yet is
/// appended as written; the build then uses this path, so what is checked is what is written.
enum RealPath {
    static func resolve(_ path: String, from directory: String = FileManager.default.currentDirectoryPath) -> String {
        let absolute = path.hasPrefix("/") ? path : directory + "/" + path
        var resolved = "/"
        for part in absolute.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": resolved = parent(resolved)
            default:
                let next = resolved == "/" ? "/" + part : resolved + "/" + part
                if let real = realpath(next, nil) {
                    resolved = String(cString: real)
                    free(real)
                } else {
                    // Missing (or a dangling link, a loop: used as the name it is).
                    resolved = next
                }
            }
        }
        return resolved
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// Whether `path` is `folder` or below it (both resolved).
    static func isWithin(_ path: String, _ folder: String) -> Bool {
        path == folder || folder == "/" || path.hasPrefix(folder + "/")
    }
}
