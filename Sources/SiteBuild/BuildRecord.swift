import Foundation
import SiteCore
import SiteLoad
import SiteWrite

/// What `sitegen build` keeps in its cache folder for the next build of the same output: the
/// parts of the model pages read, with their versions (`StableDigest`s, the same in every
/// process), and each page's record with its file's stamp. The next build renders only the pages
/// whose template, path or parts changed, and hard-links the others from the previous output
/// when their files are still the ones written (`FileStamp`). A record is trusted only when it is
/// whole (its digest), of this very program, of the same options and of the same output folder;
/// otherwise it is ignored with one line saying why, and every page is made.
struct BuildRecord {
    /// The folder of the cache holding the records, one per output folder (a site built into
    /// two folders keeps the record of each).
    static let folder = "records"
    /// The layout of the file, and of what it digests: raised whenever either changes.
    static let format: UInt64 = 3
    private static let magic = Data("sitegen-pages-record\n".utf8)

    /// What the record holds besides the pages: who made it, from what, into where.
    struct Header: Equatable {
        /// This program's digest (`ProgramIdentity`): another build of sitegen may render alike
        /// parts differently.
        var program: UInt64
        /// The options that change every page (base URL, drafts).
        var options: UInt64
        /// `site.yml`'s digest: another configuration makes every page again.
        var configuration: UInt64
        var output: String
    }

    /// A page as written: its output file, its record and its file's stamp after the build.
    struct Page {
        var file: String
        var record: BuildPass.PageRecord
        var stamp: FileStamp
    }

    var header: Header
    var parts: BuildPass.PartTable
    var pages: [Page]
    /// The sources and the output as the build found and left them, when a later build can tell
    /// by them that it has nothing to do (`UnchangedBuild`).
    var census: Census?

    /// Where the record of a build with `options` is kept: named by its output folder.
    static func path(_ options: BuildOptions) -> URL {
        var d = StableDigest()
        d.combine(options.output.path)
        let hex = String(d.value, radix: 16)
        return options.cacheDir.appendingPathComponent(folder).appendingPathComponent(
            String(repeating: "0", count: 16 - hex.count) + hex + ".record")
    }

    /// Records untouched for this long are removed when another is kept: their output folders
    /// are likely gone (a test's, a preview's).
    static let unusedFor: TimeInterval = 30 * 24 * 3600

    /// The largest record read: a site of a million pages writes about 150 MB; anything larger
    /// is not one (and is not read into memory).
    static let maxBytes = 256 << 20
}

extension BuildRecord {
    /// Why a record was not used: one line for the build's notices.
    struct Ignored: Error, Equatable {
        var reason: String
    }

    /// The record's bytes: the magic line, then fields, then the digest of all before it.
    func encoded() -> Data {
        var w = RecordWriter()
        w.bytes.append(Self.magic)
        w.word(Self.format)
        w.word(header.program)
        w.word(header.options)
        w.word(header.configuration)
        w.string(header.output)
        w.word(UInt64(parts.parts.count))
        for (part, version) in zip(parts.parts, parts.versions) {
            w.part(part)
            w.word(version.map { _ in 1 } ?? 0)
            w.word(version ?? 0)
        }
        w.word(UInt64(pages.count))
        for page in pages {
            w.string(page.file)
            w.string(page.record.path)
            w.word(page.record.template)
            w.word(page.record.bytes)
            w.word(UInt64(page.record.reads.count))
            for id in page.record.reads { w.word(UInt64(UInt32(bitPattern: id))) }
            w.stamp(page.stamp)
        }
        w.word(census == nil ? 0 : 1)
        if let census {
            w.census(census.sources)
            w.census(census.output)
            w.word(census.context)
        }
        var digest = StableDigest()
        digest.combine(w.bytes)
        w.word(digest.value)
        return w.bytes
    }

