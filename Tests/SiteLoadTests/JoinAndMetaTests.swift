import Foundation
import Testing
import SiteCore
@testable import SiteLoad

/// Records joined from other files by key, values from outside the item list, and data patterns.
@Suite struct JoinAndMetaTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-join-\(UUID().uuidString)")

    func load(_ files: [String: String], _ yamlBody: String) throws -> Result<LoadedCollection, Diagnostics> {
        defer { try? FileManager.default.removeItem(at: root) }
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let content = try ContentTree.scan(root)
        let config = try #require(
            try SiteConfig.parse("title: T\nbaseURL: https://x.org/\ncollections:\n  c:\n" + yamlBody, file: "site.yml")
                .collections.first)
        return Result { () throws(Diagnostics) in
            try CollectionLoader(content: content, language: "ko").load(config, imageSizes: ImageSizeCache())
        }
    }

    func errors(_ files: [String: String], _ yamlBody: String) throws -> [String] {
        switch try load(files, yamlBody) {
        case .success: return []
        case .failure(let d): return d.items.map(\.description)
        }
    }

    static let daily = """
        {"boxOfficeResult": {"showRange": "20250105~20250105", "dailyBoxOfficeList": [
          {"movieCd": "1", "movieNm": "A", "rankInten": "-2"},
          {"movieCd": "2", "movieNm": "B", "rankInten": "3"},
          {"movieCd": "3", "movieNm": "C", "rankInten": "0"}
        ]}}
        """
    static func info(_ code: String, _ director: String) -> String {
        "{\"movieInfoResult\": {\"movieInfo\": {\"movieCd\": \"\(code)\", \"openDt\": \"20241030\", \"directors\": [{\"peopleNm\": \"\(director)\"}]}}}"
    }
    static let body = """
            data: box/daily.json
            items: boxOfficeResult.dailyBoxOfficeList
            slug: movieCd
            meta:
              showRange: boxOfficeResult.showRange
              day: { from: showRange, format: date, input: YYYYMMDD, output: "YYYY년 M월 D일" }
            join:
              info: { data: "box/movies/*.json", items: movieInfoResult.movieInfo, key: movieCd }
            derived:
              directors: { from: info.directors, format: join, field: peopleNm }
              opened: { from: info.openDt, format: date, input: YYYYMMDD, output: YYYY.MM.DD }
              change: { from: rankInten, format: sign }

        """

    @Test func joinsRecordsByKeyAndReadsValuesOutsideTheList() throws {
        let loaded = try load(
            [
                "box/daily.json": Self.daily, "box/movies/1.json": Self.info("1", "가"),
                "box/movies/2.json": Self.info("2", "나"),
                "box/other.json": "[]"
            ], Self.body
        ).get()
        #expect(loaded.meta["showRange"] == .string("20250105~20250105"))
        #expect(loaded.meta["day"] == .string("2025년 1월 5일"))
        #expect(loaded.items.map { $0.fields["directors"] } == [.string("가"), .string("나"), .null])
        #expect(loaded.items[0].fields["opened"] == .string("2024.10.30"))
        // An item without a matching record has no joined field.
        #expect(loaded.items[2].fields["info"] == nil)
        #expect(loaded.items[1].fields["change"]?.dictionaryValue?["up"] == .bool(true))
    }

    @Test func duplicateJoinKeysAndMissingKeysAreLocated() throws {
        let e = try errors(
            [
                "box/daily.json": Self.daily, "box/movies/1.json": Self.info("1", "가"),
                "box/movies/9.json": Self.info("1", "다"),
                "box/movies/x.json": "{\"movieInfoResult\": {\"movieInfo\": {\"title\": \"no key\"}}}"
            ], Self.body)
        #expect(
            e.contains(
                "content/box/movies/9.json:1:47: error: join 'info' of collection 'c': key '1' is also the key of the record at content/box/movies/1.json:1:47"
            ), "\(e)")
        #expect(
            e.contains(
                "content/box/movies/x.json:1:35: error: join 'info' of collection 'c': the record has no key field 'movieCd'"
            ), "\(e)")
    }

    @Test func patternsThatMatchNothingAndBrokenMetaPathsAreErrors() throws {
        let e = try errors(
            ["box/daily.json": Self.daily],
            Self.body.replacingOccurrences(of: "boxOfficeResult.showRange", with: "boxOfficeResult.range"))
        #expect(
            e.contains(
                "site.yml: error: join 'info' of collection 'c': data pattern 'box/movies/*.json' matches no dataset (.json, .plist, .csv) under content/"
            ), "\(e)")
        #expect(
            e.contains {
                $0.hasPrefix(
                    "content/box/daily.json: error: meta value 'showRange' of collection 'c': key path 'boxOfficeResult.range' leads nowhere: range not found in 'boxOfficeResult' (keys there: dailyBoxOfficeList, showRange)"
                )
            }, "\(e)")
    }

    @Test func dataPatternsMatchWithinOneSegment() {
        #expect(ContentPath.matches("box/movies/1.json", pattern: "box/movies/*.json"))
        #expect(ContentPath.matches("box/movies/a-b.plist", pattern: "box/movies/*-*.plist"))
        #expect(!ContentPath.matches("box/movies/deep/1.json", pattern: "box/movies/*.json"))
        #expect(!ContentPath.matches("box/movies/1.jsonx", pattern: "box/movies/*.json"))
        #expect(ContentPath.matches("a.json", pattern: "*"))
        #expect(!ContentPath.matches("ab", pattern: "a*b*b"))
    }
}
