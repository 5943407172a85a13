import Foundation
import Testing
@testable import SiteRender

/// Objects made one entry at a time, records converted once and shared, and the ids a library's
/// templates share: what rendering finds by id must be what was set by name.
@Suite struct TemplateValuesTests {
    /// More than 8 entries: an object that large is binary-searched, so its order matters.
    static let keys = ["l", "k", "j", "i", "h", "g", "f", "e", "d", "c", "b", "a"]
    static let template = keys.reversed().map { "{{\($0)}}" }.joined()

    @Test func builtObjectsAreFoundByEveryName() throws {
        let compiled = try CompiledTemplates(["t": Self.template])
        for names in [compiled.names, compiled.names.keepingAllEntries] {
            var builder = TemplateObjectBuilder(names: names)
            for key in Self.keys { builder.set(key, .string(key.uppercased())) }
            builder.set("unused", .string("U"))
            #expect(compiled.render("t", builder.build()) == "ABCDEFGHIJKL")
        }
    }

    @Test func keepingAllEntriesKeepsUnusedNames() throws {
        let names = try CompiledTemplates(["t": "{{a}}"]).names
        #expect(TemplateObjectBuilder(names: names).uses("a"))
        #expect(!TemplateObjectBuilder(names: names).uses("unused"))
        var builder = TemplateObjectBuilder(names: names.keepingAllEntries)
        #expect(builder.uses("unused"))
        builder.set("unused", .string("U"))
        builder.set("a", .int(1))
        let plain = try #require(names.plain(builder.build()) as? [String: Any])
        #expect(plain["unused"] as? String == "U")
        #expect(plain["a"] as? Int == 1)
    }

    @Test func aSharedRecordIsConvertedOnce() {
        let shared = SharedTemplateValues(count: 2, names: TemplateNames())
        var made = 0
        for _ in 0..<3 {
            _ = shared.value(1) {
                made += 1; return .int(made)
            }
        }
        #expect(made == 1)
        if case .int(let n) = shared.value(1, { .int(99) }) {
            #expect(n == 1)
        } else {
            Issue.record("not the first record")
        }
    }

    @Test func templatesShareOneSetOfIds() throws {
        let compiled = try CompiledTemplates(["a": "{{x}}", "b": "{{y}}{{x}}"])
        #expect(compiled.render("a", ["x": 1, "y": 2]) == "1")
        #expect(compiled.render("b", ["x": 1, "y": 2]) == "21")
    }

    /// swift-mustache sorts only lists of one comparable type: sortable lists go back as `[String]`
    /// or `[Int]`, every other list as `[Any]`.
    @Test func plainListsKeepTheirSortableType() {
        let names = TemplateNames().keepingAllEntries
        func type(_ items: [TemplateValue], sortable: Bool = true) -> ObjectIdentifier {
            ObjectIdentifier(Swift.type(of: names.plain(.list(TemplateList(items, sortable: sortable)))))
        }
        #expect(type([.string("b"), .string("a")]) == ObjectIdentifier([String].self))
        #expect(type([.int(2), .int(1)]) == ObjectIdentifier([Int].self))
        #expect(type([.int(2), .string("a")]) == ObjectIdentifier([Any].self))
        #expect(type([.string("b"), .string("a")], sortable: false) == ObjectIdentifier([Any].self))
    }
}
