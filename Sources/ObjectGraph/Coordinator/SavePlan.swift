/// One save's work, per store: the store of each entity's rows (looked up once per entity, not
/// per row) and each store's change set, in the order the stores were first needed.
///
/// When every row goes to one store (the usual case) its change set is the one given, not a
/// copy.
struct SavePlan {
    /// Each store taking part, with its changes.
    private(set) var work: [(store: any PersistentStore, changes: ChangeSet)] = []

    /// Splits `changes` between `stores` by the entity of each row.
    /// - Throws: ``ObjectGraphError/noStore(entity:)`` when no store holds a row's entity.
    init(_ changes: ChangeSet, stores: [any PersistentStore], schema: ModelSchema)
        throws
    {
        if changes.isEmpty { return }
        // A first store with no configuration holds every entity: it takes every row.
        if let first = stores.first, first.description.configurationName == nil {
            work = [(first, changes)]
            return
        }
        var lookup = StoreLookup(stores: stores, schema: schema)
        for list in [changes.inserted, changes.updated, changes.deleted] {
            for row in list { _ = try lookup.storeIndex(of: row.entityIndex) }
        }
        switch lookup.used.count {
        case 0: return
        case 1:
            work = [(stores[lookup.used[0]], changes)]
            return
        default: break
        }
        var split = [ChangeSet](
            repeating: ChangeSet(reader: changes.reader), count: stores.count)
        for row in changes.inserted {
            split[try lookup.storeIndex(of: row.entityIndex)].insertedEntries.append(row.entry)
        }
        for row in changes.updated {
            split[try lookup.storeIndex(of: row.entityIndex)].updatedEntries.append(row.entry)
        }
        for row in changes.deleted {
            split[try lookup.storeIndex(of: row.entityIndex)].deletedEntries.append(row.entry)
        }
        work = lookup.used.map { (stores[$0], split[$0]) }
    }

    /// The plan with each store replaced by a save writer of its own (see
    /// ``ConcurrentSavingStore``), or `nil` when a store taking part has none. Under the
    /// coordinator's lock.
    func withSaveWriters() -> SavePlan? {
        var detached = SavePlan()
        for (store, changes) in work {
            guard let saving = store.concurrentSaving else { return nil }
            detached.work.append((saving.makeSaveWriter(), changes))
        }
        return detached
    }

    /// An empty plan.
    private init() {}
}

/// The store of each entity of a save, looked up once per entity.
private struct StoreLookup {
    let stores: [any PersistentStore]
    let schema: ModelSchema
    /// Per entity index: the index in ``stores`` of its store, or -1 when not looked up yet.
    private var byEntity: [Int]
    /// The indexes of the stores looked up, in the order they were first needed.
    private(set) var used: [Int] = []

    init(stores: [any PersistentStore], schema: ModelSchema) {
        self.stores = stores
        self.schema = schema
        byEntity = Array(repeating: -1, count: schema.entities.count)
    }

    mutating func storeIndex(of entityIndex: Int) throws -> Int {
        let known = byEntity[entityIndex]
        if known >= 0 { return known }
        let entity = schema.entities[entityIndex]
        guard
            let index = stores.firstIndex(where: {
                StoreCoordinator.holds($0, entity.name, model: schema.model)
            })
        else {
            throw ObjectGraphError.noStore(entity: entity.name)
        }
        byEntity[entityIndex] = index
        if !used.contains(index) { used.append(index) }
        return index
    }
}
