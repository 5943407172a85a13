import Testing
import SiteRender
@testable import SiteBuild

@Suite struct BuiltinThemeTests {
    /// Every name the built-in theme prints, each part of a dotted one included, is one the page
    /// contexts provide (so the template check can hold user templates to the same list).
    @Test func builtInThemePassesItsOwnChecks() throws {
        let lib = try TemplateLibrary.load(directory: nil, files: [])
        let problems = lib.check(using: BuiltinTheme.templates.keys.sorted(), knownNames: PageContext.pageNames)
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func aTypoInADottedNameIsFound() throws {
        let lib = try TemplateLibrary.load(directory: nil, files: [])
        #expect(lib.check(using: ["list"], knownNames: PageContext.pageNames.subtracting(["isFirst"])).map(\.message)
                == ["unknown name 'pagination.isFirst': no page, item or note provides 'isFirst'"])
    }
}
