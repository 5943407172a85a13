import Foundation
import Testing
@testable import SiteServe

/// Request paths to files of the served folder, on a real folder with a symbolic link leading out.
@Suite struct StaticFilesTests {
    final class Site {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-static-\(UUID().uuidString)")
        var output: URL { root.appendingPathComponent("public") }
        init() throws {
            for (path, text) in ["public/index.html": "home", "public/bounties/index.html": "list", "public/bounties/luffy/index.html": "luffy",
                                 "public/assets/site.css": "css", "public/404.html": "missing", "public/트렌드/index.html": "ko",
                                 "secret.txt": "outside"] {
                let url = root.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
            try FileManager.default.createSymbolicLink(atPath: output.appendingPathComponent("leak.txt").path, withDestinationPath: root.appendingPathComponent("secret.txt").path)
            try FileManager.default.createSymbolicLink(atPath: output.appendingPathComponent("up").path, withDestinationPath: root.path)
            try FileManager.default.createSymbolicLink(atPath: output.appendingPathComponent("etc").path, withDestinationPath: "/etc")
        }
        deinit { try? FileManager.default.removeItem(at: root) }
    }

    @Test func pagesFoldersAndRedirects() throws {
        let s = try Site()
        let files = StaticFiles(folder: s.output, root: "/")
        let real = { (p: String) in URL(fileURLWithPath: StaticFiles.realPath(s.output.appendingPathComponent(p).path)!) }
        #expect(files.resolve("/") == .file(real("index.html")))
        #expect(files.resolve("/bounties/") == .file(real("bounties/index.html")))
        #expect(files.resolve("/bounties") == .redirect("/bounties/"))
        #expect(files.resolve("/bounties/luffy/index.html") == .file(real("bounties/luffy/index.html")))
        #expect(files.resolve("/assets/site.css") == .file(real("assets/site.css")))
        #expect(files.resolve("/%ED%8A%B8%EB%A0%8C%EB%93%9C/") == .file(real("트렌드/index.html")))
        #expect(files.resolve("/nothing/") == .notFound)
        #expect(files.notFoundPage == real("404.html"))
    }

    @Test func underABasePath() throws {
        let s = try Site()
        let files = StaticFiles(folder: s.output, root: "/apps/")
        #expect(files.resolve("/") == .redirect("/apps/"))
        #expect(files.resolve("/apps") == .redirect("/apps/"))
        #expect(files.resolve("/apps/bounties") == .redirect("/apps/bounties/"))
        #expect(files.resolve("/bounties/") == .notFound, "outside the base path")
        if case .file = files.resolve("/apps/bounties/luffy/") {} else { Issue.record("a page under the base path") }
    }

    @Test(arguments: [
        "/../secret.txt", "/../../etc/passwd", "/%2e%2e/secret.txt", "/%2E%2E/%2E%2E/etc/passwd", "/bounties/..%2f..%2fsecret.txt",
        "/%2e%2e%2fsecret.txt", "/..%5csecret.txt", "/..\\secret.txt", "//etc/passwd", "/./index.html", "/index.html%00.css",
        "http://127.0.0.1/../secret.txt", "secret.txt", "/%ZZ", "/bounties%2Fluffy/", "/bounties%2fluffy/index.html", "/bounties%5Cluffy/",
    ])
    func traversalIsForbidden(_ path: String) throws {
        let s = try Site()
        #expect(StaticFiles(folder: s.output, root: "/").resolve(path) == .forbidden)
    }

    @Test(arguments: ["/leak.txt", "/up/secret.txt", "/etc/passwd", "/up/public/../secret.txt"])
    func symbolicLinksOutOfTheFolderAreNotServed(_ path: String) throws {
        let s = try Site()
        let r = StaticFiles(folder: s.output, root: "/").resolve(path)
        #expect(r == .notFound || r == .forbidden, "\(path) → \(r)")
    }

    @Test func contentTypesAndTheReloadScript() {
        #expect(ContentType.of(URL(fileURLWithPath: "/a/b.html")) == "text/html; charset=utf-8")
        #expect(ContentType.of(URL(fileURLWithPath: "/a/b.CSS")) == "text/css; charset=utf-8")
        #expect(ContentType.of(URL(fileURLWithPath: "/a/b.svg")) == "image/svg+xml")
        #expect(ContentType.of(URL(fileURLWithPath: "/a/b.json")) == "application/json")
        #expect(ContentType.of(URL(fileURLWithPath: "/a/b")) == "application/octet-stream")
        let page = Data("<html><body><p>x</p></body></html>".utf8)
        #expect(String(decoding: LiveReload.inject(page), as: UTF8.self) == "<html><body><p>x</p>\(LiveReload.scriptTag)</body></html>")
        #expect(String(decoding: LiveReload.inject(Data("<p>no body".utf8)), as: UTF8.self) == "<p>no body\(LiveReload.scriptTag)")
    }
}
