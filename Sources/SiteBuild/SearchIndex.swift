import Foundation
import SiteCore
import SiteLoad

/// The static search index of a collection (`search:` in site.yml), in display order:
/// `{"items": [{"url", "title", "subtitle"?, "image"?, "text"}]}`, where `text` is the searched
/// fields folded by `SearchText.fold` (the page's script folds the query the same way).
enum SearchIndex {
    struct Record: Encodable {
        var url: String?
        var title: String
        var subtitle: String?
        var image: Picture?
        var text: String
    }

    struct Picture: Encodable {
        var src: String
        var width: Int?
        var height: Int?
    }

    struct File: Encodable {
        var collection: String
        var fields: [String]
        var items: [Record]
    }

    static func json(_ collection: SortedCollection, rule: SearchRule, urls: URLScheme) throws(Diagnostic) -> String {
        let records = collection.order.map { i -> Record in
            let item = collection.loaded.items[i]
            let texts = ViewMaker.cardTexts(collection, item)
            var picture: Picture? = nil
            if let f = collection.config.cardImageField, let info = item.images[f] {
                if let p = collection.published(f, info),
                    let small = p.processed.variants(p.formats.last ?? .jpeg).first
                {
                    picture = Picture(src: urls.root + p.path(small), width: small.width, height: small.height)
                } else {
                    picture = Picture(
                        src: ImageView.plain(info, urls: urls).src, width: info.width, height: info.height)
                }
            }
            var words: [String] = []
            for f in rule.fields { if let v = Derivation.lookup(f, in: item.fields) { collectText(v, into: &words) } }
            return Record(
                url: collection.itemURLs[i], title: texts.title, subtitle: texts.subtitle, image: picture,
                text: SearchText.fold(words.joined(separator: " ")))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(File(collection: collection.config.name, fields: rule.fields, items: records))
            return markupFree(String(decoding: data, as: UTF8.self))
        } catch {
            throw Diagnostic(
                file: SiteConfig.fileName,
                "cannot write the search index of collection '\(collection.config.name)': \(error)")
        }
    }

    /// JSON text without `<`, `>` and `&` (written as `\u003c`, `\u003e`, `\u0026`; JSON has them
    /// only inside strings): nothing in the file reads as markup, even to a client that sniffs it.
    static func markupFree(_ json: String) -> String {
        guard
            json.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "&") })
        else { return json }
        return json.replacingOccurrences(of: "<", with: "\\u003c").replacingOccurrences(of: ">", with: "\\u003e")
            .replacingOccurrences(of: "&", with: "\\u0026")
    }

    /// Every scalar inside `value`, as text.
    static func collectText(_ value: Value, into words: inout [String]) {
        switch value {
        case .null: break
        case .array(let a): for e in a { collectText(e, into: &words) }
        case .dictionary(let d): for (_, e) in d.sorted(by: { $0.key < $1.key }) { collectText(e, into: &words) }
        default: words.append(TemplateText.plain(value))
        }
    }
}
