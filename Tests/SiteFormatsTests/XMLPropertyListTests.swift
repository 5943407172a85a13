import Foundation
import SiteCore
import Testing
@testable import SiteFormats

private func read(_ text: String) throws -> Value {
    try PropertyListReader.read(Data(text.utf8), file: "t.plist")
}

@Suite struct XMLPropertyListValidTests {
    @Test func everyType() throws {
        let value = try read(
            xmlPlist(
                """
                <dict>
                    <key>title</key>
                    <string>파묘</string>
                    <key>rank</key>
                    <integer>1</integer>
                    <key>audience</key>
                    <integer>9007199254740993</integer>
                    <key>share</key>
                    <real>12.5</real>
                    <key>open</key>
                    <true/>
                    <key>closed</key>
                    <false/>
                    <key>released</key>
                    <date>2024-02-22T00:00:00Z</date>
                    <key>poster</key>
                    <data>
                    AQID
                    BA==
                    </data>
                    <key>tags</key>
                    <array>
                        <string>horror</string>
                        <integer>-3</integer>
                    </array>
                    <key>nested</key>
                    <dict>
                        <key>empty</key>
                        <string></string>
                    </dict>
                </dict>
                """))
        #expect(
            value
                == .dictionary([
                    "title": .string("파묘"),
                    "rank": .int(1),
                    "audience": .int(9_007_199_254_740_993),
                    "share": .double(12.5),
                    "open": .bool(true),
                    "closed": .bool(false),
                    "released": .date(Date(timeIntervalSince1970: 1_708_560_000)),
                    "poster": .string("AQIDBA=="),
                    "tags": .array([.string("horror"), .int(-3)]),
                    "nested": .dictionary(["empty": .string("")])
                ]))
    }

    @Test func emptyElements() throws {
        let value = try read(xmlPlist("<array><string/><dict/><array/><data/><dict></dict><array></array></array>"))
        #expect(value == .array([.string(""), .dictionary([:]), .array([]), .string(""), .dictionary([:]), .array([])]))
    }

    @Test func integers() throws {
        let value = try read(
            xmlPlist(
                """
                <array>
                  <integer>9223372036854775807</integer>
                  <integer>-9223372036854775808</integer>
                  <integer> +42 </integer>
                  <integer>0x1F</integer>
                  <integer>-0x10</integer>
                  <integer>0XfF</integer>
                  <integer>0</integer>
                </array>
                """))
        #expect(value == .array([.int(.max), .int(.min), .int(42), .int(31), .int(-16), .int(255), .int(0)]))
    }

    @Test func reals() throws {
        let value = try read(
            xmlPlist(
                "<array><real>3</real><real>-1.5e-3</real><real>.5</real><real>+infinity</real><real>-inf</real></array>"
            ))
        #expect(value == .array([.double(3), .double(-0.0015), .double(0.5), .double(.infinity), .double(-.infinity)]))
        let nan = try read(xmlPlist("<real>nan</real>"))
        if case .double(let d) = nan { #expect(d.isNaN) } else { Issue.record("expected a double, got \(nan)") }
    }

    @Test func dates() throws {
        #expect(
            try read(xmlPlist("<date>2001-01-01T00:00:00Z</date>")) == .date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(try read(xmlPlist("<date>1969-12-31T23:59:59Z</date>")) == .date(Date(timeIntervalSince1970: -1)))
        #expect(
            try read(xmlPlist("<date>2024-02-29T12:34:56Z</date>")) == .date(Date(timeIntervalSince1970: 1_709_210_096))
        )
    }

    @Test func entitiesAndCharacterReferences() throws {
        let value = try read(
            xmlPlist("<string>&lt;a&gt; &amp; &quot;b&quot; &apos;c&apos; &#65;&#x42;&#xAC00;&#x1F600;</string>"))
        #expect(value == .string("<a> & \"b\" 'c' AB가😀"))
    }

    @Test func cdataAndComments() throws {
        let value = try read(
            xmlPlist(
                """
                <!-- leading comment -->
                <dict>
                    <!-- between members -->
                    <key>html</key>
                    <string><![CDATA[<b>bold</b> & more]]> tail<!-- inside text --> end</string>
                </dict>
                <!-- trailing comment -->
                """))
        #expect(value == .dictionary(["html": .string("<b>bold</b> & more tail end")]))
    }

    @Test func keysWithEntitiesAndEmptyKeys() throws {
        let value = try read(xmlPlist("<dict><key>a&amp;b</key><integer>1</integer><key/><integer>2</integer></dict>"))
        #expect(value == .dictionary(["a&b": .int(1), "": .int(2)]))
    }

    @Test func whitespaceInStringsIsKept() throws {
        #expect(try read(xmlPlist("<string>  two\nlines  </string>")) == .string("  two\nlines  "))
        #expect(try read("<plist><string>a\r\nb\rc</string></plist>") == .string("a\nb\nc"))
    }

    @Test func minimalDocuments() throws {
        #expect(try read("<plist><true/></plist>") == .bool(true))
        #expect(try read("<plist version=\"1.0\"><true></true></plist>") == .bool(true))
        #expect(try read("<array><integer>1</integer></array>") == .array([.int(1)]))
        #expect(
            try PropertyListReader.read(
                Data([0xEF, 0xBB, 0xBF] + Array("<plist><false/></plist>".utf8)), file: "t.plist") == .bool(false))
    }

    @Test func nestingUpToTheLimitIsAccepted() throws {
        let depth = maximumNestingDepth
        let text = String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
        #expect(nestingLevels(try read(text)) == depth)
    }
}

