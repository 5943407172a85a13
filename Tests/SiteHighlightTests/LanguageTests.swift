import SiteMarkdown
import Testing
@testable import SiteHighlight

/// A block in `language` as `CodeHighlighter` renders it.
func highlighted(_ language: String, _ code: String, info: String? = nil) -> String {
    CodeHighlighter().html(for: FencedCode(info: info ?? language, language: language, code: code))
}

/// `<pre class="code" tabindex="0"><code class="language-x">…</code></pre>` around `inner`.
func block(_ language: String, _ inner: String, numbered: Bool = false) -> String {
    "<pre class=\"code\(numbered ? " numbered" : "")\" tabindex=\"0\"><code class=\"language-\(language)\">\(inner)</code></pre>"
}

/// A token's span.
func t(_ cls: String, _ text: String) -> String { "<span class=\"\(cls)\">\(text)</span>" }

/// Each language the issue names, on a small sample: the tokens KSyntaxHighlighting 5.103's
/// definitions find, with pandoc's class names.
@Suite struct LanguageTests {
    @Test func theLibraryIsHere() {
        #expect(HighlightLibrary.openFailure == nil)
        #expect(RepositoryPool.shared.failure == nil)
    }

    @Test func swift() {
        #expect(
            highlighted("swift", "let n = 42 // answer\n")
                == block(
                    "swift",
                    "\(t("kw", "let")) \(t("va", "n")) \(t("op", "=")) \(t("dv", "42")) \(t("co", "// answer"))\n"))
    }

    @Test func kotlin() {
        #expect(
            highlighted("kotlin", "val s: String = \"hi\"\n")
                == block(
                    "kotlin",
                    "\(t("kw", "val")) \(t("va", "s"))\(t("op", ":")) \(t("kw", "String")) \(t("op", "=")) \(t("st", "&quot;hi&quot;"))\n"
                ))
    }

