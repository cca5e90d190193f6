/// The keys of a change dictionary passed to
/// `ManagedContext.mergeChanges(fromRemoteContextSave:into:)`: Core Data's
/// `NSInsertedObjectsKey`, `NSUpdatedObjectsKey` and `NSDeletedObjectsKey` (and their `…IDsKey`
/// forms, which mean the same here: the dictionary holds IDs).
///
/// ```swift
/// let ids = try context.execute(request).objectIDs ?? []
/// try ManagedContext.mergeChanges(
///     fromRemoteContextSave: [.deletedObjects: ids], into: [viewContext])
/// ```
public struct ChangeKey: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The key's name (`inserted`, `updated`, `deleted`, `refreshed`, `invalidated`).
    public let rawValue: String

    /// Creates a key of that name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Objects inserted (`NSInsertedObjectsKey`).
    public static let insertedObjects = ChangeKey(rawValue: "inserted")
    /// Objects updated (`NSUpdatedObjectsKey`).
    public static let updatedObjects = ChangeKey(rawValue: "updated")
    /// Objects deleted (`NSDeletedObjectsKey`).
    public static let deletedObjects = ChangeKey(rawValue: "deleted")
    /// Objects to read again (`NSRefreshedObjectsKey`): merged as updated.
    public static let refreshedObjects = ChangeKey(rawValue: "refreshed")
    /// Objects let go of (`NSInvalidatedObjectsKey`): merged as deleted.
    public static let invalidatedObjects = ChangeKey(rawValue: "invalidated")
    /// Core Data's `NSInsertedObjectIDsKey`: the same as ``insertedObjects``.
    public static let insertedObjectIDs = insertedObjects
    /// Core Data's `NSUpdatedObjectIDsKey`: the same as ``updatedObjects``.
    public static let updatedObjectIDs = updatedObjects
    /// Core Data's `NSDeletedObjectIDsKey`: the same as ``deletedObjects``.
    public static let deletedObjectIDs = deletedObjects

    /// The name.
    public var description: String { rawValue }
}

/// A change dictionary: IDs by ``ChangeKey``, as Core Data apps pass batch results to
/// `mergeChanges(fromRemoteContextSave:into:)`.
public typealias ChangeKeyIDs = [ChangeKey: [ObjectID]]