@Suite struct XMLPropertyListErrorTests {
    func expectError(
        _ text: String, line: Int, column: Int, _ message: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(
            plistFailure(text) == Diagnostic(file: "t.plist", line: line, column: column, message),
            sourceLocation: sourceLocation)
    }

    @Test func invalidUTF8InInteger() {
        let bytes =
            Array("<dict><key>count</key><integer>".utf8) + Array(repeating: 0xFF, count: 8)
            + Array("</integer></dict>".utf8)
        #expect(
            plistFailure(Data(bytes)) == Diagnostic(file: "t.plist", line: 1, column: 32, "invalid UTF-8 byte 0xFF"))
    }

    @Test func invalidUTF8OnLaterLine() {
        let bytes = Array(xmlPlist("<string>ok</string>").utf8) + [0xC3, 0x28]
        #expect(plistFailure(Data(bytes)) == Diagnostic(file: "t.plist", line: 6, column: 1, "invalid UTF-8 byte 0xC3"))
    }

    @Test func integerThatIsNotANumber() {
        expectError(
            xmlPlist("<dict>\n  <key>count</key>\n  <integer>abc</integer>\n</dict>"), line: 6, column: 12,
            "<integer> holds 'abc', expected a whole number")
    }

    @Test func integerWithFraction() {
        expectError(
            "<plist><integer>1.5</integer></plist>", line: 1, column: 17,
            "<integer> holds '1.5', expected a whole number")
    }

    @Test func emptyInteger() {
        expectError("<plist><integer/></plist>", line: 1, column: 8, "<integer> is empty, expected a whole number")
    }

    @Test func integerTooLarge() {
        expectError(
            "<plist><integer>9223372036854775808</integer></plist>", line: 1, column: 17,
            "<integer> holds '9223372036854775808', which does not fit in 64 bits")
        expectError(
            "<plist><integer>0x10000000000000000</integer></plist>", line: 1, column: 17,
            "<integer> holds '0x10000000000000000', which does not fit in 64 bits")
    }

    @Test func badReal() {
        expectError("<plist><real>1,5</real></plist>", line: 1, column: 14, "<real> holds '1,5', expected a number")
        expectError("<plist><real>0x1p3</real></plist>", line: 1, column: 14, "<real> holds '0x1p3', expected a number")
    }

    @Test func badDate() {
        expectError(
            "<plist><date>2024-02-30T00:00:00Z</date></plist>", line: 1, column: 14,
            "<date> holds '2024-02-30T00:00:00Z', expected a date like 2024-05-01T12:00:00Z")
        expectError(
            "<plist><date>yesterday</date></plist>", line: 1, column: 14,
            "<date> holds 'yesterday', expected a date like 2024-05-01T12:00:00Z")
    }

    @Test func badBase64() {
        expectError("<plist><data>AQ*D</data></plist>", line: 1, column: 14, "<data> holds '*', which is not base64")
    }

    @Test func keyWithoutValue() {
        expectError(
            xmlPlist("<dict>\n  <key>count</key>\n</dict>"), line: 6, column: 1, "<dict> key 'count' has no value")
    }

    @Test func keyFollowedByKey() {
        expectError(
            "<plist><dict><key>a</key><key>b</key><true/></dict></plist>", line: 1, column: 26,
            "<dict> key 'a' has no value, found <key>")
    }

    @Test func valueWithoutKey() {
        expectError(
            "<plist><dict><string>a</string></dict></plist>", line: 1, column: 14,
            "expected <key> or </dict> in <dict>, found <string>")
    }

    @Test func duplicateKey() {
        expectError(
            "<plist><dict><key>a</key><true/><key>a</key><false/></dict></plist>", line: 1, column: 33,
            "duplicate key 'a' in <dict>")
    }

    @Test func mismatchedClosingTag() {
        expectError("<plist><string>a</strin></plist>", line: 1, column: 17, "expected </string>, found </strin>")
        expectError("<plist><array><true/></dict></plist>", line: 1, column: 22, "expected </array>, found </dict>")
        expectError("<plist><dict></array></plist>", line: 1, column: 14, "expected </dict>, found </array>")
        expectError("<plist><true/></array>", line: 1, column: 15, "expected </plist>, found </array>")
    }

    @Test func unexpectedEndOfFile() {
        expectError(
            "<plist><array><string>a</string>", line: 1, column: 33,
            "unexpected end of file, expected a value or </array>")
        expectError("<plist><dict>", line: 1, column: 14, "unexpected end of file, expected <key> or </dict>")
        expectError(
            "<plist><string>abc", line: 1, column: 19, "unexpected end of file inside <string>, expected </string>")
        expectError(
            "<plist><true/>", line: 1, column: 15,
            "expected </plist> after the property list's value, found end of file")
        expectError(
            "<plist><dict><key>a</key>", line: 1, column: 26,
            "unexpected end of file, expected the value of <dict> key 'a'")
        expectError("<plist><str", line: 1, column: 12, "unexpected end of file inside <str> tag")
        expectError(
            "", line: 1, column: 1,
            "expected '<?xml', '<plist>' or 'bplist00' at the start of a property list, found end of file")
    }

    @Test func unknownElement() {
        expectError(
            "<plist><array><float>1</float></array></plist>", line: 1, column: 15,
            "unexpected <float>, expected a value such as <string>, <integer> or <dict>")
    }

    @Test func elementInsideString() {
        expectError(
            "<plist><string>a<b>c</b></string></plist>", line: 1, column: 17,
            "unexpected <b> inside <string>, expected text")
    }

    @Test func textOutsideString() {
        expectError(
            "<plist><array>oops</array></plist>", line: 1, column: 15,
            "unexpected text 'oops', expected an element such as <string>")
    }

    @Test func unknownEntity() {
        expectError("<plist><string>&nbsp;</string></plist>", line: 1, column: 16, "unknown entity '&nbsp;'")
        expectError(
            "<plist><string>a & b</string></plist>", line: 1, column: 18, "'&' must start an entity such as '&amp;'")
        expectError(
            "<plist><string>&#xD800;</string></plist>", line: 1, column: 16,
            "character reference '&#xD800;' is not a valid XML character")
    }

    @Test func emptyPlist() {
        expectError("<plist></plist>", line: 1, column: 8, "<plist> is empty, expected a value inside it")
    }

    @Test func twoValuesInPlist() {
        expectError(
            "<plist><true/><false/></plist>", line: 1, column: 15,
            "expected </plist> after the property list's value, found another value")
    }

    @Test func contentAfterPlist() {
        expectError(
            "<plist><true/></plist>x", line: 1, column: 23, "expected end of file after the property list, found 'x'")
    }

    @Test func nonEmptyBoolean() {
        expectError("<plist><true>yes</true></plist>", line: 1, column: 14, "<true/> must be empty, found 'yes'")
    }

    @Test func unterminatedComment() {
        expectError("<plist><!-- no end", line: 1, column: 8, "unterminated comment, expected '-->'")
    }

    @Test func controlCharacter() {
        expectError(
            "<plist><string>a\u{1}</string></plist>", line: 1, column: 17,
            "control character U+0001 is not allowed in XML")
    }

    @Test func notAPropertyList() {
        expectError(
            "{\"a\": 1}", line: 1, column: 1,
            "expected '<?xml', '<plist>' or 'bplist00' at the start of a property list, found '{'")
    }

    @Test func utf16IsRejected() {
        #expect(
            plistFailure(Data([0xFF, 0xFE, 0x3C, 0x00]))?.message
                == "UTF-16 property lists are not supported; save the file as UTF-8")
    }

    @Test func deepArraysAreAnErrorNotACrash() {
        let text = String(repeating: "<array>", count: 10_000) + String(repeating: "</array>", count: 10_000)
        expectError(text, line: 1, column: 512 * 7 + 1, "arrays and dictionaries are nested more than 512 deep")
    }

    @Test func deepDictionariesAreAnErrorNotACrash() {
        let text = "<plist>" + String(repeating: "<dict><key>k</key>", count: 10_000)
        #expect(plistFailure(text)?.message == "arrays and dictionaries are nested more than 512 deep")
    }

    @Test func everyPrefixFailsCleanly() {
        let bytes = Array(
            xmlPlist("<dict><key>a&amp;</key><array><integer>1</integer><string><![CDATA[x]]></string></array></dict>")
                .utf8)
        for length in 0..<(bytes.count - 12) {
            #expect(plistFailure(Data(bytes[..<length])) != nil, "prefix of \(length) bytes")
        }
        #expect(plistFailure(Data(bytes)) == nil)
    }
}

