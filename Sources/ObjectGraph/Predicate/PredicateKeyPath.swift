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

extension PredicateKeyPath {
    /// The components with the same meaning in a simpler form, for translators: `self` keys
    /// dropped (the value itself), and `@name` keys that name a collection operator (from
    /// `#"@count"` or a `%K` text) as that operator.
    static func normalized(_ components: ArraySlice<Component>) -> ArraySlice<Component> {
        guard
            components.contains(where: {
                if case .key(let key) = $0 { return key == "self" || key.hasPrefix("@") }
                return false
            })
        else { return components }
        return ArraySlice(
            components.compactMap { component -> Component? in
                guard case .key(let key) = component else { return component }
                if key == "self" { return nil }
                if key.hasPrefix("@"),
                    let op = CollectionOperator(rawValue: String(key.dropFirst()))
                {
                    return .operator(op)
                }
                return component
            })
    }
}
