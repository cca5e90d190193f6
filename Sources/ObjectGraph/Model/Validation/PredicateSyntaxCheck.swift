/// Where a predicate in Apple's format syntax fails to parse: a message and the 0-based
/// character offset in `format`, or `nil` when it parses (or cannot be checked yet).
///
/// Validation uses it for fetch request templates, fetched properties and (through
/// `expressionSyntaxError(in:)` in ModelValidator+Attributes.swift) derivation expressions.
func predicateSyntaxError(in format: String) -> (message: String, offset: Int)? {
    // Hook: replaced by the predicate parser (issue 3)
    return nil
}
