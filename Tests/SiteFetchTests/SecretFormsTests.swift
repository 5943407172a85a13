import Foundation
import Testing
import SiteCore
@testable import SiteFetch

/// Redaction: a secret is blanked out of a message in every form it can be printed in, and a
/// value no request can carry is refused before any request, by name.
@Suite struct SecretFormsTests {
    static let key = "SEKRETkey123"

    func request(secrets: [String]) -> PreparedRequest {
        PreparedRequest(url: "https://x/", shown: "https://x/", headers: [], source: "https://x/", secrets: secrets)
    }

    /// The ways a message can print `secret`: as it is, as Swift, JSON, Python, a URL or HTML do.
    func printed(_ secret: String) -> [String] {
        let swift = String(String(reflecting: secret).dropFirst().dropLast())
        let percent = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let json = String(decoding: try! JSONEncoder().encode(secret), as: UTF8.self).dropFirst().dropLast()
        return [
            secret, swift, percent, percent.lowercased(), String(json), Diagnostic.visible(secret),
            SecretForms.json(secret, asciiOnly: true), SecretForms.html(secret),
            SecretForms.json(secret, asciiOnly: true).replacingOccurrences(of: "/", with: "\\/"),
            "\"\(secret)\"", "'\(secret)'"
        ]
    }

    @Test func everyPrintedFormIsRedacted() {
        for secret in ["Bearer \(Self.key)\r", "\(Self.key)\n", "\(Self.key)\u{7F}", "pa/ss\"wörd&<\(Self.key)>\t"] {
            let r = request(secrets: [secret])
            for form in printed(secret) {
                let message = r.redact("cannot connect: HTTPClientError.invalidHeaderFieldValues([\(form)])")
                #expect(!message.contains(Self.key), "\(form.debugDescription) -> \(message)")
            }
        }
    }

    @Test func theClientsErrorIsRedacted() {
        // The message of issue 47: the client printed the header value escaped.
        let secret = "Bearer \(Self.key)\r"
        let error = "HTTPClientError.invalidHeaderFieldValues(\(String(reflecting: [secret])))"
        #expect(error.contains("\\r"))
        #expect(request(secrets: [secret]).redact(error) == "HTTPClientError.invalidHeaderFieldValues([\"***\"])")
        // Swift writes NUL as `\0`, as no other escaping does.
        let nul = "ab\0\(Self.key)"
        #expect(request(secrets: [nul]).redact(String(reflecting: nul)) == "\"***\"")
    }

    @Test func anEscapingNotListedLeavesNoLongRun() {
        // Runs between the characters escapes rewrite are forms of their own: `\x0d` is no
        // escaping SecretForms knows, yet the key does not show.
        let r = request(secrets: ["\(Self.key)\r\(Self.key.uppercased())"])
        #expect(r.redact("got \(Self.key)\\x0d\(Self.key.uppercased())") == "got ***\\x0d***")
    }

    @Test func plainSecretsKeepTheirSingleForm() {
        let r = request(secrets: ["kobis-0123456789"])
        #expect(SecretForms.of("kobis-0123456789", shortest: 4) == ["kobis-0123456789"])
        #expect(r.redact("key kobis-0123456789 is not allowed") == "key *** is not allowed")
        // Short secrets are not searched for in free text; the words around a secret stay.
        #expect(request(secrets: ["abc"]).redact("abc abcd") == "abc abcd")
        #expect(request(secrets: ["Bearer \(Self.key)"]).redact("Bearer token invalid") == "Bearer token invalid")
    }

    @Test func encodings() {
        #expect(SecretForms.lowerHex("a%0Db%7F") == "a%0db%7f")
        #expect(SecretForms.json("a\"\\\r\u{7F}é", asciiOnly: false) == "a\\\"\\\\\\r\\u007fé")
        #expect(SecretForms.json("é😀", asciiOnly: true) == "\\u00e9\\ud83d\\ude00")
        #expect(SecretForms.html("<a&'\">") == "&lt;a&amp;&#39;&quot;&gt;")
        #expect(SecretForms.runs("ab\rcd/ef") == ["ab", "cd", "ef"])
        #expect(SecretForms.runs("abcdef").isEmpty)
    }

