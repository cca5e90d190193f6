/// Running batch requests: each reads the stores' rows (never making objects in this context),
/// works out every row it changes, and writes them in one save of the stores (one transaction
/// per store), so a failure writes nothing.
extension ManagedContext {
    /// Deletes the objects `request` selects, in the store, applying the delete rules (see
    /// ``BatchDeleteRequest``).
    ///
    /// ```swift
    /// var request = BatchDeleteRequest(entityName: "Person", predicate: old)
    /// request.resultType = .count
    /// let deleted = try context.execute(request).count  // cascaded rows included
    /// ```
    /// - Returns: the status, the number of objects deleted or their IDs (rows deleted by
    ///   cascade included), as ``BatchDeleteRequest/resultType`` asks.
    /// - Throws: ``ObjectGraphError`` for an unknown entity or IDs of several entities,
    ///   ``ValidationError`` (rule `deleteDenied`) for a deny rule, ``SaveError`` or a store
    ///   error when the store refuses the change.
    @discardableResult
    public func execute(_ request: BatchDeleteRequest) throws -> BatchResult {
        try retryingConflicts { try batchDelete(request) }
    }

    private func batchDelete(_ request: BatchDeleteRequest) throws -> BatchResult {
        let graph = try batchGraph()
        let matched: [StoreRow]
        if let ids = request.objectIDs {
            matched = try batchRows(for: ids)
        } else {
            let entity = try schema.requireEntity(named: request.entityName)
            let query = try batchQuery(entity, request.predicate, request.includesSubentities)
            if let outcome = try coordinator.execute(.delete(query), origin: historyOrigin) {
                return BatchResult(
                    resultType: request.resultType, changed: outcome.deleted,
                    changesByEntity: Self.changes(
                        deleted: outcome.deleted, updated: outcome.updated))
            }
            matched = try batchMatchingRows(query, graph: graph)
        }
        let deletion = try BatchDeletion(
            deleting: matched, graph: graph, schema: schema,
            holders: { try self.coordinator.rows(ofEntities: $0, in: nil) })
        var changes = ChangeSet()
        changes.deletedEntries = deletion.deleted.map(PendingEntry.row)
        changes.updatedEntries = deletion.nullified.map(PendingEntry.row)
        try commitBatch(changes)
        let deleted = deletion.deleted.map(\.id)
        return BatchResult(
            resultType: request.resultType, changed: deleted,
            changesByEntity: Self.changes(
                deleted: deleted, updated: deletion.nullified.map(\.id)))
    }

    /// Sets the attributes of the objects `request` selects, in the store (see
    /// ``BatchUpdateRequest``).
    ///
    /// ```swift
    /// let request = BatchUpdateRequest(entityName: "Person", values: ["score": 0])
    /// try context.execute(request)
    /// ```
    /// - Returns: the status, the number of objects updated or their IDs.
    /// - Throws: ``ObjectGraphError`` for an unknown entity or property, a relationship, or a
    ///   value of the wrong type; ``ValidationError`` (rule `required`) for `nil` in a required
    ///   attribute; ``StoreError/uniqueConstraint(path:entity:properties:)``; a store error.
    @discardableResult
    public func execute(_ request: BatchUpdateRequest) throws -> BatchResult {
        try retryingConflicts { try batchUpdate(request) }
    }

    private func batchUpdate(_ request: BatchUpdateRequest) throws -> BatchResult {
        let graph = try batchGraph()
        let entity = try schema.requireEntity(named: request.entityName)
        let update = try BatchUpdate(request.propertiesToUpdate, of: entity)
        let query = try batchQuery(entity, request.predicate, request.includesSubentities)
        let batch: StoreBatch =
            if let values = try update.constants(of: entity) {
                .update(query, values: values)
            } else {
                .updateExpressions(query, expressions: try update.expressions(of: entity))
            }
        let updated: [ObjectID]
        if let outcome = try coordinator.execute(batch, origin: historyOrigin) {
            updated = outcome.updated
        } else {
            let matched = try batchMatchingRows(query, graph: graph)
            var changes = ChangeSet()
            changes.updatedEntries = try matched.map {
                .row(try update.apply(to: $0, graph: graph, schema: schema))
            }
            try commitBatch(changes)
            updated = matched.map(\.id)
        }
        return BatchResult(
            resultType: request.resultType, changed: updated,
            changesByEntity: Self.changes(updated: updated))
    }

