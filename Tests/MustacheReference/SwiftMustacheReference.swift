import Foundation
import Mustache
import SiteRender

/// swift-mustache as sitegen used it before its own engine (every template after a pragma that
/// escapes with `SafeHTML.escape`; the output neutralised): the reference the differential tests
/// and `sitegen-bench templates` compare the compiled engine with.
public struct SwiftMustacheReference {
    let library: MustacheLibrary

    static let pragma = "{{% CONTENT_TYPE: SITEGEN_HTML }}\n"

    struct ContentType: MustacheContentType {
        func escapeText(_ text: String) -> String { SafeHTML.escape(text) }
    }

    static let registered: Bool = {
        MustacheContentTypes.register(ContentType(), named: "SITEGEN_HTML")
        return true
    }()

    /// Where swift-mustache stopped on a template it cannot read: line (of the template's own
    /// text), column and sitegen's old wording.
    public struct SyntaxError: Error, Equatable {
        public var line: Int, column: Int, message: String
    }

    public init(_ texts: [String: String]) throws(SyntaxError) {
        _ = Self.registered
        var library = MustacheLibrary()
        for (name, text) in texts {
            do {
                library.register(try MustacheTemplate(string: Self.pragma + text), named: name)
            } catch let e as MustacheTemplate.ParserError {
                throw SyntaxError(
                    line: max(1, e.context.lineNumber - 1), column: e.context.columnNumber,
                    message: Self.describe(e.error))
            } catch {
                throw SyntaxError(line: 0, column: 0, message: "\(error)")
            }
        }
        self.library = library
    }

    public func render(_ name: String, _ context: [String: Any]) -> String {
        SafeHTML.neutralise(library.render(context, withTemplate: name) ?? "")
    }

    static func describe(_ error: Error) -> String {
        guard let e = error as? MustacheTemplate.Error else {
            return "\(error)" == "overflow" ? "the text ends inside a tag (missing }})" : "\(error)"
        }
        switch e {
        case .sectionCloseNameIncorrect: return "a closing tag does not match the open section"
        case .unfinishedName: return "a tag is not closed with }}"
        case .expectedSectionEnd: return "a section is not closed (missing {{/name}})"
        case .invalidSetDelimiter: return "invalid set-delimiter tag"
        case .transformAppliedToInheritanceSection: return "a transform cannot apply to an inheritance section"
        case .illegalTokenInsideInheritSection: return "only blocks ({{$name}}) may appear inside a parent ({{<name}})"
        case .textInsideInheritSection: return "only blocks ({{$name}}) may appear inside a parent ({{<name}})"
        case .invalidConfigVariableSyntax, .unrecognisedConfigVariable: return "invalid pragma"
        @unknown default: return "\(e)"
        }
    }
}

/// A sitegen function is a swift-mustache lambda to swift-mustache.
extension TemplateFunction: MustacheCustomRepresentation {
    public var representation: Any? { MustacheLambda { text in self.body(text) } }
}