@Suite struct XMLPropertyListLocationTests {
    static let document = xmlPlist(
        """
        <dict>
            <key>boxOfficeResult</key>
            <dict>
                <key>dailyBoxOfficeList</key>
                <array>
                    <dict><key>rank</key><string>1</string></dict>
                    <dict><key>rank</key><string>2</string></dict>
                    <dict><key>rank</key><string>3</string></dict>
                    <dict>
                        <key>rank</key>
                        <integer>4</integer>
                    </dict>
                </array>
            </dict>
        </dict>
        """)

    func location(_ path: [PathComponent]) -> (line: Int, column: Int)? {
        PropertyListReader.location(of: path, in: Data(Self.document.utf8))
    }

    @Test func locatesNestedValue() {
        let found = location([.key("boxOfficeResult"), .key("dailyBoxOfficeList"), .index(3), .key("rank")])
        #expect(found?.line == 14)
        #expect(found?.column == 17)
    }

    @Test func locatesOtherValues() {
        let first = location([.key("boxOfficeResult"), .key("dailyBoxOfficeList"), .index(0), .key("rank")])
        #expect(first?.line == 9 && first?.column == 34)
        let list = location([.key("boxOfficeResult"), .key("dailyBoxOfficeList")])
        #expect(list?.line == 8 && list?.column == 9)
        let root = location([])
        #expect(root?.line == 4 && root?.column == 1)
    }

    @Test func missingPathIsNil() {
        #expect(location([.key("boxOfficeResult"), .key("dailyBoxOfficeList"), .index(4)]) == nil)
        #expect(location([.key("other")]) == nil)
    }

    @Test func invalidDataIsNil() {
        #expect(PropertyListReader.location(of: [.index(0)], in: Data("<plist><array><true/>".utf8)) == nil)
    }

    @Test func binaryHasNoLocation() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .binary, options: 0)
        #expect(PropertyListReader.location(of: [.key("a")], in: data) == nil)
    }
}
