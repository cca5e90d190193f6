import Synchronization

/// A property of a generated class: its name, with its position in an entity's slots looked
/// up once per entity schema and kept, so typed access costs no name lookup.
///
/// Generated code keeps one per property, as a static constant, and reads and writes through
/// it (see `ManagedObject+Typed.swift`):
///
/// ```swift
/// private static let nameProperty = TypedProperty("name")
/// public var name: String? {
///     get { attributeValue(Self.nameProperty) }
///     set { setAttributeValue(newValue, Self.nameProperty) }
/// }
/// ```
///
/// `Sendable`: the cache is one atomic word (the schema's ``EntitySchema/token`` and the
/// position), so classes used by contexts on several threads share it safely; a class used
/// with two models at once looks the name up again when the schema changes.
public final class TypedProperty: Sendable {
    /// The property's name in the model.
    public let name: String
    /// `token << 20 | position` of the last schema the position was looked up in (0: none).
    private let cached = Atomic<UInt64>(0)

    /// A property named `name`.
    public init(_ name: String) {
        self.name = name
    }

    /// The property's position in `schema`, or `nil` when the entity has no such property.
    @inline(__always)
    func position(in schema: EntitySchema) -> Int? {
        let word = cached.load(ordering: .relaxed)
        if word >> 20 == schema.token { return Int(truncatingIfNeeded: word & 0xF_FFFF) }
        return lookUp(in: schema)
    }

    private func lookUp(in schema: EntitySchema) -> Int? {
        guard let position = try? schema.position(of: name) else { return nil }
        if position <= 0xF_FFFF {
            cached.store(schema.token << 20 | UInt64(position), ordering: .relaxed)
        }
        return position
    }
}
