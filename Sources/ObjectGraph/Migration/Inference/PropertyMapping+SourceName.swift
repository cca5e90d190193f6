extension PropertyMapping {
    /// `$source.<name>`: the value expression of an inferred property mapping.
    ///
    /// ```swift
    /// PropertyMapping.sourceExpression(for: "name")   // $source.name
    /// ```
    public static func sourceExpression(for name: String) -> Expression {
        .member(.variable("source"), PredicateKeyPath([.key(name)]))
    }

    /// The source property's name when the value expression is a plain `$source.<name>` (as in
    /// every inferred mapping), else `nil`.
    ///
    /// ```swift
    /// PropertyMapping(name: "countries", valueExpression: PropertyMapping.sourceExpression(for: "regions"))
    ///     .sourcePropertyName   // "regions"
    /// ```
    public var sourcePropertyName: String? {
        guard case .member(.variable("source"), let path)? = valueExpression,
            path.components.count == 1, case .key(let name) = path.components[0]
        else { return nil }
        return name
    }
}
