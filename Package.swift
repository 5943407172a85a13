// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "sitegen",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "sitegen", targets: ["sitegen"]),
        // KSyntaxHighlighting behind a C interface, opened by sitegen with dlopen from beside its
        // executable (or ../lib/sitegen/) the first time a note has code: never linked.
        .library(name: "SitegenHighlight", type: .dynamic, targets: ["SitegenHighlight"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // The preview server's HTTP/1.1 (event loops, llhttp parsing, sendfile).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Collections read from HTTP APIs (SiteFetch): HTTP/1.1 and 2 over SwiftNIO, TLS by swift-nio-ssl (BoringSSL).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Tests only: property-based testing of the layout core.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // The system cmark-gfm library and its GFM extensions (Debian: libcmark-gfm-dev,
        // libcmark-gfm-extensions-dev; the extensions have no pkg-config file of their own).
        .systemLibrary(name: "CCmark", pkgConfig: "libcmark-gfm", providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        // The system gumbo HTML5 parser (Debian: libgumbo-dev), for the raw HTML allowlist.
        .systemLibrary(name: "CGumbo", pkgConfig: "gumbo", providers: [.apt(["libgumbo-dev"])]),
        // The system libvips' headers and library (Debian: libvips-dev), for tests only.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        // libvips (Debian: libvips42) loaded with dlopen when the first image is resized: linked,
        // its hundred libraries cost every start of sitegen ~19 ms, resizing or not.
        .target(name: "CVipsLoader", linkerSettings: [.linkedLibrary("dl")]),
        // Qt 5's flags (Debian: qtbase5-dev) for the code highlighter's C++ glue, and the glue over
        // KDE's KSyntaxHighlighting (Debian: libkf5syntaxhighlighting-dev): libSitegenHighlight.so.
        .systemLibrary(name: "CQt5", pkgConfig: "Qt5Gui", providers: [.apt(["qtbase5-dev"])]),
        .target(name: "SitegenHighlight", dependencies: ["CQt5"], linkerSettings: [.linkedLibrary("KF5SyntaxHighlighting")]),
        // libSitegenHighlight.so loaded with dlopen the first time a note has a fenced block with a language.
        .target(name: "CHighlightLoader", linkerSettings: [.linkedLibrary("dl")]),
        // tcmalloc (gperftools; Debian: libgoogle-perftools-dev), the allocator of every binary that
        // links SiteImages (sitegen, its tests): a build is millions of small allocations on several
        // threads, and its thread caches make the 10k corpus ~20 % faster than glibc's malloc.
        // SiteImages' FreedMemory tunes it for the image phase (BENCHMARKS.md, "Allocator").
        .systemLibrary(name: "CTCMalloc", pkgConfig: "libtcmalloc_minimal", providers: [.apt(["libgoogle-perftools-dev"])]),
        // Linux system calls glibc does not wrap (openat2 for the preview server, copy_file_range).
        .systemLibrary(name: "CLinux"),

        // Pure values and algorithms: typed values, diagnostics, sorting, pagination, grid geometry.
        .target(name: "SiteCore", linkerSettings: [.linkedLibrary("_FoundationICU", .when(platforms: [.linux]))]),
        // Dataset readers: JSON and property lists (XML and binary) into `Value`.
        .target(name: "SiteFormats", dependencies: ["SiteCore"]),
        // Pixel sizes read from image file headers.
        .target(name: "ImageProbe", dependencies: ["SiteCore"]),
        // Resized images in modern formats with placeholders (libvips), and their cache.
        .target(name: "SiteImages", dependencies: ["SiteCore", "CVipsLoader",
                                                  .target(name: "CTCMalloc", condition: .when(platforms: [.linux]))]),
        // Markdown (cmark-gfm), the raw HTML allowlist (gumbo) and YAML front matter. `AliasBudget` imports CYaml,
        // Yams' libyaml target, which comes with the Yams product (a package exports no other way to name it).
        .target(name: "SiteMarkdown", dependencies: ["SiteCore", "CCmark", "CGumbo", .product(name: "Yams", package: "Yams")]),
        // Collections' data from HTTP APIs: URL templates and placeholders, redaction, the data cache (of answers
        // that read: SiteFormats), the client.
        .target(name: "SiteFetch", dependencies: ["SiteCore", "SiteFormats", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                                                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                                                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl")]),
        // Code blocks highlighted (KSyntaxHighlighting through CHighlightLoader), their themes' CSS.
        .target(name: "SiteHighlight", dependencies: ["SiteCore", "SiteMarkdown", "CHighlightLoader"]),
        // Site configuration (site.yml, read through SiteMarkdown's YAML), content discovery and
        // normalisation of datasets and notes.
        .target(name: "SiteLoad", dependencies: ["SiteCore", "CLinux", "SiteFormats", "SiteFetch", "ImageProbe", "SiteMarkdown", "SiteHighlight",
                                                .product(name: "Yams", package: "Yams")]),
        // Mustache templates (parsed, checked, compiled) with the built-in theme, and the typed
        // values a page is rendered from (the page models themselves are SiteBuild's).
        .target(name: "SiteRender", dependencies: ["SiteCore"]),
        // Staging folder and swap, sitemap, asset copying.
        .target(name: "SiteWrite", dependencies: ["SiteCore", "CLinux"]),
        // Changed files under a folder, coalesced (inotify, or polling where it is unavailable).
        .target(name: "SiteWatch"),
        // The preview server: static files over HTTP, live reload (Server-Sent Events).
        .target(name: "SiteServe", dependencies: ["SiteCore", "CLinux", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                                                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio")]),
        // The pipeline: load → normalise → images → sort/lay out → plan → render → write
        // (FullBuild, BuildPass, SiteSession: docs/ARCHITECTURE.md).
        .target(name: "SiteBuild", dependencies: ["SiteCore", "SiteLoad", "SiteFetch", "SiteRender", "SiteWrite", "SiteImages",
                                                 "SiteHighlight", "SiteMarkdown"]),
        // `sitegen check`: broken links, missing images and unreachable pages in a built site.
        .target(name: "SiteCheck", dependencies: ["SiteCore"]),
        .executableTarget(name: "sitegen", dependencies: ["SiteCore", "SiteBuild", "SiteCheck", "SiteWatch", "SiteServe", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // On-demand benchmarks of the core (not tests).
        .executableTarget(name: "sitegen-bench", dependencies: ["SiteCore", "SiteRender", "SiteBuild", "SiteLoad", "SiteMarkdown",
                                                              "SiteHighlight", "CHighlightLoader", "MustacheReference"]),
        // Tests and benchmark only: swift-mustache, the engine sitegen's compiled templates replaced,
        // as the reference they must match byte for byte.
        .target(name: "MustacheReference", dependencies: ["SiteRender", .product(name: "Mustache", package: "swift-mustache")], path: "Tests/MustacheReference"),

        .testTarget(name: "SiteCoreTests", dependencies: ["SiteCore", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "SiteFormatsTests", dependencies: ["SiteFormats"]),
        .testTarget(name: "ImageProbeTests", dependencies: ["ImageProbe"]),
        .testTarget(name: "SiteImagesTests", dependencies: ["SiteImages", "CVips"]),
        .testTarget(name: "SiteMarkdownTests", dependencies: ["SiteMarkdown", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "SiteHighlightTests", dependencies: ["SiteHighlight"]),
        .testTarget(name: "SiteLoadTests", dependencies: ["SiteLoad"]),
        .testTarget(name: "SiteFetchTests", dependencies: ["SiteFetch"]),
        .testTarget(name: "SiteRenderTests", dependencies: ["SiteRender", "MustacheReference", "CGumbo"]),
        .testTarget(name: "SiteBuildTests", dependencies: ["SiteBuild", "MustacheReference"]),
        .testTarget(name: "SiteWriteTests", dependencies: ["SiteWrite"]),
        .testTarget(name: "SiteWatchTests", dependencies: ["SiteWatch"]),
        .testTarget(name: "SiteServeTests", dependencies: ["SiteServe"]),
        .testTarget(name: "SiteCheckTests", dependencies: ["SiteCheck", "SiteBuild", .product(name: "PropertyBased", package: "swift-property-based")]),
    ],
    swiftLanguageModes: [.v6]
)