    /// Inserts the objects `request` describes into the store (see ``BatchInsertRequest``).
    ///
    /// ```swift
    /// let request = BatchInsertRequest(entityName: "Person", objects: [["name": "Ada"]])
    /// try context.execute(request)
    /// ```
    /// - Returns: the status, the number of objects inserted or their (permanent) IDs.
    /// - Throws: ``ObjectGraphError`` for an unknown or abstract entity, an unknown key, a
    ///   relationship or a value of the wrong type; ``ValidationError`` (rule `required`);
    ///   ``StoreError/uniqueConstraint(path:entity:properties:)``; what the handler throws.
    @discardableResult
    public func execute(_ request: BatchInsertRequest) throws -> BatchResult {
        checkQueue("execute")
        drainQueuedWork()
        let entity = try schema.requireEntity(named: request.entityName)
        if entity.entity.isAbstract { throw ObjectGraphError.abstractEntity(entity.name) }
        let dictionaries = try insertedDictionaries(request.source, entity: entity)
        let batch = try BatchInsertion.batch(of: dictionaries, entity: entity)
        guard batch.count > 0 else {
            return BatchResult(resultType: request.resultType, changed: [], changesByEntity: [:])
        }
        // A store inserts the rows by itself (one transaction, no rows built) unless a
        // uniqueness collision is to be resolved by the merge policy, which reads the stored
        // rows.
        if mergePolicy == .error || BatchUpsert.constraints(of: entity, schema).isEmpty,
            let inserted = try coordinator.insert(batch, origin: historyOrigin)
        {
            return BatchResult(
                resultType: request.resultType, changed: inserted,
                changesByEntity: Self.changes(inserted: inserted))
        }
        let values = BatchInsertion.storedValues(batch, entity: entity)
        // The handlers run once; only the reading of stored rows (an upsert's) is repeated.
        return try retryingConflicts { try batchInsert(values, entity: entity, request.resultType) }
    }

    private func batchInsert(
        _ checked: [[StoredValue]], entity: EntitySchema, _ resultType: BatchResultType
    ) throws -> BatchResult {
        var values = checked
        var upserted: [StoreRow] = []
        if mergePolicy != .error, !BatchUpsert.constraints(of: entity, schema).isEmpty {
            let tree = Set(schema.family(of: schema.root(of: entity)).map(\.index))
            let upsert = BatchUpsert(
                values, entity: entity, schema: schema,
                stored: try coordinator.rows(ofEntities: tree, in: nil),
                incomingWins: mergePolicy == .mergeByPropertyObjectTrump
                    || mergePolicy == .overwrite)
            values = upsert.inserts
            upserted = upsert.updates
        }
        let rows = try BatchInsertion.rows(
            values, entity: entity, schema: schema, coordinator: coordinator)
        var changes = ChangeSet(inserting: rows)
        changes.updatedEntries = upserted.map(PendingEntry.row)
        try commitBatch(changes)
        let inserted = rows.map(\.id)
        let updated = upserted.map(\.id)
        return BatchResult(
            resultType: resultType, changed: inserted + updated,
            changesByEntity: Self.changes(inserted: inserted, updated: updated))
    }

    /// The stores' rows as they are now, read without making objects; checks the queue.
    private func batchGraph() throws -> StoredRowGraph {
        checkQueue("execute")
        drainQueuedWork()
        return StoredRowGraph(source: coordinator, generation: nil, schema: schema)
    }

    /// The query of the objects of `entity` (and its subentities when `includesSubentities`)
    /// matching `predicate`.
    private func batchQuery(
        _ entity: EntitySchema, _ predicate: Predicate?, _ includesSubentities: Bool
    ) throws -> StoreQuery {
        if let error = predicate?.keyPathError { throw error }
        let indexes = includesSubentities ? schema.family(of: entity).map(\.index) : [entity.index]
        return StoreQuery(
            entityIndex: entity.index, entityIndexes: Set(indexes), predicate: predicate,
            sortDescriptors: [], offset: 0, limit: 0, result: .rows)
    }