    /// The record in `data`, checked whole; `Ignored` says what is wrong with it.
    static func decode(_ data: Data) throws(Ignored) -> BuildRecord {
        let damaged = Ignored(reason: "it is damaged")
        guard data.count >= magic.count + 8, data.prefix(magic.count) == magic else {
            throw Ignored(reason: "it is not a sitegen build record")
        }
        var digest = StableDigest()
        digest.combine(data.prefix(data.count - 8))
        var r = RecordReader(data, from: magic.count)
        guard let format = r.word() else { throw damaged }
        guard format == Self.format else { throw Ignored(reason: "it is of another record format (\(format))") }
        var tail = RecordReader(data, from: data.count - 8)
        guard tail.word() == digest.value else { throw damaged }
        guard let program = r.word(), let options = r.word(), let configuration = r.word(), let output = r.string(),
            let partCount = r.count(each: 24)
        else { throw damaged }
        var parts: [ModelPart] = [], versions: [UInt64?] = []
        for _ in 0..<partCount {
            guard let part = r.part(), let has = r.word(), let version = r.word() else { throw damaged }
            parts.append(part)
            versions.append(has == 1 ? version : nil)
        }
        guard let pageCount = r.count(each: 80) else { throw damaged }  // 2 strings, 3 words, a stamp
        var pages: [Page] = []
        pages.reserveCapacity(pageCount)
        for _ in 0..<pageCount {
            guard let page = r.page(parts: parts.count) else { throw damaged }
            pages.append(page)
        }
        guard let hasCensus = r.word(), hasCensus <= 1 else { throw damaged }
        var census: Census?
        if hasCensus == 1 {
            guard let sources = r.census(), let output = r.census(), let context = r.word() else { throw damaged }
            census = Census(sources: sources, output: output, context: context)
        }
        guard r.offset == data.count - 8, Set(parts).count == parts.count else { throw damaged }
        let header = Header(program: program, options: options, configuration: configuration, output: output)
        return BuildRecord(
            header: header, parts: BuildPass.PartTable(parts: parts, versions: versions), pages: pages, census: census)
    }
}

/// Appends a record's fields: words little-endian, strings as their length and UTF-8 bytes.
private struct RecordWriter {
    var bytes = Data()

    mutating func word(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }

    mutating func string(_ s: String) {
        word(UInt64(s.utf8.count))
        bytes.append(contentsOf: s.utf8)
    }

    mutating func stamp(_ stamp: FileStamp) {
        word(stamp.inode)
        for v in [stamp.size, stamp.seconds, stamp.nanoseconds, stamp.changed] { word(UInt64(bitPattern: v)) }
    }

    mutating func census(_ census: FileCensus) {
        word(census.changeTime ? 1 : 0)
        word(UInt64(census.entries.count))
        for entry in census.entries {
            string(entry.path)
            word(UInt64(entry.kind.rawValue))
            stamp(entry.stamp)
            word((entry.digest == nil ? 0 : 1) | (entry.linked ? 2 : 0))
            word(entry.digest ?? 0)
        }
    }

    mutating func part(_ part: ModelPart) {
        switch part {
        case .site: word(0)
        case .collection(let name): word(1); string(name)
        case .note(let file): word(2); string(file)
        case .notes: word(3)
        case .tags: word(4)
        }
    }
}

/// Reads what `RecordWriter` wrote; nil past the end or at a value that cannot be (a damaged
/// record is refused whole, never trusted in part).
private struct RecordReader {
    let data: Data
    private(set) var offset: Int

    init(_ data: Data, from offset: Int) {
        self.data = data
        self.offset = offset
    }

    mutating func word() -> UInt64? {
        guard offset >= 0, data.count - offset >= 8 else { return nil }
        let v = data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        offset += 8
        return UInt64(littleEndian: v)
    }

    /// A count of things of at least `minimum` bytes each, no more than the bytes left could hold
    /// (a damaged one cannot make the reader reserve memory for it).
    mutating func count(each minimum: UInt64 = 1) -> Int? {
        guard let n = word(), n <= UInt64(data.count - offset) / minimum else { return nil }
        return Int(n)
    }

    mutating func string() -> String? {
        guard let n = count() else { return nil }
        let start = data.startIndex + offset
        offset += n
        return String(validating: data[start..<start + n], as: UTF8.self)
    }

    mutating func part() -> ModelPart? {
        switch word() {
        case 0: .site
        case 1: string().map(ModelPart.collection)
        case 2: string().map(ModelPart.note)
        case 3: .notes
        case 4: .tags
        default: nil
        }
    }

    mutating func stamp() -> FileStamp? {
        guard let inode = word(), let size = word(), let seconds = word(), let nanoseconds = word(),
            let changed = word()
        else { return nil }
        return FileStamp(
            inode: inode, size: Int64(bitPattern: size), seconds: Int64(bitPattern: seconds),
            nanoseconds: Int64(bitPattern: nanoseconds), changed: Int64(bitPattern: changed))
    }

    mutating func census() -> FileCensus? {
        guard let changeTime = word(), changeTime <= 1, let count = count(each: 72) else { return nil }
        var entries: [FileCensus.Entry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            guard let path = string(), let raw = word(), raw <= UInt8.max,
                let kind = FileCensus.Kind(rawValue: UInt8(raw)),
                let stamp = stamp(), let flags = word(), flags <= 3, let digest = word()
            else { return nil }
            entries.append(
                FileCensus.Entry(
                    path: path, kind: kind, stamp: stamp, digest: flags & 1 == 1 ? digest : nil, linked: flags & 2 == 2)
            )
        }
        return FileCensus(entries: entries, changeTime: changeTime == 1)
    }

