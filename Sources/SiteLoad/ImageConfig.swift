import SiteCore
import Yams

/// How an image field's files are published: resized to `widths` in `formats` (nil picks the
/// defaults the build derives from the layout and the source's format).
public struct ImageOutput: Sendable, Hashable {
    /// Output widths in pixels; nil: the card widths at 1× and 2× (card image) or 760 and 1520.
    public var widths: [Int]?
    /// Format names, most preferred first, the last a fallback (`jpeg` or `png`); nil: AVIF,
    /// WebP and the source's own family (PNG for PNG, JPEG otherwise).
    public var formats: [String]?
    /// Encoder quality 1–100.
    public var quality: Int = ImageOutput.defaultQuality
    /// The `sizes` attribute; nil: computed from the layout.
    public var sizes: String?

    public static let defaultQuality = 70

    public init(
        widths: [Int]? = nil, formats: [String]? = nil, quality: Int = ImageOutput.defaultQuality, sizes: String? = nil
    ) {
        self.widths = widths
        self.formats = formats
        self.quality = quality
        self.sizes = sizes
    }
    public static let formatNames: Set<String> = ["avif", "webp", "jpeg", "png"]
}

extension ImageRule {
    /// Sources above this many pixels are refused before decoding (a decompression bomb).
    public static let defaultMaxPixels = 100_000_000

    /// The output settings of `field`: its own entry under `fields`, else the collection's.
    public func output(_ field: String) -> ImageOutput { perField[field] ?? output }
}

extension SiteConfig {
    /// `images:` of a collection. `fields` is a name, a list, or a mapping of names to their own
    /// `widths`/`formats`/`quality`/`sizes` (each falling back to the collection's).
    static func parseImages(_ images: ConfigNode, problems: inout [Diagnostic]) -> ImageRule {
        func attempt<T>(_ body: () throws(Diagnostic) -> T) -> T? {
            do { return try body() } catch { problems.append(error); return nil }
        }
        let start = problems.count
        var fields: [String] = []
        var perFieldNodes: [(String, Node)] = []
        if let n = images.raw("fields"), case .mapping = n {
            perFieldNodes = attempt { () throws(Diagnostic) in try images.entries("fields") } ?? []
            fields = perFieldNodes.map(\.0)
        } else {
            fields = (attempt { () throws(Diagnostic) in try images.strings("fields") } ?? nil) ?? []
        }
        if fields.isEmpty {
            problems.append(images.error(images.node, "'\(images.key("fields"))' must name the image field(s)"))
        }
        let output = parseOutput(images, base: ImageOutput(), problems: &problems)
        var perField: [String: ImageOutput] = [:]
        for (name, node) in perFieldNodes {
            if case .scalar(let s) = node, s.string.isEmpty || node.tag.rawValue == Tag.Name.null.rawValue { continue }
            guard
                let f = attempt({ () throws(Diagnostic) in
                    try ConfigNode(node, file: images.file, path: images.key("fields.\(name)"))
                })
            else { continue }
            let start = problems.count
            perField[name] = parseOutput(f, base: output, problems: &problems)
            f.reportUnknownKeys(into: &problems, at: start)
        }
        var maxPixels = ImageRule.defaultMaxPixels
        if let m = attempt({ () throws(Diagnostic) in try images.int("maxPixels") }), let m {
            if m < 1 {
                problems.append(
                    images.error(
                        images.raw("maxPixels") ?? images.node,
                        "'\(images.key("maxPixels"))' must be at least 1"))
            } else {
                maxPixels = m
            }
        }
        var keep = false
        if let m = attempt({ () throws(Diagnostic) in try images.string("metadata") }), let m {
            switch m {
            case "strip": keep = false
            case "keep": keep = true
            default:
                problems.append(
                    images.error(
                        images.raw("metadata") ?? images.node,
                        "'\(images.key("metadata"))' must be 'strip' (the default: no GPS or"
                            + " camera data published) or 'keep', found '\(m)'"))
            }
        }
        let rule = ImageRule(
            fields: fields,
            external: (attempt { () throws(Diagnostic) in try images.bool("external") } ?? nil)
                ?? false,
            widthField: attempt { () throws(Diagnostic) in try images.string("width") } ?? nil,
            heightField: attempt { () throws(Diagnostic) in try images.string("height") } ?? nil,
            resize: (attempt { () throws(Diagnostic) in try images.bool("resize") } ?? nil) ?? true,
            output: output, perField: perField, keepMetadata: keep, maxPixels: maxPixels)
        images.reportUnknownKeys(into: &problems, at: start)
        return rule
    }

    /// `widths`, `formats`, `quality` and `sizes` of `node`, each defaulting to `base`'s.
    static func parseOutput(_ node: ConfigNode, base: ImageOutput, problems: inout [Diagnostic]) -> ImageOutput {
        var out = base
        if let w = node.raw("widths") {
            var widths: [Int] = []
            let items: [Node]
            switch w {
            case .sequence(let s): items = Array(s)
            default: items = [w]
            }
            for item in items {
                guard case .scalar(let s) = item, let v = Int(s.string), (1...10_000).contains(v) else {
                    problems.append(
                        node.error(
                            item,
                            "'\(node.key("widths"))' must be a list of widths in pixels from 1 to 10000, e.g. "
                                + "[400, 800]"
                        ))
                    continue
                }
                widths.append(v)
            }
            if items.isEmpty { problems.append(node.error(w, "'\(node.key("widths"))' must name at least one width")) }
            out.widths = widths
        }
        // Each key on its own: a bad one must not keep the next from being read (and known).
        do throws(Diagnostic) {
            if let f = try node.strings("formats") {
                let at = node.raw("formats") ?? node.node
                if let bad = f.first(where: { !ImageOutput.formatNames.contains($0) }) {
                    problems.append(
                        node.error(
                            at,
                            "'\(node.key("formats"))' has '\(bad)': the formats are avif, webp, jpeg and png"))
                } else if f.isEmpty || !(f.last == "jpeg" || f.last == "png") {
                    problems.append(
                        node.error(
                            at,
                            "'\(node.key("formats"))' must end with a fallback every browser"
                                + " shows, jpeg or png, e.g. [avif, webp, jpeg]"))
                } else if Set(f).count != f.count {
                    problems.append(node.error(at, "'\(node.key("formats"))' names a format twice"))
                } else {
                    out.formats = f
                }
            }
        } catch {
            problems.append(error)
        }
        do throws(Diagnostic) {
            if let q = try node.int("quality") {
                if (1...100).contains(q) {
                    out.quality = q
                } else {
                    problems.append(
                        node.error(
                            node.raw("quality") ?? node.node,
                            "'\(node.key("quality"))' must be from 1 to 100, found \(q)"))
                }
            }
        } catch {
            problems.append(error)
        }
        do throws(Diagnostic) {
            if let s = try node.string("sizes") { out.sizes = s }
        } catch {
            problems.append(error)
        }
        return out
    }
}
