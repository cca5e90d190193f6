import KeyedArchive

/// Why an archived `NSExpression` or `NSPredicate` (an `NSKeyedArchiver` archive, as Xcode
/// writes value expressions and filter predicates into a mapping model) could not be decoded:
/// the archive is malformed, or it holds a class or function ObjectGraph has no form for
/// (named in ``className``).
///
/// ```swift
/// do { _ = try Expression(archivedData: bytes) }
/// catch { print(error) }  // "archived class NSBlockExpression has no ObjectGraph form"
/// ```
public struct ArchivedPredicateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The archived class concerned, when one is.
    public var className: String?
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    public init(className: String? = nil, reason: String) {
        self.className = className
        self.reason = reason
    }

    init(_ archiveError: KeyedArchiveError) {
        self.init(reason: archiveError.description)
    }

    /// The error in one line.
    public var description: String { reason }
}
