/// An attribute of a generated class: its name, with its position in an entity's slots looked
/// up once per entity schema and kept (like ``TypedProperty``, which relationships and
/// `Codable` attributes use).
///
/// A value the compiler builds: a generated class's constant of it is ready without the
/// check for a lazily initialized global that a ``TypedProperty`` constant costs each access.
///
/// ```swift
/// private enum StudentProperties {
///     static let name = TypedAttribute("name")
/// }
/// public var name: String? {
///     get { attributeValue(StudentProperties.name) }
///     set { setAttributeValue(newValue, StudentProperties.name) }
/// }
/// ```
public struct TypedAttribute: ~Copyable, Sendable {
    /// The attribute's name in the model.
    public let name: String
    @usableFromInline let cache: PositionCache

    /// An attribute named `name`.
    @inlinable
    public init(_ name: String) {
        self.name = name
        cache = PositionCache()
    }

    /// The attribute's position in `schema`, or `nil` when the entity has no such property.
    @inlinable @inline(__always)
    func position(in schema: EntitySchema) -> Int? {
        cache.position(in: schema, name: name)
    }
}
