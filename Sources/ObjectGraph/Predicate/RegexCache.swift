import Foundation

/// Compiled `MATCHES` patterns, shared by all evaluations, so that filtering many objects
/// compiles each pattern once. Bounded: it empties itself when full.
final class RegexCache: Sendable {
    /// The process-wide cache.
    static let shared = RegexCache()

    private struct Key: Hashable {
        let pattern: String
        let caseInsensitive: Bool
    }

    /// The compiled patterns (and the errors of patterns that do not compile), by pattern and
    /// case option. Every read and write of the table goes through the lock; compiling
    /// happens outside it, so two threads may compile the same pattern once each.
    private let entries = Locked<[Key: Result<NSRegularExpression, PredicateEvaluationError>]>([:])
    private let capacity = 256

    /// A regular expression that matches `pattern` against the whole string.
    func regex(_ pattern: String, caseInsensitive: Bool) throws -> NSRegularExpression {
        let key = Key(pattern: pattern, caseInsensitive: caseInsensitive)
        if let cached = entries.withLock({ $0[key] }) { return try cached.get() }
        let compiled = Self.compile(pattern, caseInsensitive: caseInsensitive)
        entries.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[key] = compiled
        }
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