    /// The stored rows `query` matches: selected in SQL where the store can, else evaluated
    /// over the rows.
    private func batchMatchingRows(_ query: StoreQuery, graph: StoredRowGraph) throws
        -> [StoreRow]
    {
        if let rows = try coordinator.rows(answering: query, in: nil) { return rows }
        return try matchingStoredRows(query, graph: graph).map(\.row)
    }

    /// The stored rows of `ids`, all of one entity (IDs of no stored row are skipped).
    private func batchRows(for ids: [ObjectID]) throws -> [StoreRow] {
        let entities = Set(ids.map(\.entityName))
        if entities.count > 1 {
            throw ObjectGraphError.unsupported(
                "a batch delete of object IDs takes one entity's IDs; these are of "
                    + entities.sorted().joined(separator: ", "))
        }
        if let name = entities.first { _ = try schema.requireEntity(named: name) }
        let found = try coordinator.rows(for: ids, in: nil)
        var seen = Set<ObjectID>()
        return ids.compactMap { id in seen.insert(id).inserted ? found[id] : nil }
    }

    /// Writes `changes` in one save of the stores; a store failing after another saved is
    /// thrown as the save's ``SaveError/partial(saved:failed:error:)``.
    private func commitBatch(_ changes: ChangeSet) throws {
        guard !changes.isEmpty else { return }
        try Self.batchWillCommit?()
        if let failure = try coordinator.save(changes, origin: historyOrigin).failure {
            throw failure
        }
    }

    /// How many times a batch request worked out from the stored rows is worked out again
    /// because another writer changed them between its reading and its writing.
    static let batchAttempts = 20

    /// Called (in tests) between a batch request's reading of the stored rows and its save.
    @TaskLocal static var batchWillCommit: (@Sendable () throws -> Void)?

    /// Runs `body` again, reading the rows afresh, while it fails only because another writer
    /// saved some of the rows it read (``SaveError/conflicts(_:)``; nothing was written then),
    /// up to ``batchAttempts`` times in all.
    private func retryingConflicts(_ body: () throws -> BatchResult) throws -> BatchResult {
        var attempt = 1
        while true {
            do {
                return try body()
            } catch SaveError.conflicts where attempt < Self.batchAttempts {
                attempt += 1
            }
        }
    }

    /// The dictionaries of an insert's objects, read from its source.
    private func insertedDictionaries(
        _ source: BatchInsertRequest.Source, entity: EntitySchema
    ) throws -> [[String: Value]] {
        switch source {
        case .objects(let objects):
            return objects
        case .dictionaryHandler(let handler):
            var result: [[String: Value]] = []
            while true {
                var values: [String: Value] = [:]
                if try handler(&values) { return result }
                result.append(values)
            }
        case .managedObjectHandler(let handler):
            // The objects live in a scratch context on the same coordinator, never in this one.
            let scratch = ManagedContext(coordinator: coordinator)
            var result: [[String: Value]] = []
            while true {
                let object = try scratch.insert(entity.name)
                if try handler(object) { return result }
                var values: [String: Value] = [:]
                for position in entity.attributePositions where !entity.isTransient[position] {
                    let name = entity.names[position]
                    values[name] = try object.value(for: name)
                }
                result.append(values)
                scratch.reset()
            }
        }
    }

    /// The changed IDs by kind and entity name (kinds without IDs left out).
    static func changes(
        inserted: [ObjectID] = [], deleted: [ObjectID] = [], updated: [ObjectID] = []
    ) -> [ChangeKey: [String: [ObjectID]]] {
        var result: [ChangeKey: [String: [ObjectID]]] = [:]
        for (key, ids) in [
            (ChangeKey.insertedObjects, inserted), (.deletedObjects, deleted),
            (.updatedObjects, updated),
        ] where !ids.isEmpty {
            // Most requests change one entity's objects: one list, no hashing per ID.
            let first = ids[0].entityName
            result[key] =
                ids.allSatisfy({ $0.entityName == first })
                ? [first: ids] : Dictionary(grouping: ids, by: \.entityName)
        }
        return result
    }
}
