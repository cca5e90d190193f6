/// Why a predicate or sort descriptor could not be compiled to SQL. The store falls back to
/// evaluating in memory; the compiler never emits SQL whose answer could differ from the
/// evaluator's.
///
/// ```swift
/// do {
///     _ = try compiler.select(entity: "Person", predicate: p, ...)
/// } catch let error as SQLTranslationError {
///     print(error)  // cannot translate `FUNCTION(name, "foo")` to SQL: method calls ...
/// }
/// ```
enum SQLTranslationError: Error, Hashable, CustomStringConvertible {
    /// `fragment` (the predicate text of the part that failed) has no SQL equivalent with the
    /// evaluator's semantics, for the reason given.
    case unsupported(String, reason: String)
    /// The fetch names an entity the layout does not know.
    case unknownEntity(String)

    /// A one-line message naming the fragment.
    var description: String {
        switch self {
        case .unsupported(let fragment, let reason):
            return "cannot translate `\(fragment)` to SQL: \(reason)"
        case .unknownEntity(let name):
            return "cannot translate a fetch of '\(name)' to SQL: no such entity in the layout"
        }
    }
}
