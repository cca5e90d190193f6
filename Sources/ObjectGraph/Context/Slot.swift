/// What one property of a managed object holds.
@usableFromInline
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
    /// A to-one relationship not resolved yet, to an object with a permanent key (what stores
    /// give): the target ID's space and key, held unboxed (a whole ``ObjectID`` does not fit a
    /// slot, and boxing it would cost an allocation per fetched row). Make with
    /// ``fault(to:)``.
    case toOneFault(ObjectIDSpace, Int64)
    /// A to-one relationship not resolved yet, to an object with a temporary key (rare, so
    /// boxed). Make with ``fault(to:)``.
    indirect case toOneFaultID(ObjectID)

    /// The slot of a to-one relationship to `id`, not resolved yet (`nil`: no target, which
    /// needs no resolving).
    static func fault(to id: ObjectID?) -> Slot {
        guard let id else { return .toOne(nil) }
        if case .permanent(let key) = id.key { return .toOneFault(id.space, key) }
        return .toOneFaultID(id)
    }

    /// The target's ID of a to-one relationship, resolved or not; `nil` when it holds none
    /// and for other slots.
    var toOneTarget: ObjectID? {
        if case .toOne(let object) = self { return object?.objectID }
        return faultTarget
    }

    /// The target's ID of a to-one relationship not resolved yet; `nil` for other slots.
    var faultTarget: ObjectID? {
        switch self {
        case .toOneFault(let space, let key): return ObjectID(space: space, key: .permanent(key))
        case .toOneFaultID(let id): return id
        default: return nil
        }
    }
}

extension Slot {
    /// What a store keeps for this slot: relationships as the IDs of their objects.
    var storedValue: StoredValue {
        switch self {
        case .value(let value): return .value(value)
        case .toOne(let target): return .toOne(target?.objectID)
        case .toOneFault, .toOneFaultID: return .toOne(faultTarget)
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