    @Test func answersEchoingAnEscapedSecretAreFound() {
        let secret = "sk/\(Self.key) +ü&"
        let forms = request(secrets: [secret]).forms(shortest: FetchSession.shortestSecretSearched)
        let echoed = String(decoding: try! JSONSerialization.data(withJSONObject: ["key": secret]), as: UTF8.self)
        #expect(forms.contains { echoed.contains($0) })
    }
}

@Suite struct ControlCharacterTests {
    let context = FetchContext(
        environment: [
            "KEY": "SEKRETkey123\r", "LF": "SEKRET\nkey123", "DEL": "\u{7F}SEKRETkey123", "OK": "SEKRETkey123"
        ],
        today: CalendarDate(year: 2025, month: 1, day: 1))
    let header = SourceLocation(file: "site.yml", line: 9, column: 40)

    func source(url: String = "https://x/?k={env.OK}", header value: String? = nil) throws -> RemoteSource {
        let headers = try value.map {
            [RemoteSource.Header(name: "Authorization", value: try URLTemplate($0), at: header)]
        }
        return RemoteSource(
            url: try URLTemplate(url), headers: headers ?? [], at: SourceLocation(file: "site.yml", line: 6))
    }

    func problem(_ source: RemoteSource) -> FetchProblem? {
        do throws(FetchProblem) {
            _ = try source.prepare(context)
            return nil
        } catch { return error }
    }

    @Test func aHeaderValueIsRefusedByNameAtItsLine() throws {
        let p = try #require(problem(try source(header: "Bearer {env.KEY}")))
        #expect(
            p.message
                == "header 'Authorization': {env.KEY} ends with a carriage return (U+000D), which no key or header "
                + "holds (a .env file with CRLF line endings?): remove it (the value is not shown)")
        #expect(p.at == header)
        #expect(problem(try source(header: "Bearer {env.LF}"))?.message.contains("holds a line feed (U+000A)") == true)
        #expect(problem(try source(header: "{env.DEL}"))?.message.contains("starts with a DEL (U+007F)") == true)
        #expect(problem(try source(header: "Bearer {env.OK}")) == nil)
    }

    @Test func aURLsVariableIsRefusedToo() throws {
        let p = try #require(problem(try source(url: "https://x/?k={env.KEY}")))
        #expect(p.message.hasPrefix("{env.KEY} ends with a carriage return (U+000D)"))
        #expect(p.at == nil)  // the caller locates it at `data:`
    }

    @Test func aFieldInAHeaderIsRefusedButEncodedInAURL() throws {
        let join = RemoteSource(
            url: try URLTemplate("https://x/{id}"),
            headers: [RemoteSource.Header(name: "X-Id", value: try URLTemplate("{id}"))], at: header)
        do throws(FetchProblem) {
            _ = try join.prepare(context, fields: ["id": .string("a\rb")])
            Issue.record("a control character in a header was accepted")
        } catch {
            #expect(
                error.message
                    == "header 'X-Id': the item's field 'id' holds a carriage return (U+000D), which a header cannot carry"
            )
        }
        let urlOnly = RemoteSource(url: try URLTemplate("https://x/{id}"), at: header)
        #expect(try urlOnly.prepare(context, fields: ["id": .string("a\rb")]).url == "https://x/a%0Db")
    }

    @Test func words() {
        #expect(RemoteSource.controlCharacter(in: "abc") == nil)
        #expect(RemoteSource.controlCharacter(in: "a\tb") == "holds a tab (U+0009)")
        #expect(RemoteSource.controlCharacter(in: "ab\u{1B}") == "ends with a control character (U+001B)")
    }
}
