/// Where a predicate in Apple's format syntax fails to parse: a message and the 0-based
/// character offset in `format`, or `nil` when it parses.
///
/// Validation uses it for fetch request templates and fetched properties (`invalid-predicate`);
/// `$VARIABLES` such as `$FETCH_SOURCE` are allowed.
func predicateSyntaxError(in format: String) -> (message: String, offset: Int)? {
    // Hook: replaced by the predicate parser (issue 3) — now wired to it.
    guard let error = Predicate.syntaxCheck(format) else { return nil }
    return ("expected \(error.expected) but found \(error.found)", error.offset)
}

/// Where an expression (a derivation such as `chapters.@count`) fails to parse, like
/// ``predicateSyntaxError(in:)`` (`invalid-derivation-expression`).
func expressionSyntaxError(in expression: String) -> (message: String, offset: Int)? {
    guard let error = Expression.syntaxCheck(expression) else { return nil }
    return ("expected \(error.expected) but found \(error.found)", error.offset)
}
