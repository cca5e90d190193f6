/// A key path split into its components once, at parse time: `items.@sum.price` is
/// `[.key("items"), .operator(.sum), .key("price")]`.
///
/// ```swift
/// let path = PredicateKeyPath("department.name")
/// path.components  // [.key("department"), .key("name")]
/// ```
public struct PredicateKeyPath: Sendable, Hashable {
    /// The components, in order.
    public var components: [Component]

    /// One step of a key path.
    public enum Component: Sendable, Hashable {
        /// A property name.
        case key(String)
        /// A collection operator (`@count`, `@sum`, …).
        case `operator`(CollectionOperator)
    }

    /// Creates a key path from components.
    public init(_ components: [Component]) { self.components = components }

    /// Splits a dotted key path (`"items.@sum.price"`); `@name` components that are not known
    /// collection operators stay plain keys.
    public init(_ dotted: String) {
        components = dotted.split(separator: ".", omittingEmptySubsequences: false).map {
            part -> Component in
            if part.hasPrefix("@"), let op = CollectionOperator(rawValue: String(part.dropFirst()))
            {
                return .operator(op)
            }
            return .key(String(part))
        }
    }
}

/// The collection operators of key-value coding that key paths may contain.
public enum CollectionOperator: String, Sendable, Hashable, CaseIterable {
    /// `@count`: the number of elements (or characters of a string).
    case count
    /// `@sum`: the sum of the (numeric) elements.
    case sum
    /// `@avg`: the mean of the elements.
    case avg
    /// `@min`: the smallest element.
    case min
    /// `@max`: the largest element.
    case max
    /// `@distinctUnionOfObjects`: the elements without duplicates.
    case distinctUnionOfObjects
    /// `@unionOfObjects`: the elements.
    case unionOfObjects
    /// `@distinctUnionOfArrays`: the elements of the element collections, without duplicates.
    case distinctUnionOfArrays
    /// `@unionOfArrays`: the elements of the element collections.
    case unionOfArrays
    /// `@distinctUnionOfSets`: the elements of the element sets, without duplicates.
    case distinctUnionOfSets
}
