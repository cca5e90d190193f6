/// The entity and store part of ``ObjectID``s: one shared instance per entity and store, so
/// IDs are small, cheap to copy and quick to compare (`===` first, names only when two
/// instances differ).
@usableFromInline
final class ObjectIDSpace: Sendable {
    /// The entity's name.
    let entityName: String
    /// The store's identifier (empty for temporary IDs).
    let storeIdentifier: String

    private init(entityName: String, storeIdentifier: String) {
        self.entityName = entityName
        self.storeIdentifier = storeIdentifier
    }

    /// Whether `other` is the same entity and store: the same instance, or (once the shared
    /// instances were dropped, see `limit`) one with the same names.
    func matches(_ other: ObjectIDSpace) -> Bool {
        self === other
            || (entityName == other.entityName && storeIdentifier == other.storeIdentifier)
    }

    private struct Name: Hashable {
        let entity: String
        let store: String
    }

    /// Every space made so far. Bounded: past `limit` entries it starts again (IDs made from
    /// different instances still compare equal by name).
    private static let known = Locked<[Name: ObjectIDSpace]>([:])
    private static let limit = 4096

    /// The shared space of `entityName` in the store `storeIdentifier`.
    static func named(_ entityName: String, storeIdentifier: String) -> ObjectIDSpace {
        let name = Name(entity: entityName, store: storeIdentifier)
        return known.withLock { spaces in
            if let space = spaces[name] { return space }
            if spaces.count >= limit { spaces.removeAll() }
            let space = ObjectIDSpace(entityName: entityName, storeIdentifier: storeIdentifier)
            spaces[name] = space
            return space
        }
    }
}
