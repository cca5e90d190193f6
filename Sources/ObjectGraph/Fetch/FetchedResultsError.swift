/// Why a fetched-results controller refused a request or an index.
public enum FetchedResultsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The fetch request has no sort descriptors (a controller needs an order), naming its
    /// entity (or the result type when it names none).
    case noSortDescriptors(entity: String)
    /// The section name key path does not parse as a key path, with the parser's message.
    case invalidSectionKeyPath(String, reason: String)
    /// The key path given as the section name key path names no model property of the type
    /// (its ``KeyPathNaming/propertyName(for:)`` answered `nil`).
    case unnamedKeyPath(keyPath: String, type: String)
    /// No object at the index path; `sectionCounts` holds each section's number of objects.
    case indexPathOutOfRange(ResultsIndexPath, sectionCounts: [Int])

    /// A sentence naming what went wrong.
    public var description: String {
        switch self {
        case .noSortDescriptors(let entity):
            return "the fetch request for \(entity) has no sort descriptors; "
                + "a fetched-results controller needs at least one"
        case .invalidSectionKeyPath(let keyPath, let reason):
            return "the section name key path '\(keyPath)' is not a key path: \(reason)"
        case .unnamedKeyPath(let keyPath, let type):
            return "the key path \(keyPath) names no model property of \(type)"
        case .indexPathOutOfRange(let path, let counts):
            return "no object at index path \(path): the results have \(counts.count) "
                + "section(s) holding \(counts) object(s)"
        }
    }
}
