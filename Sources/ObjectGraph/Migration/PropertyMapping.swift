/// How one destination property gets its value (Core Data's `NSPropertyMapping`): an expression
/// evaluated with `$source` (the source object), `$manager`, `$entityMapping` and
/// `$entityPolicy` bound.
///
/// ```swift
/// let rename = PropertyMapping(name: "countries", valueExpression: try Expression(format: "$source.regions"))
/// ```
public struct PropertyMapping: Sendable, Hashable {
    /// The destination property's name.
    public var name: String
    /// The value's expression (`nil`: the property is left at its default).
    public var valueExpression: Expression?
    /// The mapping's user info.
    public var userInfo: [String: String]

    /// Creates a property mapping.
    public init(name: String, valueExpression: Expression? = nil, userInfo: [String: String] = [:])
    {
        self.name = name
        self.valueExpression = valueExpression
        self.userInfo = userInfo
    }
}
