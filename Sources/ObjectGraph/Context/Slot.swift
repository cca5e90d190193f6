/// What one property of a managed object holds.
enum Slot {
    /// An attribute's value.
    case value(Value)
    /// A to-one relationship's object.
    case toOne(ManagedObject?)
    /// A to-many relationship's objects, in order (insertion order for unordered ones).
    case toMany([ManagedObject])
    /// A to-many relationship not loaded yet (a relationship fault): the IDs the store gave,
    /// or `nil` when the store gave none and is asked on first use.
    case toManyFault([ObjectID]?)
    /// A to-one relationship not resolved yet: the ID the store gave.
    indirect case toOneFault(ObjectID?)
}

extension Slot {
    /// What a store keeps for this slot: relationships as the IDs of their objects.
    var storedValue: StoredValue {
        switch self {
        case .value(let value): return .value(value)
        case .toOne(let target): return .toOne(target?.objectID)
        case .toOneFault(let id): return .toOne(id)
        case .toMany(let targets): return .toMany(targets.map(\.objectID))
        case .toManyFault(let ids): return .toMany(ids)
        }
    }
}

/// The lifecycle of a managed object in its context.
enum ObjectState {
    /// Values are loaded (or the object was inserted).
    case loaded
    /// Only the ID is known; values load on first access.
    case fault
}
