/// Sets attributes of the objects of an entity that match a predicate, in the store, without
/// loading them into a context (Core Data's `NSBatchUpdateRequest`).
///
/// Each value is an ``Expression`` evaluated for each row (a constant, or an expression of the
/// row's own values such as `score * 2`), converted to the attribute's type; a value of another
/// type fails with ``ObjectGraphError/typeMismatch(entity:property:expected:got:)`` and `nil`
/// for a required attribute with a ``ValidationError`` (rule `required`), naming entity and
/// property; nothing is written then. Each updated row's version (`Z_OPT`) goes up, so a
/// context that holds one of the objects with unsaved changes meets an optimistic-locking
/// conflict at its next save, as in Core Data. Uniqueness constraints hold as in a save.
///
/// ```swift
/// var request = BatchUpdateRequest(
///     entityName: "Person", predicate: try Predicate(format: "team.name == 'Red'"),
///     propertiesToUpdate: ["score": .constant(.double(0))])
/// request.resultType = .count
/// let updated = try context.execute(request).count
/// ```
public struct BatchUpdateRequest: Sendable, Hashable {
    /// The entity whose objects are updated.
    public var entityName: String
    /// The objects to update (`nil`: every object).
    public var predicate: Predicate?
    /// The new value of each attribute, by name: a constant or an expression of the row.
    public var propertiesToUpdate: [String: Expression]
    /// Whether objects of the entity's subentities are updated too.
    public var includesSubentities = true
    /// What ``ManagedContext/execute(_:)-(BatchUpdateRequest)`` returns.
    public var resultType: BatchResultType = .statusOnly

    /// A request setting `propertiesToUpdate` on the objects of `entityName` matching
    /// `predicate`.
    public init(
        entityName: String, predicate: Predicate? = nil,
        propertiesToUpdate: [String: Expression]
    ) {
        self.entityName = entityName
        self.predicate = predicate
        self.propertiesToUpdate = propertiesToUpdate
    }

    /// A request setting constant values.
    ///
    /// ```swift
    /// let request = BatchUpdateRequest(entityName: "Task", values: ["done": .bool(true)])
    /// ```
    public init(entityName: String, predicate: Predicate? = nil, values: [String: Value]) {
        self.init(
            entityName: entityName, predicate: predicate,
            propertiesToUpdate: values.mapValues { .constant($0) })
    }
}
