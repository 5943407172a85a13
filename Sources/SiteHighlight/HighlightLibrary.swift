import CHighlightLoader
import Foundation
import SiteCore
import Synchronization

/// libSitegenHighlight.so, sitegen's glue over KSyntaxHighlighting (Sources/SitegenHighlight),
/// found and opened the first time a code block names a language (CHighlightLoader): a site
/// without code never maps Qt, and a sitegen without the library builds with plain code blocks.
public enum HighlightLibrary {
    public static let fileName = "libSitegenHighlight.so"
    /// Names the library's file; when set, the only place sitegen looks.
    public static let environmentKey = "SITEGEN_HIGHLIGHT_LIBRARY"

    /// Where to look, in order: `$SITEGEN_HIGHLIGHT_LIBRARY` alone when it is set, else beside the
    /// executable (as `swift build` leaves it), then in `../lib/sitegen/` from it (an install
    /// into `~/.local/bin` and `~/.local/lib/sitegen`, or `/usr/local/…`).
    static func candidates(environment: [String: String], executable: URL) -> [String] {
        if let path = environment[environmentKey], !path.isEmpty { return [path] }
        let folder = executable.deletingLastPathComponent()
        return [
            folder.appendingPathComponent(fileName).path,
            folder.deletingLastPathComponent().appendingPathComponent("lib/sitegen/\(fileName)").path
        ]
    }

    /// The library's file that is opened (or would be) when code is highlighted; nil when there
    /// is none. Caches of highlighted code tell by it whether code is highlighted the same.
    public static var file: String? {
        candidates(environment: ProcessInfo.processInfo.environment, executable: executablePath)
            .first(where: { FileManager.default.fileExists(atPath: $0) })
    }

    /// The library's identity (`ProgramIdentity`; 0 when there is none), which what is kept of
    /// highlighted code is keyed by: another build of it may highlight differently.
    public static var identity: UInt64 { file.map { ProgramIdentity.identity(of: $0) } ?? 0 }

    /// Why the library could not be opened, or nil once it has been (tried once per process).
    static let openFailure: String? = {
        guard let path = file else {
            let places = candidates(environment: ProcessInfo.processInfo.environment, executable: executablePath)
            return "no \(fileName) at \(places.joined(separator: " or "))"
        }
        guard sghl_open(path) == 0 else { return String(cString: sghl_failure()) }
        return nil
    }()

    /// Whether the library is open (opening it on first use).
    static var isOpen: Bool { openFailure == nil }

    /// The running executable, its links resolved (the library sits beside the real file).
    private static var executablePath: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }

    private static let noticeGiven = Mutex(false)

    /// What to tell the user, once per process, when code blocks stay plain because the library
    /// cannot be opened: why, and how to install it.
    public static func takeNotice() -> String? {
        notice(openFailure ?? RepositoryPool.shared.failure?.message, once: noticeGiven)
    }

    /// The notice for `failure`, unless `given` says it was given.
    static func notice(_ failure: String?, once given: borrowing Mutex<Bool>) -> String? {
        guard let failure else { return nil }
        guard
            given.withLock({ given in
                defer { given = true }; return !given
            })
        else { return nil }
        return "code blocks are not highlighted: \(failure). Highlighting needs KSyntaxHighlighting (Debian and "
            + "Ubuntu: apt-get install libkf5syntaxhighlighting5) and \(fileName) beside the sitegen executable, in "
            + "../lib/sitegen/ from it, or named by \(environmentKey) (README: Installing)"
    }
}

/// A KSyntaxHighlighting repository of the library (used by one thread at a time).
final class Repository: @unchecked Sendable {  // a C handle, only ever used by the thread holding it
    let pointer: OpaquePointer

    /// A new repository, or why it could not be made.
    static func make() -> Result<Repository, HighlightFailure> {
        guard HighlightLibrary.isOpen else { return .failure(HighlightFailure(HighlightLibrary.openFailure ?? "")) }
        var error = [CChar](repeating: 0, count: 1024)
        guard let pointer = sghl_repository_new(&error, error.count) else {
            return .failure(HighlightFailure(error.nulTerminatedText))
        }
        return .success(Repository(pointer))
    }

    private init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { sghl_repository_free(pointer) }
}

/// Why code could not be highlighted.
public struct HighlightFailure: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// The repositories of the threads highlighting now, and those free for the next: one per thread
/// that highlights at the same time, so threads never wait for each other.
final class RepositoryPool: Sendable {
    /// Made when first used, with a first repository (which opens the library).
    static let shared = RepositoryPool()
    /// Why no repository can be made (the library is missing or refused to start), or nil.
    let failure: HighlightFailure?
    private let idle: Mutex<[Repository]>

    private init() {
        switch Repository.make() {
        case .success(let first):
            idle = Mutex([first])
            failure = nil
        case .failure(let why):
            idle = Mutex([])
            failure = why
        }
    }

    /// Runs `work` with a repository of its own; nil when none can be made.
    func with<T>(_ work: (Repository) -> T) -> T? {
        guard failure == nil else { return nil }
        let taken = idle.withLock { $0.popLast() }
        guard let repository = taken ?? (try? Repository.make().get()) else { return nil }
        defer { idle.withLock { $0.append(repository) } }
        return work(repository)
    }
}

extension [CChar] {
    /// The UTF-8 text a C function wrote into this buffer, up to its NUL.
    var nulTerminatedText: String { String(decoding: prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
}
