import Foundation
import SiteCore
import Testing
@testable import SiteFormats

/// `elementLocations` finds every item of a list in one pass; each must be where `location(of:)`
/// finds that item by itself (messages keep their lines while loading stays linear).
@Suite struct ElementLocationTests {
    static let json = """
        {"meta": {"day": "x"},
         "items": [
           {"a": 1},
            [2, {"b": [3]}],
          "três", 4.5e1,
        \t{"c": null}, true
         ],
         "after": [9]}
        """

    static let plist = xmlPlist(
        """
        <dict>
          <key>after</key><array><integer>9</integer></array>
          <key>items</key>
          <array>
            <dict><key>a</key><integer>1</integer></dict>
              <array><integer>2</integer><dict><key>b</key><string>é</string></dict></array>
            <string>três</string> <real>45</real>
            <true/>
          </array>
        </dict>
        """)

    @Test(arguments: [[PathComponent.key("items")], [.key("after")], [.key("items"), .index(1)]])
    func jsonElementsAreWhereEachIsLocated(_ path: [PathComponent]) throws {
        let data = Data(Self.json.utf8)
        let all = try #require(JSONReader.elementLocations(of: path, in: data))
        let count = try #require(
            JSONReader.read(data, file: "t.json").value(at: path).flatMap { v -> Int? in
                if case .array(let a) = v { a.count } else { nil }
            })
        #expect(all.count == count)
        for (i, lc) in all.enumerated() {
            let one = try #require(JSONReader.location(of: path + [.index(i)], in: data))
            #expect(lc.line == one.line && lc.column == one.column, "element \(i)")
        }
    }

    @Test(arguments: [[PathComponent.key("items")], [.key("after")], [.key("items"), .index(1)]])
    func plistElementsAreWhereEachIsLocated(_ path: [PathComponent]) throws {
        let data = Data(Self.plist.utf8)
        let all = try #require(PropertyListReader.elementLocations(of: path, in: data))
        let count = try #require(
            PropertyListReader.read(data, file: "t.plist").value(at: path).flatMap { v -> Int? in
                if case .array(let a) = v { a.count } else { nil }
            })
        #expect(all.count == count)
        for (i, lc) in all.enumerated() {
            let one = try #require(PropertyListReader.location(of: path + [.index(i)], in: data))
            #expect(lc.line == one.line && lc.column == one.column, "element \(i)")
        }
    }

    @Test func topLevelListsAndNonLists() throws {
        let top = try #require(JSONReader.elementLocations(of: [], in: Data("[1,\n 2]".utf8)))
        #expect(top.map(\.line) == [1, 2] && top.map(\.column) == [2, 2])
        #expect(JSONReader.elementLocations(of: [.key("meta")], in: Data(Self.json.utf8)) == nil, "not a list")
        #expect(JSONReader.elementLocations(of: [.key("none")], in: Data(Self.json.utf8)) == nil, "no such key")
        #expect(JSONReader.elementLocations(of: [], in: Data("[1,".utf8)) == nil, "invalid JSON")
    }

    @Test func plistNonLists() throws {
        let data = Data(Self.plist.utf8)
        #expect(PropertyListReader.elementLocations(of: [], in: data) == nil, "a dictionary")
        #expect(PropertyListReader.elementLocations(of: [.key("none")], in: data) == nil, "no such key")
        #expect(
            try PropertyListReader.read(data, file: "t.plist", locatingElementsOf: [.key("items"), .index(2)]).elements
                == nil)
        #expect(
            try PropertyListReader.read(data, file: "t.plist", locatingElementsOf: [.key("after")]).elements?.count == 1
        )
    }
}
