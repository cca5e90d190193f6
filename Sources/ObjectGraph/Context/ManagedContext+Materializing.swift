/// Turning store rows into objects: every object a fetch, a fault or a prefetch makes from what
/// a store read is made (or found and loaded) here, and registered in the identity map.
///
/// ``ManagedContext/registeredObject(for:)`` (public) only looks an object up and never loads;
/// the `materialize` methods here make objects and load them. An object they make or load
/// reports itself a fault until it is used (``ManagedObject/isFault``), as the objects of a
/// Core Data fetch do; a fetch asked for objects that are not faults says otherwise.
extension ManagedContext {
    /// The object for a key-only row: the registered one, or a new fault made and registered.
    func materializeFault(for row: StoreRow) -> ManagedObject {
        registry[row.id] ?? registerFault(row.id, entity: schema.entities[row.entityIndex])
    }

    /// Loads a fault's values from its store.
    func fulfillFault(_ object: ManagedObject) throws {
        guard object.state == .fault else { return }
        if let batch = faultBatches[object.objectID] {
            for id in batch { faultBatches[id] = nil }
            try loadFaults(batch.compactMap { registry[$0] })
            if object.state == .loaded { return }
        }
        guard let row = try source.row(for: object.objectID, in: readingGeneration()) else {
            throw ObjectGraphError.objectNotFound(object.objectID)
        }
        load(row, into: object)
        object.awakeFromFetch()
    }

    /// Fills `object` with `row`'s values and marks them committed.
    func load(_ row: StoreRow, into object: ManagedObject) {
        let slots = object.slots
        for (position, stored) in row.values.enumerated() where position < slots.count {
            slots[position] = Self.slot(stored)
        }
        loaded(object, version: row.version)
    }

    /// Fills `object` with the decoded slots of `run` (one per property, moved out of it) and
    /// marks them committed.
    func load(_ run: SlotRange, version: Int64, into object: ManagedObject) {
        object.moveSlots(from: run)
        loaded(object, version: version)
    }

    /// Marks the values `object` now holds as its committed ones, read at `version`.
    private func loaded(_ object: ManagedObject, version: Int64) {
        object.version = version
        object.commitValues()
        object.state = .loaded
        object.observedChangeOfAll()
    }

    /// The object for `row`: the registered one (a fault is loaded with the row; a loaded one,
    /// with or without unsaved changes, is kept as it is), or a new object made from the row
    /// and registered.
    func materialize(_ row: StoreRow) -> ManagedObject {
        if let existing = registry[row.id] {
            if existing.state == .fault {
                load(row, into: existing)
                fetched(existing)
            }
            return existing
        }
        let entity = schema.entities[row.entityIndex]
        let slots = row.values.count == entity.properties.count ? Self.slots(of: row) : nil
        let object = makeObject(entity: entity, id: row.id, isFault: false, slots: slots)
        registry[row.id] = object
        if slots == nil {
            load(row, into: object)
        } else {
            object.version = row.version
            object.commitValues()
        }
        fetched(object)
        return object
    }

    /// The object for a decoded row: a new object made from its slots and registered, the
    /// registered fault loaded with them, or the registered object loaded already, as it is
    /// (unsaved changes are kept).
    ///
    /// The slots move out of `row`, so none is copied. With `asRead`, the row's
    /// ``DecodedRow/registration`` is taken as current (asked just now, with no code run
    /// since); otherwise the registry is asked again, and a row decoded without its values
    /// whose object is no longer registered loaded (a hook reset or refreshed it) is read
    /// again.
    ///
    /// `baseClass`: the caller knows the row's objects are of the base class.
    func materialize(_ row: inout DecodedRow, asRead: Bool, baseClass: Bool = false) throws
        -> ManagedObject
    {
        if asRead {
            switch row.registration {
            case .loaded(let object):
                return object
            case .fault(let object):
                if let run = row.storage.take() {
                    load(run, version: row.version, into: object)
                    fetched(object)
                    return object
                }
            case .none:
                if let run = row.storage.take() {
                    return materializeNewObject(
                        id: row.id, entity: schema.entities[row.entityIndex],
                        version: row.version, run: run, baseClass: baseClass)
                }
            }
        }
        return try materializeAskingRegistry(
            id: row.id, entity: schema.entities[row.entityIndex], version: row.version,
            run: row.storage.take())
    }

    /// The object for a decoded row, asking the registry what it holds now (see
    /// ``materialize(_:asRead:baseClass:)``).
    private func materializeAskingRegistry(
        id: ObjectID, entity: EntitySchema, version: Int64, run: SlotRange?
    ) throws -> ManagedObject {
        let existing = registry[id]
        if let existing, existing.state == .loaded { return existing }
        guard let run else {
            guard let stored = try source.row(for: id, in: readingGeneration()) else {
                throw ObjectGraphError.objectNotFound(id)
            }
            return materialize(stored)
        }
        guard let existing else {
            return materializeNewObject(id: id, entity: entity, version: version, run: run)
        }
        load(run, version: version, into: existing)
        fetched(existing)
        return existing
    }

    /// A new object for a decoded row of an object the context did not hold when the row was
    /// read, registered with a single lookup.
    ///
    /// Should the context hold one by now (a hook of an earlier row registered it), the new
    /// object is dropped and the registered one is kept, loaded with the row if it is a fault.
    private func materializeNewObject(
        id: ObjectID, entity: EntitySchema, version: Int64, run: SlotRange,
        baseClass: Bool = false
    ) -> ManagedObject {
        let object =
            baseClass || objectClass(forEntityAt: entity.index) == ManagedObject.self
            ? ManagedObject(schema: entity, id: id, link: link, run: run)
            : makeObject(entity: entity, id: id, isFault: false, storage: run)
        if let registered = registry.updateValue(object, forKey: id) {
            registry[id] = registered
            object.context = nil
            if registered.state == .fault {
                load(run, version: version, into: registered)
                fetched(registered)
            }
            return registered
        }
        loaded(object, version: version)
        fetched(object)
        return object
    }

    /// The slots of a stored row (relationships as faults).
    static func slots(of row: StoreRow) -> [Slot] {
        row.values.map(slot)
    }

    static func slot(_ stored: StoredValue) -> Slot {
        switch stored {
        case .value(let value): return .value(value)
        case .toOne(let id): return .fault(to: id)
        case .toMany(let ids): return .toManyFault(ids)
        }
    }

    /// Marks `object`, whose values a fetch just loaded, as a fault not yet fired (as Core
    /// Data reports it) and calls its `awakeFromFetch()`.
    private func fetched(_ object: ManagedObject) {
        object.isUnfired = true
        object.awakeFromFetch()
    }
}
