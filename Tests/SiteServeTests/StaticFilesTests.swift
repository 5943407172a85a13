import Foundation
import Testing
@testable import SiteServe

/// Request paths to files of the served folder, on a real folder with a symbolic link leading out.
@Suite struct StaticFilesTests {
    final class Site {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-static-\(UUID().uuidString)")
        var output: URL { root.appendingPathComponent("public") }
        init() throws {
            for (path, text) in [
                "public/index.html": "home", "public/bounties/index.html": "list",
                "public/bounties/luffy/index.html": "luffy",
                "public/assets/site.css": "css", "public/404.html": "missing", "public/트렌드/index.html": "ko",
                "secret.txt": "outside"
            ] {
                let url = root.appendingPathComponent(path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
            try FileManager.default.createSymbolicLink(
                atPath: output.appendingPathComponent("leak.txt").path,
                withDestinationPath: root.appendingPathComponent("secret.txt").path)
            try FileManager.default.createSymbolicLink(
                atPath: output.appendingPathComponent("up").path, withDestinationPath: root.path)
            try FileManager.default.createSymbolicLink(
                atPath: output.appendingPathComponent("etc").path, withDestinationPath: "/etc")
        }
        deinit { try? FileManager.default.removeItem(at: root) }
    }

    /// Both ways of keeping paths in the folder: the kernel's (openat2) and real paths.
    static let confinements: [StaticFiles.Confinement] = [.kernel, .realPath]

    /// The file a resolution leads to, by its path in the folder.
    func file(_ r: StaticFiles.Resolution) -> String? {
        if case .file(let f) = r { return f.path }
        return nil
    }

    @Test(arguments: confinements) func pagesFoldersAndRedirects(_ confinement: StaticFiles.Confinement) throws {
        let s = try Site()
        let files = StaticFiles(folder: s.output, root: "/", confinement: confinement)
        #expect(file(files.resolve("/")) == "index.html")
        #expect(file(files.resolve("/bounties/")) == "bounties/index.html")
        #expect(files.resolve("/bounties") == .redirect("/bounties/"))
        #expect(file(files.resolve("/bounties/luffy/index.html")) == "bounties/luffy/index.html")
        #expect(file(files.resolve("/assets/site.css")) == "assets/site.css")
        #expect(file(files.resolve("/%ED%8A%B8%EB%A0%8C%EB%93%9C/")) == "트렌드/index.html")
        #expect(files.resolve("/nothing/") == .notFound)
        #expect(files.notFoundPage?.path == "404.html")
        #expect(files.notFoundPage?.contents().map { Array(buffer: $0) } == Array("missing".utf8))
        if case .file(let f) = files.resolve("/assets/site.css") {
            #expect(f.size == 3 && f.contents().map { Array(buffer: $0) } == Array("css".utf8))
        }
    }

    @Test(arguments: confinements) func aLinkWithinTheFolderIsFollowedAndAFifoIsNotOpened(
        _ confinement: StaticFiles.Confinement
    ) throws {
        let s = try Site()
        try FileManager.default.createSymbolicLink(
            atPath: s.output.appendingPathComponent("style.css").path, withDestinationPath: "assets/site.css")
        #expect(mkfifo(s.output.appendingPathComponent("pipe.html").path, 0o644) == 0)
        let files = StaticFiles(folder: s.output, root: "/", confinement: confinement)
        if case .file(let f) = files.resolve("/style.css") {
            #expect(f.contents().map { Array(buffer: $0) } == Array("css".utf8))
        } else {
            Issue.record("the link is served")
        }
        // Opening a FIFO for reading would wait for a writer, holding the event loop: resolved
        // on a thread of its own, and released by a writer if it is still waiting after 10 s.
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: StaticFiles.Resolution?
        Thread.detachNewThread {
            result = files.resolve("/pipe.html")
            done.signal()
        }
        if done.wait(timeout: .now() + 10) == .timedOut {
            Issue.record("opening a FIFO waited for a writer")
            let writer = open(s.output.appendingPathComponent("pipe.html").path, O_WRONLY | O_NONBLOCK)
            done.wait()
            close(writer)
        }
        #expect(result == .notFound)
    }

    @Test(arguments: confinements) func underABasePath(_ confinement: StaticFiles.Confinement) throws {
        let s = try Site()
        let files = StaticFiles(folder: s.output, root: "/apps/", confinement: confinement)
        #expect(files.resolve("/") == .redirect("/apps/"))
        #expect(files.resolve("/apps") == .redirect("/apps/"))
        #expect(files.resolve("/apps/bounties") == .redirect("/apps/bounties/"))
        #expect(files.resolve("/bounties/") == .notFound, "outside the base path")
        #expect(file(files.resolve("/apps/bounties/luffy/")) == "bounties/luffy/index.html")
    }

    @Test(arguments: [
        "/../secret.txt", "/../../etc/passwd", "/%2e%2e/secret.txt", "/%2E%2E/%2E%2E/etc/passwd",
        "/bounties/..%2f..%2fsecret.txt",
        "/%2e%2e%2fsecret.txt", "/..%5csecret.txt", "/..\\secret.txt", "//etc/passwd", "/./index.html",
        "/index.html%00.css",
        "http://127.0.0.1/../secret.txt", "secret.txt", "/%ZZ", "/bounties%2Fluffy/", "/bounties%2fluffy/index.html",
        "/bounties%5Cluffy/"
    ])
    func traversalIsForbidden(_ path: String) throws {
        let s = try Site()
        #expect(StaticFiles(folder: s.output, root: "/").resolve(path) == .forbidden)
    }

    @Test(arguments: confinements, ["/leak.txt", "/up/secret.txt", "/etc/passwd", "/up/public/../secret.txt"])
    func symbolicLinksOutOfTheFolderAreNotServed(_ confinement: StaticFiles.Confinement, _ path: String) throws {
        let s = try Site()
        let r = StaticFiles(folder: s.output, root: "/", confinement: confinement).resolve(path)
        #expect(r == .notFound || r == .forbidden, "\(path) → \(r)")
    }

    @Test func theKernelConfinesPathsHere() {
        // Linux 5.6 and later: the fallback is for older kernels and seccomp filters.
        #expect(StaticFiles.Confinement.available == .kernel)
    }

    @Test func contentTypesAndTheReloadScript() {
        #expect(ContentType.of("a/b.html") == "text/html; charset=utf-8")
        #expect(ContentType.of("b.CSS") == "text/css; charset=utf-8")
        #expect(ContentType.of("a.b/c.svg") == "image/svg+xml")
        #expect(ContentType.of("a/b.json") == "application/json")
        #expect(ContentType.of("a.html/b") == "application/octet-stream")
        #expect(ContentType.of("a/.html") == "application/octet-stream")
        let page = Data("<html><body><p>x</p></body></html>".utf8)
        #expect(
            String(decoding: LiveReload.inject(page), as: UTF8.self)
                == "<html><body><p>x</p>\(LiveReload.scriptTag)</body></html>")
        #expect(
            String(decoding: LiveReload.inject(Data("<p>no body".utf8)), as: UTF8.self)
                == "<p>no body\(LiveReload.scriptTag)")
    }
}
