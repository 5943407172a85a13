import Mustache

/// While swift-mustache still renders (the differential tests and the benchmark compare it with
/// the compiled engine): a function is a swift-mustache lambda to it.
extension TemplateFunction: MustacheCustomRepresentation {
    public var representation: Any? { MustacheLambda { text in self.body(text) } }
}