    @Test func objectiveC() {
        #expect(
            highlighted("objc", "#import <Foundation/Foundation.h>\n@interface A : NSObject\n@end\n")
                == block(
                    "objc",
                    "\(t("pp", "#import "))\(t("im", "&lt;Foundation/Foundation.h&gt;"))\n\(t("kw", "@interface")) A \(t("op", ":")) NSObject\n\(t("kw", "@end"))\n"
                ))
    }

    @Test func javaScript() {
        #expect(
            highlighted("javascript", "const f = (x) => x * 2; // double\n")
                == block(
                    "javascript",
                    "\(t("kw", "const")) f \(t("op", "=")) (x) \(t("kw", "=&gt;")) x \(t("op", "*")) \(t("dv", "2"))\(t("op", ";")) \(t("co", "// double"))\n"
                ))
    }

    @Test func typeScript() {
        #expect(
            highlighted("typescript", "let n: number = 0x1F;\n")
                == block(
                    "typescript",
                    "\(t("kw", "let")) n\(t("op", ":")) \(t("dt", "number")) \(t("op", "=")) \(t("bn", "0x1F"))\(t("op", ";"))\n"
                ))
    }

    @Test func python() {
        #expect(
            highlighted("python", "def f(x):\n    return 'a' if x else None\n")
                == block(
                    "python",
                    "\(t("kw", "def")) f(x):\n    \(t("cf", "return")) \(t("st", "'a'")) \(t("cf", "if")) x \(t("cf", "else")) \(t("va", "None"))\n"
                ))
    }

    @Test func rust() {
        #expect(
            highlighted("rust", "fn main() { let v: Vec<u8> = vec![1]; }\n")
                == block(
                    "rust",
                    "\(t("kw", "fn")) main() \(t("op", "{")) \(t("kw", "let")) v\(t("op", ":")) \(t("dt", "Vec"))\(t("op", "&lt;"))\(t("dt", "u8"))\(t("op", "&gt;")) \(t("op", "=")) \(t("pp", "vec!"))[\(t("dv", "1"))]\(t("op", ";")) \(t("op", "}"))\n"
                ))
    }

    @Test func go() {
        #expect(
            highlighted("go", "func main() { fmt.Println(\"hi\") }\n")
                == block(
                    "go",
                    "\(t("kw", "func")) main\(t("op", "()")) \(t("op", "{")) fmt\(t("op", "."))Println\(t("op", "("))\(t("st", "&quot;hi&quot;"))\(t("op", ")")) \(t("op", "}"))\n"
                ))
    }

    @Test func cAndCpp() {
        #expect(
            highlighted("c", "#include <stdio.h>\nint main(void) { return 0; }\n")
                == block(
                    "c",
                    "\(t("pp", "#include "))\(t("im", "&lt;stdio.h&gt;"))\n\(t("dt", "int")) main\(t("op", "("))\(t("dt", "void"))\(t("op", ")")) \(t("op", "{")) \(t("cf", "return")) \(t("dv", "0"))\(t("op", ";")) \(t("op", "}"))\n"
                ))
        #expect(
            highlighted("cpp", "std::vector<int> v{1, 2};\n")
                == block(
                    "cpp",
                    "\(t("bu", "std::vector"))\(t("op", "&lt;"))\(t("dt", "int"))\(t("op", "&gt;")) v\(t("op", "{"))\(t("dv", "1"))\(t("op", ",")) \(t("dv", "2"))\(t("op", "};"))\n"
                ))
    }

    @Test func java() {
        #expect(
            highlighted("java", "public class A { int x = 1; }\n")
                == block(
                    "java",
                    "\(t("kw", "public")) \(t("kw", "class")) A \(t("op", "{")) \(t("dt", "int")) x \(t("op", "=")) \(t("dv", "1"))\(t("op", ";")) \(t("op", "}"))\n"
                ))
    }

    @Test func ruby() {
        #expect(
            highlighted("ruby", "def hi = puts(\"hi\") # greet\n")
                == block(
                    "ruby",
                    "\(t("cf", "def")) hi \(t("kw", "=")) \(t("fu", "puts"))(\(t("st", "&quot;hi&quot;"))) \(t("co", "# greet"))\n"
                ))
    }

    @Test func sql() {
        #expect(
            highlighted("sql", "SELECT name FROM users WHERE id = 1;\n")
                == block(
                    "sql",
                    "\(t("kw", "SELECT")) name \(t("kw", "FROM")) users \(t("kw", "WHERE")) \(t("kw", "id")) \(t("op", "=")) \(t("dv", "1"));\n"
                ))
    }

    @Test func json() {
        #expect(
            highlighted("json", "{\"a\": [1, true, null]}\n")
                == block(
                    "json",
                    "\(t("fu", "{"))\(t("dt", "&quot;a&quot;"))\(t("fu", ":")) \(t("ot", "["))\(t("dv", "1"))\(t("ot", ",")) \(t("kw", "true"))\(t("ot", ",")) \(t("kw", "null"))\(t("ot", "]"))\(t("fu", "}"))\n"
                ))
    }

    @Test func yaml() {
        #expect(
            highlighted("yaml", "title: Hi # comment\n")
                == block("yaml", "\(t("fu", "title"))\(t("kw", ":"))\(t("at", " Hi"))\(t("co", " # comment"))\n"))
    }

    @Test func toml() {
        #expect(
            highlighted("toml", "[server]\nport = 8080\n")
                == block(
                    "toml",
                    "\(t("kw", "["))\(t("dt", "server"))\(t("kw", "]"))\n\(t("dt", "port")) \(t("op", "=")) \(t("dv", "8080"))\n"
                ))
    }

    @Test func bash() {
        #expect(
            highlighted("bash", "for f in *.md; do echo \"$f\"; done\n")
                == block(
                    "bash",
                    "\(t("cf", "for")) f \(t("kw", "in")) \(t("pp", "*")).md\(t("kw", ";")) \(t("cf", "do")) \(t("bu", "echo")) \(t("st", "&quot;"))\(t("va", "$f"))\(t("st", "&quot;"))\(t("kw", ";")) \(t("cf", "done"))\n"
                ))
    }

    @Test func diff() {
        #expect(
            highlighted("diff", "--- a\n+++ b\n-old\n+new\n")
                == block("diff", "\(t("kw", "--- a"))\n\(t("dt", "+++ b"))\n\(t("st", "-old"))\n\(t("va", "+new"))\n"))
    }

    @Test func html() {
        #expect(
            highlighted("html", "<p class=\"x\">Hi &amp; bye</p>\n")
                == block(
                    "html",
                    "\(t("kw", "&lt;p"))\(t("ot", " class="))\(t("st", "&quot;x&quot;"))\(t("kw", "&gt;"))Hi \(t("dv", "&amp;amp;")) bye\(t("kw", "&lt;/p&gt;"))\n"
                ))
    }

    @Test func css() {
        #expect(
            highlighted("css", "pre.code { color: #fff; }\n")
                == block("css", "pre\(t("fu", ".code")) { \(t("kw", "color")): \(t("cn", "#fff"))\(t("op", ";")) }\n"))
    }

    @Test func dockerfile() {
        #expect(
            highlighted("dockerfile", "FROM debian:12\nRUN apt-get update\n")
                == block("dockerfile", "\(t("kw", "FROM")) debian:12\n\(t("kw", "RUN")) \(t("ex", "apt-get")) update\n")
        )
    }

    /// The short names resolve as their languages do.
    @Test(arguments: [
        ("sh", "bash"), ("zsh", "zsh"), ("js", "javascript"), ("ts", "typescript"), ("yml", "yaml"),
        ("objc", "objective-c"), ("kt", "kotlin"), ("py", "python"), ("Swift", "swift"), ("rs", "rust"),
        ("OBJC", "objective-c")
    ])
    func aliases(alias: String, language: String) {
        let code = "x = 1 # a\n"
        let expected = highlighted(language, code).replacingOccurrences(
            of: "language-\(language)\"", with: "language-\(alias)\"")
        #expect(highlighted(alias, code) == expected)
        #expect(highlighted(alias, code).contains("<span"))
    }

    @Test func anUnknownLanguageIsEscapedText() {
        let block = FencedCode(info: "klingon", language: "klingon", code: "<b>&\"x\"</b>\n")
        #expect(CodeHighlighter().html(for: block) == PlainCodeBlocks().html(for: block))
        #expect(
            CodeHighlighter().html(for: block)
                == "<pre class=\"code\" tabindex=\"0\"><code class=\"language-klingon\">&lt;b&gt;&amp;&quot;x&quot;&lt;/b&gt;\n</code></pre>"
        )
        // A word longer than any language is not looked up.
        let long = String(repeating: "s", count: Languages.maximumLength + 1)
        #expect(Languages.definition(for: long) == nil)
        #expect(Languages.definition(for: "swift") == "Swift")
    }
}
