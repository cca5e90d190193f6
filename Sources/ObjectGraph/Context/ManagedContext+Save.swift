import Foundation

/// Saving: hooks, validation, permanent IDs, one change set per store, and committing.
extension ManagedContext {
    /// Saves every change. Validation runs first and reports every problem at once; a failed
    /// save changes nothing in the stores and the context keeps its changes (and its undo
    /// history), so they can be fixed or undone.
    ///
    /// - Throws: ``SaveError`` — validation problems, optimistic-locking conflicts, or a store
    ///   failure (with the stores that did save, when several stores take part).
    public func save() throws {
        forgetInsertedAndDeleted()
        var saving = touched.values.filter(\.hasUnsavedWork)
        guard !saving.isEmpty else { return }
        // Like Core Data, deleted objects get willSave/didSave too (`isDeleted` tells them).
        let before = changeCount
        for object in saving { object.willSave() }
        if changeCount != before { saving = touched.values.filter(\.hasUnsavedWork) }
        let problems = validationProblems(saving)
        guard problems.isEmpty else {
            throw SaveError.validation(ValidationError(problems: problems))
        }
        let inserted = saving.filter { $0.insertedFlag && !$0.deletedFlag }
        try obtainPermanentIDs(for: inserted)
        if !observers.isEmpty {
            post(ContextNotification(kind: .willSave, changes: changeSummary(saving)))
        }

        var perStore: [String: ChangeSet] = [:]
        var storeOrder: [String] = []
        try coordinator.withStores { stores in
            for object in saving {
                if object.insertedFlag && object.deletedFlag { continue }
                let store = try StoreCoordinator.store(
                    for: object.schema, in: stores, model: schema.model)
                let key = store.description.identifier
                if perStore[key] == nil {
                    perStore[key] = ChangeSet()
                    storeOrder.append(key)
                }
                if object.deletedFlag {
                    perStore[key]?.deleted.append((object.objectID, object.version))
                } else if object.insertedFlag {
                    perStore[key]?.inserted.append(row(of: object))
                } else {
                    var updated = row(of: object)
                    updated.changedPositions = object.changedPositions()
                    perStore[key]?.updated.append(updated)
                }
            }
            let byID = Dictionary(
                uniqueKeysWithValues: stores.map { ($0.description.identifier, $0) })
            var conflicts: [SaveConflict] = []
            for key in storeOrder {
                guard let store = byID[key], let changes = perStore[key] else { continue }
                if store.description.isReadOnly {
                    throw SaveError.store("the store \(key) is read-only")
                }
                conflicts += try store.conflicts(in: changes)
            }
            guard conflicts.isEmpty else { throw SaveError.conflicts(conflicts) }
            var saved: [StoreDescription] = []
            for key in storeOrder {
                guard let store = byID[key], let changes = perStore[key] else { continue }
                do {
                    try store.save(changes)
                    saved.append(store.description)
                } catch {
                    if saved.isEmpty { throw error }
                    commit(
                        saving.filter { object in
                            saved.contains { $0.identifier == object.objectID.storeIdentifier }
                        })
                    throw SaveError.partial(
                        saved: saved, failed: store.description, error: "\(error)")
                }
            }
        }
        let summary = observers.isEmpty ? nil : changeSummary(saving)
        commit(saving)
        if let summary { post(ContextNotification(kind: .didSave, changes: summary)) }
    }

    /// Objects inserted and then deleted have nothing to save: they leave the context (undoing
    /// their deletion brings them back).
    private func forgetInsertedAndDeleted() {
        for object in touched.values where object.insertedFlag && object.deletedFlag {
            touched[ObjectIdentifier(object)] = nil
            registry[object.objectID] = nil
            object.breakReferences()
            object.context = nil
        }
    }

    /// Makes the saved state of `objects` their committed state.
    private func commit(_ objects: [ManagedObject]) {
        for object in objects {
            touched[ObjectIdentifier(object)] = nil
            if object.deletedFlag {
                registry[object.objectID] = nil
                object.breakReferences()
                object.context = nil
                object.didSave()
                continue
            }
            object.version = object.insertedFlag ? 1 : object.version + 1
            object.insertedFlag = false
            object.committed = object.slots
            object.didSave()
        }
    }

    private func changeSummary(_ objects: [ManagedObject]) -> ContextChange {
        var change = ContextChange()
        for object in objects {
            if object.insertedFlag && object.deletedFlag { continue }
            if object.deletedFlag {
                change.deleted.insert(object.objectID)
            } else if object.insertedFlag {
                change.inserted.insert(object.objectID)
            } else {
                change.updated.insert(object.objectID)
            }
        }
        return change
    }

    /// The row a store keeps for `object`.
    func row(of object: ManagedObject) -> StoreRow {
        var values: [StoredValue] = []
        values.reserveCapacity(object.slots.count)
        let transient = object.schema.isTransient
        for (position, slot) in object.slots.enumerated() {
            if transient[position] {
                values.append(.value(.null))
                continue
            }
            switch slot {
            case .value(let value): values.append(.value(value))
            case .toOne(let target): values.append(.toOne(target?.objectID))
            case .toOneFault(let id): values.append(.toOne(id))
            case .toMany(let targets): values.append(.toMany(targets.map(\.objectID)))
            case .toManyFault(let ids): values.append(.toMany(ids))
            }
        }
        return StoreRow(
            id: object.objectID, entityIndex: object.schema.index, version: object.version,
            values: values)
    }
}
