/// A property of a generated class: its name, with its position in an entity's slots looked
/// up once per entity schema and kept, so typed access costs no name lookup.
///
/// Generated code keeps one per relationship, as a static constant, and reads and writes
/// through it (see `ManagedObject+Typed.swift`); attributes have ``TypedAttribute``s, which
/// need no lazy initialization. Hand-written classes may use either:
///
/// ```swift
/// private static let nameProperty = TypedProperty("name")
/// public var name: String? {
///     get { attributeValue(Self.nameProperty) }
///     set { setAttributeValue(newValue, Self.nameProperty) }
/// }
/// ```
///
/// `Sendable`: its position cache is atomic, so classes used by contexts on several threads
/// share it safely.
public final class TypedProperty: Sendable {
    /// The property's name in the model.
    public let name: String
    private let cache = PositionCache()

    /// A property named `name`.
    public init(_ name: String) {
        self.name = name
    }

    /// The property's position in `schema`, or `nil` when the entity has no such property.
    @inline(__always)
    func position(in schema: EntitySchema) -> Int? {
        cache.position(in: schema, name: name)
    }
}
