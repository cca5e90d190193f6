import Foundation
import KeyedArchive

extension Expression {
    /// Decodes an `NSExpression` that `NSKeyedArchiver` archived (the `valueexpressiondata` of
    /// an Xcode mapping model): key paths, variables, constants, aggregates, functions
    /// (`FUNCTION(…)` and the built-in ones), subqueries, conditionals and casts.
    ///
    /// ```swift
    /// let value = try Expression(archivedData: bytes)
    /// print(value)   // $source.numberOfFlagella
    /// ```
    /// - Throws: ``ArchivedPredicateError``: a malformed archive (naming the byte or object),
    ///   or a class or selector ObjectGraph has no form for (naming it).
    public init(archivedData data: Data) throws(ArchivedPredicateError) {
        var decoder = ArchivedPredicateDecoder()
        self = try decoder.expression(try ArchivedPredicateDecoder.root(of: data), depth: 0)
    }
}

extension Predicate {
    /// Decodes an `NSPredicate` that `NSKeyedArchiver` archived: comparisons (every operator,
    /// modifier and option), `AND`/`OR`/`NOT` and `TRUEPREDICATE`/`FALSEPREDICATE`.
    ///
    /// ```swift
    /// let filter = try Predicate(archivedData: bytes)
    /// print(filter)   // age > 18
    /// ```
    /// - Throws: ``ArchivedPredicateError``, as ``Expression/init(archivedData:)``.
    public init(archivedData data: Data) throws(ArchivedPredicateError) {
        var decoder = ArchivedPredicateDecoder()
        self = try decoder.predicate(try ArchivedPredicateDecoder.root(of: data), depth: 0)
    }
}
