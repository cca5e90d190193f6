/// Which side of a conflict saved the other values: the store (another context on the same
/// coordinator, or another process), or — once contexts have parents — the parent context.
public enum ConflictSource: Sendable, Hashable {
    /// The persistent store.
    case store
    /// The parent context.
    case parentContext
}

/// One changed property of an object in conflict: the value this context had read, the value
/// it wants to save, and the value the other side (store or parent) holds now.
///
/// Attributes give their values; to-one relationships the target's ``Value/objectID(_:)``
/// (``Value/null`` when empty). To-many relationships are not listed, as in Core Data, whose
/// `NSMergeConflict` snapshots hold attributes and to-one relationships only (read a to-many
/// relationship's stored members from the store when needed); the merge policies still merge
/// them, relationship by relationship.
public struct PropertyConflict: Sendable, Hashable, CustomStringConvertible {
    /// The property's name.
    public var property: String
    /// The value this context read (Core Data's cached snapshot).
    public var snapshot: Value
    /// The value this context wants to save (Core Data's object snapshot).
    public var object: Value
    /// The value the other side holds now (Core Data's persisted snapshot); `nil` when the
    /// object is gone there.
    public var other: Value?

    /// Creates a record.
    public init(property: String, snapshot: Value, object: Value, other: Value?) {
        self.property = property
        self.snapshot = snapshot
        self.object = object
        self.other = other
    }

    /// `name: read 1, wants 2, now 3`.
    public var description: String {
        "\(property): read \(snapshot), wants \(object), now \(other.map(\.description) ?? "gone")"
    }
}

/// An object taking uniquely constrained values another object holds — inserted with them or
/// updated to them (Core Data's `NSConstraintConflict`), reported under ``MergePolicy/error``:
/// the constraint, the values, the object and the objects holding them.
public struct ConstraintConflict: Sendable, Hashable, CustomStringConvertible {
    /// The entity declaring the constraint.
    public var entity: String
    /// The constraint's properties.
    public var properties: [String]
    /// The values they share.
    public var values: [Value]
    /// The object being saved.
    public var objectID: ObjectID
    /// The objects holding the values already (stored, or taking them in the same save).
    public var conflictingIDs: [ObjectID]

    /// Creates a record.
    public init(
        entity: String, properties: [String], values: [Value], objectID: ObjectID,
        conflictingIDs: [ObjectID]
    ) {
        self.entity = entity
        self.properties = properties
        self.values = values
        self.objectID = objectID
        self.conflictingIDs = conflictingIDs
    }

    /// `Person (email) = (a@b): x-coredata://… conflicts with x-coredata://…`.
    public var description: String {
        "\(entity) (\(properties.joined(separator: ", "))) = "
            + "(\(values.map(\.description).joined(separator: ", "))): \(objectID) conflicts with "
            + conflictingIDs.map(\.description).joined(separator: ", ")
    }
}
