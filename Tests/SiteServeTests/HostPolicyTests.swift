import Testing
@testable import SiteServe

/// Which Host values the preview answers (DNS rebinding needs a name the user did not allow).
@Suite struct HostPolicyTests {
    let policy = HostPolicy(allowed: ["preview.lan", "Mixed.Case.Lan."])

    @Test(arguments: [
        "localhost", "localhost:8000", "LOCALHOST", "localhost.", "app.localhost", "a.b.localhost:1",
        "127.0.0.1", "127.0.0.1:8000", "10.0.0.7", "[::1]", "[::1]:8000", "[fe80::1]", "[::ffff:127.0.0.1]:80",
        "preview.lan", "PREVIEW.LAN:8000", "preview.lan.", "mixed.case.lan"
    ])
    func admitted(_ host: String) {
        #expect(policy.admits(host), "\(host)")
    }

    @Test(arguments: [
        "", "rebind.example", "rebind.example:8000", "evillocalhost", "localhost.evil.example",
        "app.localhost.evil.example", "127.0.0.1.nip.io", "999.1.1.1", "1.2.3", "[::1", "[::1]x", "[::1]:x",
        "localhost:80:80", "localhost:abc", "[preview.lan]", "sub.preview.lan", "preview.lan.evil.example"
    ])
    func refused(_ host: String) {
        #expect(!policy.admits(host), "\(host)")
    }

    @Test func theRefusalNamesTheOptionOnOneLine() {
        let line = HostPolicy.refusal("Rebind.Example:8000")
        #expect(line.contains("--allowed-host rebind.example"))
        #expect(line.filter { $0 == "\n" }.count == 1 && line.hasSuffix("\n"))
        #expect(!HostPolicy.refusal("a\r\nSet-Cookie: x").contains("\r"), "control characters are not echoed")
    }
}
