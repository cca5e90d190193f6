/// One save's work, per store: the store of each entity's objects (looked up once per entity,
/// not per object) and each store's change set, in the order the stores were first needed.
struct SavePlan {
    let schema: ModelSchema
    let stores: [any PersistentStore]
    /// Per entity index: the position in ``work`` of its store, or -1 when not looked up yet.
    private var workByEntity: [Int]
    /// Each store taking part, with its changes.
    private(set) var work: [(store: any PersistentStore, changes: ChangeSet)] = []

    /// How many rows of each kind the save has (each store's lists are made that large at
    /// once: a single store, the usual case, then never grows them).
    private let expected: (inserted: Int, updated: Int, deleted: Int)

    init(
        schema: ModelSchema, stores: [any PersistentStore], inserted: Int = 0, updated: Int = 0,
        deleted: Int = 0
    ) {
        self.schema = schema
        self.stores = stores
        expected = (inserted, updated, deleted)
        workByEntity = Array(repeating: -1, count: schema.entities.count)
    }

    /// Adds `object` to the list `list` (inserted, updated or deleted) of its store's changes.
    mutating func add(
        _ object: ManagedObject, to list: WritableKeyPath<ChangeSet, [PendingRow]>
    ) throws {
        let position = try workPosition(for: object.schema)
        work[position].changes[keyPath: list].append(.object(object))
    }

    private mutating func workPosition(for entity: EntitySchema) throws -> Int {
        let known = workByEntity[entity.index]
        if known >= 0 { return known }
        let store = try StoreCoordinator.store(for: entity, in: stores, model: schema.model)
        let identifier = store.description.identifier
        let position: Int
        if let existing = work.firstIndex(where: { $0.store.description.identifier == identifier })
        {
            position = existing
        } else {
            var changes = ChangeSet()
            changes.inserted.reserveCapacity(expected.inserted)
            changes.updated.reserveCapacity(expected.updated)
            changes.deleted.reserveCapacity(expected.deleted)
            work.append((store, changes))
            position = work.count - 1
        }
        workByEntity[entity.index] = position
        return position
    }
}
