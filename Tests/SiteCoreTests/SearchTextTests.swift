import Foundation
import PropertyBased
import Testing
@testable import SiteCore

/// `SearchText.fold`: the normal form the search index and the browser's query are compared in.
@Suite struct SearchTextTests {
    /// The scalars of a folded text (String `==` compares by canonical equivalence; these
    /// tests are about the exact scalars written to the index).
    static func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

    @Test func accentsAreDropped() {
        #expect(SearchText.fold("Café Lumière") == "cafe lumiere")
        #expect(Self.scalars(SearchText.fold("Café Lumière")) == Self.scalars("cafe lumiere"))
        // Already decomposed input (e + U+0301) folds the same way.
        #expect(Self.scalars(SearchText.fold("Cafe\u{301}")) == Self.scalars("cafe"))
        #expect(SearchText.fold("Ångström naïve façade") == "angstrom naive facade")
    }

    @Test func caseIsLowered() {
        #expect(SearchText.fold("HeLLo World") == "hello world")
        #expect(SearchText.fold("ÉCOLE") == "ecole")
        #expect(SearchText.fold("ΑΒΓ") == "αβγ")
    }

    @Test func compatibilityFormsBecomePlain() {
        #expect(Self.scalars(SearchText.fold("ＡＢＣ")) == Self.scalars("abc"))
        #expect(Self.scalars(SearchText.fold("ﬁ")) == Self.scalars("fi"))
        #expect(Self.scalars(SearchText.fold("ﬃnal")) == Self.scalars("ffinal"))
        // Roman numeral twelve is "XII" under NFKD.
        #expect(Self.scalars(SearchText.fold("Ⅻ")) == Self.scalars("xii"))
    }

    @Test func hangulSyllablesSplitIntoJamoSoThatAPrefixMatches() {
        let ba = Self.scalars(SearchText.fold("바"))
        let baram = Self.scalars(SearchText.fold("바람"))
        let bak = Self.scalars(SearchText.fold("박"))
        // 바 = ᄇ (U+1107) + ᅡ (U+1161); 람 = ᄅ (U+1105) + ᅡ + ᆷ (U+11B7); 박 = ᄇ + ᅡ + ᆨ (U+11A8).
        #expect(ba == [0x1107, 0x1161])
        #expect(baram == [0x1107, 0x1161, 0x1105, 0x1161, 0x11B7])
        #expect(bak == [0x1107, 0x1161, 0x11A8])
        #expect(baram.starts(with: ba))
        #expect(bak.starts(with: ba))
        // A syllable is not a prefix of a different one.
        #expect(!baram.starts(with: Self.scalars(SearchText.fold("박"))))
        #expect(baram.allSatisfy { (0x1100...0x11FF).contains($0) })
    }

    @Test func whitespaceIsCollapsedAndTrimmed() {
        #expect(SearchText.fold("  a \t b\n") == "a b")
        #expect(SearchText.fold("a\n\n\nb") == "a b")
        // No-break and ideographic spaces are whitespace too.
        #expect(SearchText.fold("a\u{00A0}b\u{3000}c") == "a b c")
        #expect(SearchText.fold(" \t\n ") == "")
        #expect(SearchText.fold("") == "")
    }

    @Test func greekFinalSigmaFoldsToSigma() {
        let upper = SearchText.fold("ΟΔΟΣ")
        let lower = SearchText.fold("οδος")
        #expect(Self.scalars(upper) == Self.scalars(lower))
        #expect(Self.scalars(lower) == [0x03BF, 0x03B4, 0x03BF, 0x03C3])
        #expect(!lower.unicodeScalars.contains("\u{03C2}"))
        // Accented Greek: tonos is a combining mark after NFKD.
        #expect(Self.scalars(SearchText.fold("Ὀδός")) == [0x03BF, 0x03B4, 0x03BF, 0x03C3])
    }

    @Test func marksAloneVanish() {
        // Combining marks with no base letter, and an enclosing mark.
        #expect(SearchText.fold("\u{301}\u{308}") == "")
        #expect(SearchText.fold("a\u{20DD}") == "a")
    }

    // MARK: - Properties

