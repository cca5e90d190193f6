/// Inserts objects of an entity into the store from dictionaries of attribute values, without
/// loading them into a context (Core Data's `NSBatchInsertRequest`).
///
/// The values come from a list (``Source/objects(_:)``), or from a closure called once per object until it
/// returns `true` (Core Data's `dictionaryHandler` and `managedObjectHandler`: the dictionary or
/// object given on the call that returns `true` is not inserted). Attributes left out take
/// their default values; values are converted to the attributes' types. A key that is no
/// attribute of the entity, a value of another type, or a required attribute without a value
/// fails the request naming entity and property. A value a uniqueness constraint already
/// holds (in the store or earlier in the same request) is resolved by the executing context's
/// ``ManagedContext/mergePolicy``, as in Core Data: under ``MergePolicy/error`` (the default)
/// it fails the request with ``StoreError/uniqueConstraint(path:entity:properties:)``; under
/// ``MergePolicy/mergeByPropertyObjectTrump`` or ``MergePolicy/overwrite`` the stored object
/// takes the incoming values (an upsert; it is listed with the inserted ones); under the
/// store-trump and rollback policies it is kept as it is. A failed request inserts nothing.
/// New objects get permanent IDs from the store's primary keys (`Z_PRIMARYKEY` in SQLite).
///
/// ```swift
/// var request = BatchInsertRequest(
///     entityName: "Person", objects: [["name": "Ada", "age": 36], ["name": "Alan"]])
/// request.resultType = .objectIDs
/// let ids = try context.execute(request).objectIDs ?? []
/// ```
public struct BatchInsertRequest {
    /// Where the objects' values come from.
    public enum Source {
        /// A list of dictionaries, one per object.
        case objects([[String: Value]])
        /// Called with an empty dictionary to fill for each object; returns `true` to stop
        /// (that dictionary is not inserted).
        case dictionaryHandler((inout [String: Value]) throws -> Bool)
        /// Called with a new object to fill for each object (an object of a private scratch
        /// context, never of the executing one); returns `true` to stop (that object is not
        /// inserted). Only the object's attributes are read.
        case managedObjectHandler((ManagedObject) throws -> Bool)
    }

    /// The entity whose objects are inserted.
    public var entityName: String
    /// Where the values come from.
    public var source: Source
    /// What ``ManagedContext/execute(_:)-(BatchInsertRequest)`` returns.
    public var resultType: BatchResultType = .statusOnly

    /// A request inserting one object of `entityName` per dictionary of `objects`.
    public init(entityName: String, objects: [[String: Value]]) {
        self.entityName = entityName
        self.source = .objects(objects)
    }

    /// A request inserting one object per call of `dictionaryHandler`, until it returns
    /// `true`.
    ///
    /// ```swift
    /// var next = 0
    /// let request = BatchInsertRequest(entityName: "Person") { values in
    ///     guard next < names.count else { return true }
    ///     values["name"] = .string(names[next]); next += 1
    ///     return false
    /// }
    /// ```
    public init(
        entityName: String, dictionaryHandler: @escaping (inout [String: Value]) throws -> Bool
    ) {
        self.entityName = entityName
        self.source = .dictionaryHandler(dictionaryHandler)
    }

    /// A request inserting one object per call of `managedObjectHandler`, until it returns
    /// `true`.
    public init(
        entityName: String, managedObjectHandler: @escaping (ManagedObject) throws -> Bool
    ) {
        self.entityName = entityName
        self.source = .managedObjectHandler(managedObjectHandler)
    }
}
