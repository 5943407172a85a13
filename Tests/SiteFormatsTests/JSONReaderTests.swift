import Foundation
import SiteCore
import Testing
@testable import SiteFormats

private func read(_ text: String) throws -> Value {
    try JSONReader.read(Data(text.utf8), file: "t.json")
}

@Suite struct JSONValidTests {
    @Test func scalarsAtTopLevel() throws {
        #expect(try read("true") == .bool(true))
        #expect(try read("false") == .bool(false))
        #expect(try read(" null ") == .null)
        #expect(try read("42") == .int(42))
        #expect(try read("\"hi\"") == .string("hi"))
    }

    @Test func integersKeepSixtyFourBits() throws {
        let value = try read(
            """
            {"small": 7, "negative": -2, "beyondInt32": 4294967296, "beyondDouble": 9007199254740993,
             "max": 9223372036854775807, "min": -9223372036854775808, "zero": 0, "negativeZero": -0}
            """)
        #expect(value["small"] == .int(7))
        #expect(value["negative"] == .int(-2))
        #expect(value["beyondInt32"] == .int(4_294_967_296))
        #expect(value["beyondDouble"] == .int(9_007_199_254_740_993))
        #expect(value["max"] == .int(.max))
        #expect(value["min"] == .int(.min))
        #expect(value["zero"] == .int(0))
        #expect(value["negativeZero"] == .int(0))
    }

    @Test func integersBeyondInt64BecomeDoubles() throws {
        #expect(try read("9223372036854775808") == .double(9_223_372_036_854_775_808.0))
        #expect(try read("-9223372036854775809") == .double(-9_223_372_036_854_775_809.0))
        #expect(try read("123456789012345678901234567890") == .double(1.2345678901234568e29))
    }

    @Test func floats() throws {
        #expect(
            try read("[1.5, -0.25, 1e3, 2.5E-3, 0.1, 1E+2, 1.0]")
                == .array([
                    .double(1.5), .double(-0.25), .double(1000), .double(0.0025), .double(0.1), .double(100), .double(1)
                ]))
    }

    @Test func escapes() throws {
        #expect(try read(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
        #expect(try read(#""caf\u00e9 \u00E9""#) == .string("café é"))
        #expect(try read(#""\uD83D\uDE00!""#) == .string("😀!"))
        #expect(try read(#""a\u0000b""#) == .string("a\u{0}b"))
    }

    /// Every hex digit, in both cases, in a `\u` escape.
    @Test func unicodeEscapesTakeEveryHexDigitInBothCases() throws {
        for (v, digit) in "0123456789abcdef".enumerated() {
            for d in [String(digit), digit.uppercased()] {
                let expected = String(UnicodeScalar(UInt8(0x40 + v)))
                #expect(try read("\"\\u004\(d)\"") == .string(expected), "\\u004\(d)")
                #expect(
                    try read("\"\\u0\(d)40\"") == .string(String(UnicodeScalar(UInt32(v) << 8 | 0x40)!)), "\\u0\(d)40")
            }
        }
        #expect(try read(#""\u00FF \u00ff \u0AbC""#) == .string("\u{FF} \u{FF} \u{ABC}"))
    }

    @Test func hangul() throws {
        #expect(
            try read(#"{"제목": "안녕하세요", "escaped": "\uD55C\uAE00"}"#)
                == .dictionary(["제목": .string("안녕하세요"), "escaped": .string("한글")]))
    }

    @Test func nestedContainers() throws {
        let value = try read(
            """
            {
              "list": [1, [2, []], {}],
              "object": {"a": {"b": null}}
            }
            """)
        #expect(
            value
                == .dictionary([
                    "list": .array([.int(1), .array([.int(2), .array([])]), .dictionary([:])]),
                    "object": .dictionary(["a": .dictionary(["b": .null])])
                ]))
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let value = try JSONReader.read(Data([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)), file: "t.json")
        #expect(value == .array([.int(1)]))
    }

    @Test func nestingUpToTheLimitIsAccepted() throws {
        let depth = maximumNestingDepth
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(nestingLevels(try read(text)) == depth)
    }

    @Test func largeDocument() throws {
        var text = "["
        for i in 0..<20_000 {
            if i > 0 { text += "," }
            text += #"{"rank": \#(i), "title": "영화 \#(i)", "share": \#(Double(i) / 8), "open": true}"#
        }
        text += "]"
        let value = try read(text)
        #expect(value.arrayValue?.count == 20_000)
        #expect(value.arrayValue?[19_999]["title"] == .string("영화 19999"))
        #expect(value.arrayValue?[3]["share"] == .double(0.375))
    }
}

