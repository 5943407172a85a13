import Foundation
import SiteCore
import SiteFetch
import SiteFormats

/// Collections and joins whose `data:` is a URL: the answer is read like a file, named in
/// messages by its URL (secrets as `***`).
extension CollectionLoader {
    /// The answer of a collection's URL, parsed; nil with the problem recorded.
    func readRemote(
        _ source: RemoteSource, of owner: String, items: [PathComponent],
        problems: inout [Diagnostic]
    ) -> DatasetFile? {
        guard let fetch else {
            problems.append(Diagnostic(source.at, "\(owner): its data is a URL, which this command does not fetch"))
            return nil
        }
        let request: PreparedRequest
        do throws(FetchProblem) { request = try source.prepare(fetch.context) } catch {
            problems.append(Diagnostic(error.at ?? source.at, "\(owner): \(error.message)"))
            return nil
        }
        switch fetch.get([request])[0] {
        case .success(let answer):
            return parse(answer.data, display: answer.shown, format: answer.format, items: items, problems: &problems)
        case .failure(let p):
            problems.append(Diagnostic(p.at ?? SourceLocation(file: request.shown), "\(owner): \(p.message)"))
            return nil
        }
    }

    /// The records of the joins whose data is a URL, for `items` (the dataset's raw items): each
    /// item's URL (its fields, renamed, fill the `{field}` placeholders), fetched once per distinct URL.
    func remoteJoins(
        _ config: CollectionConfig, items: [Value], locations: [SourceLocation]?, dataset: DatasetFile,
        problems: inout [Diagnostic]
    ) -> [(JoinRule, [String: Value])] {
        config.joins.compactMap { rule -> (JoinRule, [String: Value])? in
            guard let source = rule.remote else { return nil }
            let owner = "join '\(rule.name)' of collection '\(config.name)'"
            guard let fetch else {
                problems.append(Diagnostic(source.at, "\(owner): its data is a URL, which this command does not fetch"))
                return nil
            }
            var requests: [PreparedRequest] = []
            var seen: Set<String> = []
            for (index, raw) in items.enumerated() {
                guard case .dictionary(var fields) = raw else { continue }  // reported by the normaliser
                for (from, to) in config.rename.sorted(by: { $0.key < $1.key }) {
                    if let v = fields.removeValue(forKey: from) { fields[to] = v }
                }
                do throws(FetchProblem) {
                    let request = try source.prepare(fetch.context, fields: fields)
                    if seen.insert(request.cacheKey + request.url).inserted { requests.append(request) }
                } catch {
                    let at = locations?[index] ?? dataset.location(config.itemsPath + [.index(index)])
                    problems.append(Diagnostic(error.at ?? at, "\(owner): item \(index): \(error.message)"))
                }
            }
            var records: [String: Value] = [:]
            var owners: [String: SourceLocation] = [:]
            for (request, result) in zip(requests, fetch.get(requests)) {
                switch result {
                case .success(let answer):
                    guard
                        let joined = parse(
                            answer.data, display: answer.shown, format: answer.format,
                            items: rule.itemsPath, problems: &problems)
                    else { continue }
                    addRecords(of: joined, rule, owner: owner, to: &records, owners: &owners, problems: &problems)
                case .failure(let p):
                    problems.append(Diagnostic(p.at ?? SourceLocation(file: request.shown), "\(owner): \(p.message)"))
                }
            }
            return (rule, records)
        }
    }
}
