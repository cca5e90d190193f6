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
/// `Sendable`: the cache is four atomic words (each a schema's ``EntitySchema/token`` and the
/// position, chosen by the token's low bits), so classes used by contexts on several threads
/// share it safely, and an entity and its subentities (whose objects a fetch mixes) each keep
/// their own; a schema whose word another took looks the name up again.
public final class TypedProperty: Sendable {
    /// The property's name in the model.
    public let name: String
    // `token << 20 | position` of a schema the position was looked up in (0: none), by the
    // token's two low bits.
    private let cached0 = Atomic<UInt64>(0)
    private let cached1 = Atomic<UInt64>(0)
    private let cached2 = Atomic<UInt64>(0)
    private let cached3 = Atomic<UInt64>(0)

    /// A property named `name`.
    public init(_ name: String) {
        self.name = name
    }

    /// The cache word for `token`.
    @inline(__always)
    private func load(_ token: UInt64) -> UInt64 {
        switch token & 3 {
        case 0: return cached0.load(ordering: .relaxed)
        case 1: return cached1.load(ordering: .relaxed)
        case 2: return cached2.load(ordering: .relaxed)
        default: return cached3.load(ordering: .relaxed)
        }
    }

    private func store(_ word: UInt64, for token: UInt64) {
        switch token & 3 {
        case 0: cached0.store(word, ordering: .relaxed)
        case 1: cached1.store(word, ordering: .relaxed)
        case 2: cached2.store(word, ordering: .relaxed)
        default: cached3.store(word, ordering: .relaxed)
        }
    }

    /// The property's position in `schema`, or `nil` when the entity has no such property.
    @inline(__always)
    func position(in schema: EntitySchema) -> Int? {
        let word = load(schema.token)
        if word >> 20 == schema.token { return Int(truncatingIfNeeded: word & 0xF_FFFF) }
        return lookUp(in: schema)
    }

    private func lookUp(in schema: EntitySchema) -> Int? {
        guard let position = try? schema.position(of: name) else { return nil }
        if position <= 0xF_FFFF {
            store(schema.token << 20 | UInt64(position), for: schema.token)
        }
        return position
    }
}
