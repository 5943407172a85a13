import Foundation
@testable import SiteBuild

/// The warm build's own files in its cache folder.
enum WarmCache {
    /// What each page read, from the previous build into `output` (`BuildRecord`).
    static func record(cache: URL, output: URL) -> URL {
        BuildRecord.path(BuildOptions(source: cache, output: output, cacheDir: cache))
    }
    /// The notes as loaded, kept between builds (`<cacheDir>/notes/`).
    static let notes = "notes"
}

/// Which edits of a differential run a warm build follows (`DIFFERENTIAL_WARM`).
enum WarmSchedule: String, CustomStringConvertible {
    /// Every edit.
    case every
    /// About one in two, drawn by the seed's dice (the same edits each run).
    case some
    /// None: the serve path only.
    case none

    var description: String { rawValue }
}

/// What may happen to a warm build's cache and output between two builds, none of which may
/// change what it writes: a cut, garbled or lost record, a lost notes cache, a page edited by
/// hand (other bytes, the same size, even the same time stamp) or deleted. Where there is
/// nothing to damage yet, nothing is done.
enum WarmDamage: CaseIterable {
    case recordCut, recordGarbled, recordDeleted, notesDeleted
    case pageEdited, pageEditedSameSize, pageEditedTimeKept, pageDeleted

    /// Does it to the cache folder `cache` and the output `output`; says what it did.
    func apply(cache: URL, output: URL, _ dice: inout Dice) -> String {
        let record = WarmCache.record(cache: cache, output: output)
        let fm = FileManager.default
        switch self {
        case .recordCut, .recordGarbled:
            guard let data = try? Data(contentsOf: record) else { return "\(self): no record yet" }
            let bytes =
                self == .recordCut
                ? data.prefix(dice.int(0...max(0, data.count - 1)))
                : Data((0..<max(16, data.count)).map { _ in UInt8(dice.int(0...255)) })
            guard (try? bytes.write(to: record)) != nil else { return "\(self): cannot write the record" }
            return
                "the record \(self == .recordCut ? "cut" : "garbled") to \(bytes.count) of \(data.count) bytes"
        case .recordDeleted, .notesDeleted:
            let url = self == .recordDeleted ? record : cache.appendingPathComponent(WarmCache.notes)
            guard fm.fileExists(atPath: url.path) else { return "\(self): no \(url.lastPathComponent) yet" }
            try? fm.removeItem(at: url)
            return "\(url.lastPathComponent) deleted from the cache"
        default:
            let pages = Self.pages(in: output)
            guard !pages.isEmpty else { return "\(self): no page yet" }
            return editPage(pages[dice.int(0...pages.count - 1)], in: output, &dice)
        }
    }

    /// The output's pages, feeds and indexes, sorted: the files a hand edit could target that the
    /// build writes itself (a picture is the image cache's file, linked: an edit would change
    /// the cache, not only the output).
    static func pages(in output: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: output.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter {
            ["html", "xml", "json"].contains(($0 as NSString).pathExtension)
        }.sorted()
    }

    /// A page changed in place (its inode kept, as editors that write through do) or deleted.
    private func editPage(_ page: String, in output: URL, _ dice: inout Dice) -> String {
        let url = output.appendingPathComponent(page)
        guard self != .pageDeleted else {
            try? FileManager.default.removeItem(at: url)
            return "warm/\(page) deleted"
        }
        guard var bytes = try? Data(contentsOf: url) else { return "\(self): cannot read warm/\(page)" }
        var status = stat()
        _ = stat(url.path, &status)
        let letters = bytes.indices.filter { (65...90).contains(bytes[$0]) || (97...122).contains(bytes[$0]) }
        if self == .pageEdited || letters.isEmpty {
            bytes.append(contentsOf: Data("<!-- edited -->\n".utf8))
        } else {
            bytes[letters[dice.int(0...letters.count - 1)]] ^= 0x20  // the letter's other case
        }
        guard let handle = try? FileHandle(forUpdating: url) else { return "\(self): cannot open warm/\(page)" }
        try? handle.write(contentsOf: bytes)
        try? handle.truncate(atOffset: UInt64(bytes.count))
        try? handle.close()
        if self == .pageEditedTimeKept {
            let times = [status.st_atim, status.st_mtim]
            _ = utimensat(AT_FDCWD, url.path, times, 0)
        }
        let how =
            switch self {
            case .pageEdited: "a line added"
            case .pageEditedSameSize: "a letter's case changed (same size)"
            default: "a letter's case changed (same size and time stamp)"
            }
        return "warm/\(page) edited in place: \(how)"
    }
}