    mutating func page(parts: Int) -> BuildRecord.Page? {
        guard let file = string(), let path = string(), let template = word(), let bytes = word(),
            let readCount = count(each: 8)
        else {
            return nil
        }
        var reads: [Int32] = []
        reads.reserveCapacity(readCount)
        for _ in 0..<readCount {
            guard let id = word(), id < UInt64(parts) else { return nil }
            reads.append(Int32(id))
        }
        guard let stamp = stamp() else { return nil }
        return BuildRecord.Page(
            file: file, record: BuildPass.PageRecord(template: template, path: path, reads: reads, bytes: bytes),
            stamp: stamp)
    }
}

extension BuildRecord {
    /// What a record of a build with `options` and `config` must say of itself to be used.
    static func header(_ options: BuildOptions, _ config: SiteConfig) -> Header {
        var o = StableDigest()
        o.combine(options.source.path)
        o.combine(options.includeDrafts)
        o.combine(options.baseURL ?? "")
        return Header(
            program: ProgramIdentity.current, options: o.value, configuration: config.digest,
            output: options.output.path)
    }

    /// The record of the last build, when it is one this build can use (`header`); else nil,
    /// with the line saying why (none when there is no record: a first build).
    static func load(_ options: BuildOptions, header: Header) -> (BuildRecord?, notice: String?) {
        let path = Self.path(options).path
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) > maxBytes {
            return (nil, "\(path): not used: it is larger than \(maxBytes >> 20) MB; every page is made")
        }
        let data: Data
        switch ContentTree.contents(atPath: path) {
        case .success(let d): data = d
        case .failure(let reason) where reason.code == ENOENT: return (nil, nil)
        case .failure(let reason): return (nil, "\(path): not used (\(reason.text)): every page is made")
        }
        let record: BuildRecord
        do { record = try decode(data) } catch {
            return (nil, "\(path): not used: \(error.reason); every page is made")
        }
        let why: String? =
            if record.header.program != header.program {
                "it was made by another build of sitegen"
            } else if record.header.options != header.options {
                "it was made with other options (--source, --drafts or --base-url)"
            } else if record.header.output != header.output {
                "it is of another output folder (\(record.header.output))"  // two names with one digest
            } else if record.header.configuration != header.configuration {
                "\(SiteConfig.fileName) changed since"
            } else { nil }
        if let why { return (nil, "\(path): not used: \(why); every page is made") }
        return (record, nil)
    }

    /// What the next pass starts from: the pages as this record has them, each file's stamp.
    func seed(_ written: inout BuildPass.Written) {
        written.paths = pages.map(\.record.path)
        written.records = pages.map(\.record)
        written.parts = parts
        for page in pages {
            written.pageFiles[page.record.path] = page.file
            written.stamps[page.file] = page.stamp
        }
    }

    /// The record of what `written` holds, with the stamps of its pages' files in `output` (a
    /// page whose file is not there is left out: the next build makes it).
    static func made(_ header: Header, _ written: BuildPass.Written, urls: URLScheme, threads: Int) -> BuildRecord {
        let output = header.output
        let pages = written.records.parallelMap(threads: threads, minimumCount: 256) { record -> Page? in
            let file = written.pageFiles[record.path] ?? urls.file(ofPagePath: record.path)
            return FileStamp.of(output + "/" + file).map { Page(file: file, record: record, stamp: $0) }
        }
        return BuildRecord(header: header, parts: written.parts, pages: pages.compactMap { $0 })
    }

    /// Writes the record into the cache folder (a new file renamed over the old one, so a
    /// reader sees one or the other); the line saying why when it cannot.
    func save(_ options: BuildOptions) -> String? {
        let path = Self.path(options)
        do {
            let folder = path.deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try encoded().write(to: path, options: .atomic)
            Self.prune(folder, keeping: path.lastPathComponent)
            return nil
        } catch {
            return "\(path.path): cannot keep the build record (\(error.localizedDescription)); the next build "
                + "makes every page"
        }
    }

    /// Removes the records of other outputs untouched for `unusedFor`.
    private static func prune(_ folder: URL, keeping name: String) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { return }
        let before = Date().addingTimeInterval(-unusedFor)
        for other in names where other != name && other.hasSuffix(".record") {
            let url = folder.appendingPathComponent(other)
            if let date = (try? manager.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date, date < before
            {
                try? manager.removeItem(at: url)
            }
        }
    }
}