@Suite struct JSONErrorTests {
    func expectError(
        _ text: String, line: Int, column: Int, _ message: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let diagnostic = jsonFailure(text)
        #expect(
            diagnostic == Diagnostic(file: "t.json", line: line, column: column, message),
            sourceLocation: sourceLocation)
    }

    @Test func missingComma() {
        expectError(#"{"a": 1 "b": 2}"#, line: 1, column: 9, #"expected ',' or '}' after object member, found '"'"#)
    }

    @Test func wrongCharacterAfterMember() {
        expectError(#"{"a": 1x}"#, line: 1, column: 8, "expected ',' or '}' after object member, found 'x'")
    }

    @Test func badValueOnLaterLine() {
        expectError("{\n  \"a\": 1,\n  \"b\": x\n}", line: 3, column: 8, "expected a JSON value, found 'x'")
    }

    @Test func crlfCountsAsOneLineBreak() {
        expectError("[\r\n1,\r\nx]", line: 3, column: 1, "expected a JSON value, found 'x'")
    }

    @Test func columnsCountCharactersNotBytes() {
        expectError(#"["가나", x]"#, line: 1, column: 8, "expected a JSON value, found 'x'")
    }

    @Test func trailingCommaInArray() {
        expectError("[1, 2,]", line: 1, column: 7, "expected a JSON value after ',' in array, found ']'")
        expectError("[[1],\n]", line: 2, column: 1, "expected a JSON value after ',' in array, found ']'")
        expectError("[1, {\"a\": ]}", line: 1, column: 11, "expected a JSON value, found ']'")
    }

    @Test func trailingCommaInObject() {
        expectError(#"{"a": 1,}"#, line: 1, column: 9, "expected a string key after ',' in object, found '}'")
    }

    @Test func nonStringKey() {
        expectError("{1: 2}", line: 1, column: 2, "expected a string key or '}' in object, found '1'")
    }

    @Test func missingColon() {
        expectError(#"{"a" 1}"#, line: 1, column: 6, #"expected ':' after object key "a", found '1'"#)
    }

    @Test func duplicateKey() {
        expectError(#"{"a": 1, "a": 2}"#, line: 1, column: 10, #"duplicate key "a" in object"#)
    }

    @Test func unclosedArray() {
        expectError("[1, 2", line: 1, column: 6, "expected ',' or ']' after array element, found end of file")
    }

    @Test func emptyDocument() {
        expectError("", line: 1, column: 1, "expected a JSON value, found end of file")
        expectError("  \n ", line: 2, column: 2, "expected a JSON value, found end of file")
    }

    @Test func trailingGarbage() {
        expectError("[1] x", line: 1, column: 5, "expected end of file after the JSON value, found 'x'")
        expectError("{}{}", line: 1, column: 3, "expected end of file after the JSON value, found '{'")
    }

    @Test func notANumber() {
        expectError("NaN", line: 1, column: 1, "expected a JSON value, found 'NaN'")
        expectError("[Infinity]", line: 1, column: 2, "expected a JSON value, found 'Infinity'")
        expectError("-Infinity", line: 1, column: 2, "expected a digit after '-', found 'Infinity'")
    }

    @Test func misspelledLiteral() {
        expectError("[tru]", line: 1, column: 2, "expected a JSON value, found 'tru'")
        expectError("nul", line: 1, column: 1, "expected a JSON value, found 'nul'")
    }

    @Test func singleQuotes() {
        expectError("['a']", line: 1, column: 2, "expected a JSON value, found '''")
    }

    @Test func leadingZeros() {
        expectError("[01]", line: 1, column: 2, "leading zeros are not allowed in numbers")
        expectError("-007", line: 1, column: 2, "leading zeros are not allowed in numbers")
    }

    @Test func malformedNumbers() {
        expectError("[1.]", line: 1, column: 4, "expected a digit after '.' in number, found ']'")
        expectError("[.5]", line: 1, column: 2, "expected a JSON value, found '.'")
        expectError("1e", line: 1, column: 3, "expected a digit in the exponent of the number, found end of file")
        expectError("[1e+]", line: 1, column: 5, "expected a digit in the exponent of the number, found ']'")
        expectError("[-]", line: 1, column: 3, "expected a digit after '-', found ']'")
        expectError("+1", line: 1, column: 1, "expected a JSON value, found '+'")
        expectError("0x10", line: 1, column: 2, "expected end of file after the JSON value, found 'x10'")
    }

    @Test func numberOutOfRange() {
        expectError("[1e999]", line: 1, column: 2, "number 1e999 is out of range for a 64-bit floating-point number")
    }

    @Test func unterminatedString() {
        expectError(#""abc"#, line: 1, column: 5, #"expected '"' to end the string, found end of file"#)
    }

    @Test func controlCharacterInString() {
        expectError("\"a\tb\"", line: 1, column: 3, "unescaped control character U+0009 in string")
        expectError(
            "[\"line\nbreak\"]", line: 1, column: 7,
            "line break in the string that starts at 1:2 (a missing '\"'? a line break inside a string is written \\n)")
    }

    @Test func invalidEscape() {
        expectError(#""a\x""#, line: 1, column: 3, #"invalid escape '\x' in string"#)
    }

    @Test func shortUnicodeEscape() {
        expectError(#""\u12""#, line: 1, column: 6, #"expected 4 hex digits after '\u' in string, found '"'"#)
    }

    /// After a high surrogate only \uDC00–\uDFFF completes the pair; \uE000 just above is text
    /// of its own, so the high one is alone.
    @Test func aHighSurrogateNeedsALowOneExactly() throws {
        #expect(try read(#""\uD83D\uDC00\uDBFF\uDFFF""#) == .string("\u{1F400}\u{10FFFF}"))
        expectError(
            #"["\uD83D\uE000"]"#, line: 1, column: 3,
            #"lone surrogate \uD83D in string, expected a low surrogate \uDC00-\uDFFF after it"#)
        expectError(
            #"["\uD83D\uDBFF"]"#, line: 1, column: 3,
            #"lone surrogate \uD83D in string, expected a low surrogate \uDC00-\uDFFF after it"#)
    }

    @Test func loneHighSurrogate() {
        expectError(
            #"["\uD83D"]"#, line: 1, column: 3,
            #"lone surrogate \uD83D in string, expected a low surrogate \uDC00-\uDFFF after it"#)
        expectError(
            #"["\uD83D\u0041"]"#, line: 1, column: 3,
            #"lone surrogate \uD83D in string, expected a low surrogate \uDC00-\uDFFF after it"#)
    }

    @Test func loneLowSurrogate() {
        expectError(
            #"["x\uDE00"]"#, line: 1, column: 4,
            #"lone surrogate \uDE00 in string, a low surrogate must follow a high one"#)
    }

    @Test func invalidUTF8InString() {
        let diagnostic = jsonFailure(bytes: Array(#"["ab"#.utf8) + [0xFF] + Array(#""]"#.utf8))
        #expect(diagnostic == Diagnostic(file: "t.json", line: 1, column: 5, "invalid UTF-8 byte 0xFF in string"))
    }

    @Test func overlongUTF8InString() {
        // 0xC0 0xAF is an overlong encoding of '/'.
        let diagnostic = jsonFailure(bytes: [0x22, 0xC0, 0xAF, 0x22])
        #expect(diagnostic == Diagnostic(file: "t.json", line: 1, column: 2, "invalid UTF-8 byte 0xC0 in string"))
    }

    @Test func encodedSurrogateInString() {
        // UTF-8 must not encode surrogates (ED A0 80 is U+D800).
        let diagnostic = jsonFailure(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22])
        #expect(diagnostic?.message == "invalid UTF-8 byte 0xED in string")
    }

    @Test func invalidUTF8OutsideString() {
        let diagnostic = jsonFailure(bytes: [0x5B, 0xFF, 0x5D])
        #expect(diagnostic == Diagnostic(file: "t.json", line: 1, column: 2, "expected a JSON value, found byte 0xFF"))
    }

    @Test func columnsStartAfterByteOrderMark() {
        let diagnostic = jsonFailure(bytes: [0xEF, 0xBB, 0xBF] + Array("[x]".utf8))
        #expect(diagnostic == Diagnostic(file: "t.json", line: 1, column: 2, "expected a JSON value, found 'x'"))
    }

    @Test func deepArraysAreAnErrorNotACrash() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        expectError(text, line: 1, column: 513, "arrays and objects are nested more than 512 deep")
    }

    @Test func deepObjectsAreAnErrorNotACrash() {
        let text = String(repeating: #"{"a":"#, count: 10_000)
        let diagnostic = jsonFailure(text)
        #expect(diagnostic?.message == "arrays and objects are nested more than 512 deep")
    }

    @Test func oneLevelTooDeep() {
        let depth = maximumNestingDepth + 1
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(jsonFailure(text)?.message == "arrays and objects are nested more than 512 deep")
    }

    @Test func everyPrefixOfADocumentFailsCleanly() {
        let text = #"{"a": [1, -2.5e3, "x\u00e9\n", true, null], "b": {"c": false}}"#
        let bytes = Array(text.utf8)
        for length in 0..<bytes.count {
            #expect(jsonFailure(bytes: Array(bytes[..<length])) != nil, "prefix of \(length) bytes")
        }
        #expect(jsonFailure(bytes: bytes) == nil)
    }

    @Test func diagnosticDescription() {
        #expect(
            jsonFailure("[1 2]")?.description == "t.json:1:4: error: expected ',' or ']' after array element, found '2'"
        )
    }
}

@Suite struct JSONLocationTests {
    static let document = """
        {
          "boxOfficeResult": {
            "boxofficeType": "일별 박스오피스",
            "dailyBoxOfficeList": [
              {"rank": "1", "movieNm": "파묘"},
              {"rank": "2"},
              {"rank": "3"},
              {
                "rank": 4,
                "audiCnt": [10, 20]
              }
            ]
          }
        }
        """

    func location(_ path: [PathComponent]) -> (line: Int, column: Int)? {
        JSONReader.location(of: path, in: Data(Self.document.utf8))
    }

    @Test func locatesNestedValue() {
        let found = location([.key("boxOfficeResult"), .key("dailyBoxOfficeList"), .index(3), .key("rank")])
        #expect(found?.line == 9)
        #expect(found?.column == 17)
    }

    @Test func locatesValueAfterHangul() {
        let found = location([.key("boxOfficeResult"), .key("dailyBoxOfficeList"), .index(0), .key("movieNm")])
        #expect(found?.line == 5)
        #expect(found?.column == 32)
    }

    @Test func locatesContainers() {
        let list = location([.key("boxOfficeResult"), .key("dailyBoxOfficeList")])
        #expect(list?.line == 4 && list?.column == 27)
        let element = location([.key("boxOfficeResult"), .key("dailyBoxOfficeList"), .index(3)])
        #expect(element?.line == 8 && element?.column == 7)
        let number = location([
            .key("boxOfficeResult"), .key("dailyBoxOfficeList"), .index(3), .key("audiCnt"), .index(1)
        ])
        #expect(number?.line == 10 && number?.column == 25)
    }

    @Test func locatesRoot() {
        let root = JSONReader.location(of: [], in: Data("\n  [1]".utf8))
        #expect(root?.line == 2 && root?.column == 3)
    }

    @Test func missingPathIsNil() {
        #expect(location([.key("boxOfficeResult"), .key("dailyBoxOfficeList"), .index(4)]) == nil)
        #expect(location([.key("nope")]) == nil)
        #expect(location([.index(0)]) == nil)
        #expect(location([.key("boxOfficeResult"), .key("boxofficeType"), .key("x")]) == nil)
    }

    @Test func invalidDataIsNil() {
        #expect(JSONReader.location(of: [.index(0)], in: Data("[1, ]".utf8)) == nil)
    }
}
