import Foundation

/// A file's type in words, for messages ("a FIFO", "a folder"): readers and the output's checks
/// say what a path is when it is not what they need. Words only: nothing here touches a file.
public enum FileKind {
    /// `mode` is `st_mode` as `stat` gives it.
    public static func phrase(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFREG: "a regular file"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "a special file"
        }
    }
}
