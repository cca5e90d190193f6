extension Predicate {
    /// Parses a predicate in Apple's format syntax, substituting `%@`, `%K`, `%d`, `%f`, `%s`…
    /// with `arguments` in order.
    ///
    /// ```swift
    /// let p = try Predicate(format: "%K BEGINSWITH[cd] %@ AND age > %d", "name", "jo", 30)
    /// print(p)  // name BEGINSWITH[cd] "jo" AND age > 30
    /// ```
    ///
    /// `%@` takes strings, numbers, Booleans, dates, data, UUIDs, URLs, ``Value``, ``ObjectID``,
    /// ``Expression``, arrays, sets and dictionaries (their values), and `nil`.
    /// - Throws: ``PredicateSyntaxError`` with the offset, what was expected and an excerpt.
    public init(format: String, _ arguments: Any?...) throws(PredicateSyntaxError) {
        self = try PredicateParser.parsePredicate(format, arguments: arguments)
    }

    /// Parses a predicate, taking the format arguments from an array.
    public init(format: String, argumentArray: [Any?]) throws(PredicateSyntaxError) {
        self = try PredicateParser.parsePredicate(format, arguments: argumentArray)
    }

    /// Checks the syntax of a stored predicate (a fetch template's), where `$VARIABLES` are
    /// allowed and there are no format arguments: nil when it parses, else the error.
    ///
    /// ```swift
    /// Predicate.syntaxCheck("name == $NAME")  // nil
    /// Predicate.syntaxCheck("name ==")?.offset  // 7
    /// ```
    public static func syntaxCheck(_ format: String) -> PredicateSyntaxError? {
        do {
            _ = try PredicateParser.parsePredicate(format, arguments: [])
            return nil
        } catch {
            return error
        }
    }
}

extension Expression {
    /// Parses an expression alone (a derivation such as `chapters.@count`), with format
    /// arguments as in ``Predicate/init(format:_:)``.
    ///
    /// ```swift
    /// let e = try Expression(format: "price * %@", 2)
    /// print(e)  // price * 2
    /// ```
    public init(format: String, _ arguments: Any?...) throws(PredicateSyntaxError) {
        self = try PredicateParser.parseExpression(format, arguments: arguments)
    }

    /// Parses an expression, taking the format arguments from an array.
    public init(format: String, argumentArray: [Any?]) throws(PredicateSyntaxError) {
        self = try PredicateParser.parseExpression(format, arguments: argumentArray)
    }

    /// Checks the syntax of a stored expression (a derivation): nil when it parses.
    public static func syntaxCheck(_ format: String) -> PredicateSyntaxError? {
        do {
            _ = try PredicateParser.parseExpression(format, arguments: [])
            return nil
        } catch {
            return error
        }
    }
}
