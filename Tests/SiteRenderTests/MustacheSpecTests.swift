import Foundation
import Testing
@testable import SiteRender

/// The official Mustache specification (https://github.com/mustache/spec), read at test time
/// from `../shared/mustache-spec/` beside the package (or `$MUSTACHE_SPEC_DIR`), run through
/// sitegen's compiled renderer.
///
/// Deliberately not run:
/// - `~lambdas.json`: its lambdas are source code in other languages (Ruby, JS, Perl…); sitegen
///   templates can call only the functions sitegen gives them (`site.asset`), tested below and in
///   the differential tests.
/// - Two inheritance tests that swift-mustache, the engine sitegen replaced, does not pass either
///   (it skips them in its own spec run): "Intrinsic indentation" and "Nested block
///   reindentation". A block's lines are indented as swift-mustache indented them, so existing
///   sites render to the same bytes as before.
@Suite struct MustacheSpecTests {
    static let notSupported: Set<String> = ["Intrinsic indentation", "Nested block reindentation"]

    static var specDirectory: URL {
        if let dir = ProcessInfo.processInfo.environment["MUSTACHE_SPEC_DIR"] { return URL(fileURLWithPath: dir) }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/mustache-spec")
    }

    struct Spec: Decodable {
        struct Test: Decodable {
            var name: String
            var data: JSONAny
            var partials: [String: String]?
            var template: String
            var expected: String
        }
        var tests: [Test]
    }

    static func load(_ file: String) throws -> Spec {
        let url = specDirectory.appendingPathComponent("\(file).json")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw SpecMissing(path: url.path)
        }
        return try JSONDecoder().decode(Spec.self, from: data)
    }

    struct SpecMissing: Error, CustomStringConvertible {
        var path: String
        var description: String { "the Mustache spec is missing at \(path) (set MUSTACHE_SPEC_DIR to its folder)" }
    }

    @Test(arguments: [
        "comments", "delimiters", "interpolation", "inverted", "partials", "sections", "~inheritance", "~dynamic-names"
    ])
    func specFile(_ file: String) throws {
        let spec = try Self.load(file)
        #expect(spec.tests.count >= 10, "\(file) has its tests")
        var run = 0
        for test in spec.tests where !Self.notSupported.contains(test.name) {
            var texts = test.partials ?? [:]
            texts["__test__"] = test.template
            let library = try CompiledTemplates(texts)
            let output = library.render("__test__", library.names.value(test.data.value))
            #expect(output == test.expected, "\(file): \(test.name)\ntemplate: \(test.template)")
            run += 1
        }
        #expect(run == spec.tests.count - spec.tests.filter { Self.notSupported.contains($0.name) }.count)
    }

    @Test func theSkippedTestsExistAndStillDiffer() throws {
        // If the spec renames them, the list above is stale; if they pass, drop them from it.
        let spec = try Self.load("~inheritance")
        let skipped = spec.tests.filter { Self.notSupported.contains($0.name) }
        #expect(skipped.count == 2)
        for test in skipped {
            var texts = test.partials ?? [:]
            texts["__test__"] = test.template
            let library = try CompiledTemplates(texts)
            #expect(library.render("__test__", library.names.value(test.data.value)) != test.expected)
        }
    }
}

/// Any JSON value as the Swift values sitegen's contexts hold (null as NSNull).
struct JSONAny: Decodable {
    var value: Any

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            value = NSNull()
        } else if let b = try? c.decode(Bool.self) {
            value = b
        } else if let i = try? c.decode(Int.self) {
            value = i
        } else if let d = try? c.decode(Double.self) {
            value = d
        } else if let s = try? c.decode(String.self) {
            value = s
        } else if let a = try? c.decode([JSONAny].self) {
            value = a.map(\.value)
        } else {
            value = try c.decode([String: JSONAny].self).mapValues(\.value)
        }
    }
}