    /// Scalars worth hitting often: accents, compatibility forms, Hangul, Greek sigma, spaces, marks.
    static let interesting: [Unicode.Scalar] = [
        "a", "Z", "É", "é", "\u{301}", "\u{308}", "\u{20DD}", "Ａ", "ﬁ", "Ⅻ", "바", "박", "\u{1107}", "\u{11A8}", "Σ", "ς",
        "σ",
        "İ", "ß", "ẞ", "Ǆ", "Ω", "K", "Å", " ", "\t", "\n", "\u{00A0}", "\u{3000}", "\u{2028}", "①", "㎏", "ｶ", "ﾞ"
    ]

    /// Texts mixing the scalars above with any scalar of planes 0–2.
    static let texts = Gen.int(in: 0...0x3FFFF)
        .map { v -> Unicode.Scalar in
            if v >= 0x30000 { return interesting[v % interesting.count] }
            return Unicode.Scalar(UInt32(v)) ?? "x"
        }
        .array(of: 0...40)
        .map { String(String.UnicodeScalarView($0)) }

    @Test func foldIsIdempotent() async {
        await propertyCheck(input: Self.texts) { text in
            let once = SearchText.fold(text)
            let twice = SearchText.fold(once)
            let onceScalars = Self.scalars(once)
            let twiceScalars = Self.scalars(twice)
            #expect(
                twiceScalars == onceScalars,
                "fold is not idempotent on \(Self.scalars(text).map { String($0, radix: 16) })")
        }
    }

    @Test func foldedTextHasSingleInnerSpacesNoMarksAndNoFinalSigma() async {
        await propertyCheck(input: Self.texts) { text in
            let folded = Array(SearchText.fold(text).unicodeScalars)
            let hex = Self.scalars(text).map { String($0, radix: 16) }
            let marks = folded.filter {
                [.nonspacingMark, .spacingMark, .enclosingMark].contains($0.properties.generalCategory)
            }
            #expect(marks.isEmpty, "marks left in fold of \(hex)")
            let whitespace = folded.filter { $0.properties.isWhitespace }
            let onlyPlainSpaces = whitespace.allSatisfy { $0 == " " }
            #expect(onlyPlainSpaces, "whitespace other than U+0020 left in fold of \(hex)")
            let leading = folded.first == " "
            let trailing = folded.last == " "
            #expect(!leading, "leading space in fold of \(hex)")
            #expect(!trailing, "trailing space in fold of \(hex)")
            let doubled = zip(folded, folded.dropFirst()).contains { $0 == " " && $1 == " " }
            #expect(!doubled, "two spaces in a row in fold of \(hex)")
            let finalSigma = folded.contains("\u{03C2}")
            #expect(!finalSigma, "final sigma left in fold of \(hex)")
        }
    }

    // MARK: - The browser's copy

    @Test func browserFoldHasTheSameSteps() {
        let js = SearchText.browserFold
        #expect(js.hasPrefix("function fold(t)"))
        #expect(js.contains(".normalize('NFKD')"))
        #expect(js.contains(".replace(/\\p{M}/gu,'')"))
        #expect(js.contains(".toLowerCase()"))
        #expect(js.contains(".replace(/ς/g,'σ')"))
        #expect(js.contains(".replace(/[\\s\\u0085]+/g,' ')"))
        #expect(js.contains(".trim()"))
        // Marks are dropped before lowering and the whitespace step comes after NFKD.
        let nfkd = js.range(of: "NFKD")?.lowerBound
        let marks = js.range(of: "\\p{M}")?.lowerBound
        let lower = js.range(of: "toLowerCase")?.lowerBound
        let spaces = js.range(of: "[\\s\\u0085]+")?.lowerBound
        #expect(nfkd != nil && marks != nil && lower != nil && spaces != nil)
        if let nfkd, let marks, let lower, let spaces {
            #expect(nfkd < marks)
            #expect(marks < lower)
            #expect(nfkd < spaces)
        }
    }

    /// `node` on the PATH, if any.
    static let node: URL? = {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let url = URL(fileURLWithPath: String(dir)).appendingPathComponent("node")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }()

    /// Each text folded by `SearchText.browserFold` in node, as scalar values; nil (and a
    /// recorded failure) without node.
    static func foldInNode(_ texts: [String]) throws -> [[UInt32]]? {
        guard let node else {
            Issue.record(
                "node is not on PATH (scripts/setup.sh test installs nodejs): the browser's fold cannot be compared")
            return nil
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sitegen-fold-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.json")
        try JSONSerialization.data(withJSONObject: texts).write(to: input)
        let script = dir.appendingPathComponent("fold.js")
        try """
        \(SearchText.browserFold)
        const texts = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));
        process.stdout.write(JSON.stringify(texts.map(t => Array.from(fold(t), c => c.codePointAt(0)))));
        """.write(to: script, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = node
        p.arguments = [script.path, input.path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown) }
        let decoded = try #require(try JSONSerialization.jsonObject(with: data) as? [[Int]])
        return decoded.map { $0.map(UInt32.init) }
    }

    /// Run only where `node` is installed; elsewhere the JavaScript is not run.
    @Test func browserFoldAgreesWithFoldInNode() throws {
        let samples = [
            "Café Lumière", "ＡＢＣ", "ﬁ", "바", "바람", "박", "ΟΔΟΣ", "οδος", "Ὀδός", "  a \t b\n", "HeLLo World", "Ⅻ",
            "İstanbul", "Ǆemal", "a\u{00A0}b\u{3000}c", "x\u{2028}y", "①②", "ｶﾞｷﾞ", "naïve — “quoted” <b>&</b>", ""
        ]
        guard let js = try Self.foldInNode(samples) else { return }
        #expect(js.count == samples.count)
        for (text, fromNode) in zip(samples, js) {
            let swift = Self.scalars(SearchText.fold(text))
            #expect(swift == fromNode, "\(text.debugDescription): Swift \(swift), node \(fromNode)")
        }
    }

    /// 2,000 texts from a fixed seed (the scalars above and any of planes 0–2, NEL and BOM left
    /// to the test below), folded in one node run. Only scalars assigned by Unicode 15.0: node's
    /// ICU knows newer characters (U+1CCD9 → "d" in Unicode 16) that Foundation's does not.
    @Test func browserFoldAgreesWithFoldOnManyTexts() throws {
        var rng = SplitMix64(seed: 0x5EA7C4)
        var samples: [String] = []
        for _ in 0..<2000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int(rng.next() % 12) {
                let v = UInt32(rng.next() % 0x40000)
                let u = v >= 0x30000 ? Self.interesting[Int(v) % Self.interesting.count] : (Unicode.Scalar(v) ?? "x")
                guard let age = u.properties.age, age.major < 15 || (age.major == 15 && age.minor == 0) else {
                    continue
                }
                if u != "\u{0085}" && u != "\u{FEFF}" { text.append(u) }
            }
            samples.append(String(text))
        }
        guard let js = try Self.foldInNode(samples) else { return }
        var disagreements: [String] = []
        for (text, fromNode) in zip(samples, js) where Self.scalars(SearchText.fold(text)) != fromNode {
            disagreements.append(
                "\(Self.scalars(text).map { String($0, radix: 16) }): Swift \(Self.scalars(SearchText.fold(text)).map { String($0, radix: 16) }), node \(fromNode.map { String($0, radix: 16) })"
            )
        }
        #expect(
            disagreements.isEmpty,
            "\(disagreements.count) of \(samples.count) differ:\n\(disagreements.prefix(20).joined(separator: "\n"))")
    }

    /// Swift's `isWhitespace` (Unicode White_Space) includes NEL (U+0085) but not U+FEFF;
    /// JavaScript's `\s` is the other way round. Both folds make each a space (NEL is a line
    /// break; the property test found it left in folded text).
    @Test func browserFoldAgreesWithFoldOnNELAndBOM() throws {
        let samples = ["a\u{0085}b", "a\u{FEFF}b"]
        #expect(samples.map { Self.scalars(SearchText.fold($0)) } == [[0x61, 0x20, 0x62], [0x61, 0x20, 0x62]])
        guard let js = try Self.foldInNode(samples) else { return }
        for (text, fromNode) in zip(samples, js) {
            let swift = Self.scalars(SearchText.fold(text))
            #expect(swift == fromNode, "\(text.debugDescription): Swift \(swift), node \(fromNode)")
        }
    }
}
