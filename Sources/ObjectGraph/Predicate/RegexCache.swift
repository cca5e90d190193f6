import Foundation

/// Compiled `MATCHES` patterns, shared by all evaluations, so that filtering many objects
/// compiles each pattern once. Bounded: it empties itself when full.
final class RegexCache: @unchecked Sendable {
    /// The process-wide cache.
    static let shared = RegexCache()

    private struct Key: Hashable {
        let pattern: String
        let caseInsensitive: Bool
    }

    private let lock = NSLock()
    private var entries: [Key: Result<NSRegularExpression, PredicateEvaluationError>] = [:]
    private let capacity = 256

    /// A regular expression that matches `pattern` against the whole string.
    func regex(_ pattern: String, caseInsensitive: Bool) throws -> NSRegularExpression {
        let key = Key(pattern: pattern, caseInsensitive: caseInsensitive)
        lock.lock()
        let cached = entries[key]
        lock.unlock()
        if let cached { return try cached.get() }
        let compiled = Self.compile(pattern, caseInsensitive: caseInsensitive)
        lock.lock()
        if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
        entries[key] = compiled
        lock.unlock()
        return try compiled.get()
    }

    private static func compile(_ pattern: String, caseInsensitive: Bool)
        -> Result<NSRegularExpression, PredicateEvaluationError>
    {
        let options: NSRegularExpression.Options = caseInsensitive ? [.caseInsensitive] : []
        do {
            // Compile the pattern alone first: wrapping could hide an unbalanced parenthesis.
            _ = try NSRegularExpression(pattern: pattern, options: options)
            return .success(
                try NSRegularExpression(pattern: "\\A(?:\(pattern))\\z", options: options))
        } catch {
            return .failure(
                .invalidRegularExpression(pattern, "not a valid ICU regular expression"))
        }
    }
}
