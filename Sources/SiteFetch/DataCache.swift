import Foundation

/// Answers of HTTP APIs kept between builds (`<cache folder>/data/`): for `maxAge`, `--offline`
/// and `onError: stale`. An entry is two files named by `PreparedRequest.cacheKey`, made from
/// the URL as shown (secrets as `***`): `<key>.body`, the answer's bytes, and `<key>.json`, what
/// it is, written last, so that an entry without its JSON (a killed build's) is no entry. Both
/// are written to a temporary name and renamed into place. No secret is in a name or a file.
public struct DataCache: Sendable {
    public let folder: URL

    public struct Entry: Codable, Sendable, Hashable {
        /// The URL as shown (secrets as `***`).
        public var url: String
        /// `PreparedRequest.source`: what answers of other days share.
        public var source: String
        /// When it was fetched (seconds since 1970, by the clock).
        public var fetched: Double
        public var contentType: String?
        public var bytes: Int
        /// `ContentHash.wide` of the answer, which read when it was stored (none in an older
        /// sitegen's entries): the same bytes read again, and are not parsed twice.
        public var digest: String?
    }

    public init(folder: URL) { self.folder = folder }

    private func meta(_ key: String) -> URL { folder.appendingPathComponent("\(key).json") }
    private func body(_ key: String) -> URL { folder.appendingPathComponent("\(key).body") }

    /// The entry and its answer, if whole.
    public func lookup(_ key: String) -> (Entry, Data)? {
        guard let json = FileManager.default.contents(atPath: meta(key).path),
            let entry = try? JSONDecoder().decode(Entry.self, from: json),
            let data = FileManager.default.contents(atPath: body(key).path),
            data.count == entry.bytes
        else { return nil }
        return (entry, data)
    }

    /// The newest whole entry of `source` (an answer of the same URL on another day) but those
    /// `excluding` names, if any.
    public func latest(source: String, excluding: Set<String> = []) -> (key: String, entry: Entry, data: Data)? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var best: (String, Entry)?
        for name in names where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let key = String(name.dropLast(5))
            guard !excluding.contains(key), let json = FileManager.default.contents(atPath: meta(key).path),
                let entry = try? JSONDecoder().decode(Entry.self, from: json),
                entry.source == source
            else { continue }
            if best.map({ entry.fetched > $0.1.fetched }) ?? true { best = (key, entry) }
        }
        guard let (key, _) = best, let (entry, data) = lookup(key) else { return nil }
        return (key, entry, data)
    }

    /// Removes an entry: its JSON first, which leaves no entry even if the body stays.
    public func remove(_ key: String) {
        try? FileManager.default.removeItem(at: meta(key))
        try? FileManager.default.removeItem(at: body(key))
    }

    /// Keeps an answer: its bytes, then the JSON that makes the entry whole.
    public func store(_ key: String, _ entry: Entry, data: Data) throws(FetchProblem) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try writeAtomically(data, to: body(key))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try writeAtomically(try encoder.encode(entry), to: meta(key))
        } catch {
            throw FetchProblem("cannot write to the data cache \(folder.path): \(error.localizedDescription)")
        }
    }

    private func writeAtomically(_ data: Data, to url: URL) throws {
        let temporary = folder.appendingPathComponent(".tmp-\(getpid())-\(UUID().uuidString)")
        try data.write(to: temporary)
        if rename(temporary.path, url.path) != 0 {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(code))])
        }
    }

    /// Removes the entries a successful build did not use (another day's answers, movies no
    /// longer listed) once nothing wrote them since `since` (a build sharing the folder may be
    /// using them), and temporary files older than an hour (a killed build's).
    @discardableResult
    public func prune(keeping used: Set<String>, untouchedSince since: Date) -> Int {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: folder.path) else { return 0 }
        let hourAgo = Date().addingTimeInterval(-3600)
        var removed = 0
        for name in names {
            let path = folder.appendingPathComponent(name).path
            let time = (try? fm.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantPast
            let key = String(name.prefix { $0 != "." })
            let unused = !name.hasPrefix(".") && !used.contains(key) && time < since
            let orphanTemp = name.hasPrefix(".tmp-") && time < hourAgo
            if unused || orphanTemp, (try? fm.removeItem(atPath: path)) != nil { removed += 1 }
        }
        return removed
    }
}
