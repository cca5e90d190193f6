import Foundation

/// Fetching: objects, object IDs, counts and dictionaries, with pending changes taken into
/// account the way Core Data does.
extension ManagedContext {
    /// The objects matching `request`, sorted, offset and limited.
    ///
    /// With `includesPendingChanges` (the default) unsaved inserts appear, deleted objects do
    /// not, and edited objects match by their new values.
    /// - Throws: ``ObjectGraphError`` for an unknown entity, or the predicate's
    ///   ``PredicateEvaluationError`` (an unknown key, a type error, an unbound variable).
    ///
    /// With ``FetchRequest/includesPropertyValues`` `false` only IDs are read and objects the
    /// context does not hold come back as faults; with
    /// ``FetchRequest/shouldRefreshRefetchedObjects`` objects the context held loaded take the
    /// store's current values (their unsaved changes kept on top).
    public func fetch<T: ManagedObject>(_ request: FetchRequest<T>) throws -> [T] {
        let noPrefetch = request.relationshipKeyPathsForPrefetching.isEmpty
        let batched = request.fetchBatchSize > 0 && noPrefetch
        let idsOnly = batched || (!request.includesPropertyValues && noPrefetch)
        let heldLoaded = request.shouldRefreshRefetchedObjects ? loadedObjectIDs() : []
        let objects = try matchingObjects(request, result: idsOnly ? .ids : .rows)
        if !heldLoaded.isEmpty {
            // Their rows read again together, not one read per object.
            try refreshMerging(objects.filter { heldLoaded.contains($0.objectID) })
        }
        if batched {
            let faults = objects.filter { $0.state == .fault }.map(\.objectID)
            for start in stride(from: 0, to: faults.count, by: request.fetchBatchSize) {
                let batch = Array(faults[start..<min(start + request.fetchBatchSize, faults.count)])
                for id in batch { faultBatches[id] = batch }
            }
        }
        if !request.relationshipKeyPathsForPrefetching.isEmpty {
            try prefetch(objects, keyPaths: request.relationshipKeyPathsForPrefetching)
        }
        if !request.returnsObjectsAsFaults {
            // Fully realized, as asked: the objects with values are not faults.
            for object in objects where object.state == .loaded { object.isUnfired = false }
        }
        // Plain objects need no cast per object: [ManagedObject] is [T] then.
        if T.self == ManagedObject.self { return unsafeBitCast(objects, to: [T].self) }
        return objects.compactMap { $0 as? T }
    }

    /// The IDs of the saved objects the context holds loaded (what a refreshing fetch reads
    /// again when it returns them).
    func loadedObjectIDs() -> Set<ObjectID> {
        var ids = Set<ObjectID>()
        for object in registry.values where object.state == .loaded && !object.insertedFlag {
            ids.insert(object.objectID)
        }
        return ids
    }

    /// The IDs of the objects matching `request`.
    public func fetchObjectIDs<T: ManagedObject>(_ request: FetchRequest<T>) throws -> [ObjectID] {
        try matchingObjects(request, result: .ids).map(\.objectID)
    }

    /// How many objects match `request` (after offset and limit).
    public func count<T: ManagedObject>(for request: FetchRequest<T>) throws -> Int {
        let entity = try fetchEntity(request)
        let query = storeQuery(request, entity: entity, result: .ids, limits: true)
        if !hasPendingChanges(in: query.entityIndexes, request) {
            if let counted = try source.count(query, in: readingGeneration()) {
                return counted
            }
            // Counted over the saved rows, without making an object for each.
            let graph = try storedRowGraph(from: source)
            var unsorted = query
            unsorted.sortDescriptors = []  // a count needs no order
            let matching = try matchingStoredRows(unsorted, graph: graph).count
            let afterOffset = max(0, matching - max(0, query.offset))
            return query.limit > 0 ? min(afterOffset, query.limit) : afterOffset
        }
        return try matchingObjects(request, result: .ids).count
    }

    /// The objects matching `request`, in order; offset and limit applied when asked.
    ///
    /// The store answers the query by its saved rows: in SQL when it can, otherwise the
    /// context evaluates it in memory over the saved rows (``matchingStoredRows(_:graph:)``), so
    /// every store gives the same answer. Pending changes are then laid over that answer:
    /// pending objects are dropped from it and re-tested by their live values, inserted
    /// objects added, and the whole sorted and limited in memory.
    ///
    /// `needsKeyOrder`: saved rows come in key order without sort descriptors, offset or limit
    /// too (see ``StoreQuery/needsKeyOrder``; a child context's query may ask it).
    func matchingObjects<T: ManagedObject>(
        _ request: FetchRequest<T>, applyingLimits: Bool = true, result: StoreQuery.Result = .rows,
        needsKeyOrder: Bool = false
    ) throws -> [ManagedObject] {
        let entity = try fetchEntity(request)
        var query = storeQuery(request, entity: entity, result: result, limits: false)
        // Limited here over pending changes: the saved rows in key order, as unsorted pages are.
        query.needsKeyOrder = needsKeyOrder || request.fetchOffset > 0 || request.fetchLimit > 0
        let familyIndexes = query.entityIndexes
        let pending =
            request.includesPendingChanges
            ? touched.values.filter { familyIndexes.contains($0.schema.index) && $0.hasUnsavedWork }
                .sorted { ObjectID.precedes($0.objectID, $1.objectID) }
            : []
        if applyingLimits && pending.isEmpty {
            query.offset = request.fetchOffset
            query.limit = request.fetchLimit
        }
        let fetched = try objectsAnswered(by: query) ?? storeAnswerInMemory(query)
        if pending.isEmpty { return fetched }
        let pendingIDs = Set(pending.map(\.objectID))
        var matches = fetched.filter { !pendingIDs.contains($0.objectID) }
        for object in pending where !object.deletedFlag {
            if try request.predicate?.evaluate(with: object) ?? true { matches.append(object) }
        }
        if !request.sortDescriptors.isEmpty {
            matches = try sorted(matches, by: request.sortDescriptors)
        }
        guard applyingLimits else { return matches }
        return Self.limit(matches, offset: request.fetchOffset, limit: request.fetchLimit)
    }

    /// The objects for the rows the one store holding the query's entities answers it with,
    /// in order; `nil` when no single store can answer it.
    ///
    /// Stores that can decode their rows straight into slots and hand them over one at a time
    /// (see ``RowRegistrar``), without values for the objects the context holds loaded
    /// already.
    private func objectsAnswered(by query: StoreQuery) throws -> [ManagedObject]? {
        var registrar = RowRegistrar(context: self)
        // A root context asks its coordinator directly: the decoding path specialized as before.
        let generation = try readingGeneration()
        let answer =
            if let upstream = family.upstream {
                try upstream.answer(query, in: generation, decodingInto: &registrar)
            } else {
                try coordinator.answer(query, in: generation, decodingInto: &registrar)
            }
        switch answer {
        case .decoded:
            try registrar.finish()
            return registrar.objects
        case .rows(let rows):
            return rows.map { row in
                query.result == .ids ? materializeFault(for: row) : materialize(row)
            }
        case .unanswered:
            return nil
        }
    }

    func storeQuery<T: ManagedObject>(
        _ request: FetchRequest<T>, entity: EntitySchema, result: StoreQuery.Result, limits: Bool
    ) -> StoreQuery {
        let family =
            request.includesSubentities
            ? schema.family(of: entity) : [entity]
        return StoreQuery(
            entityIndex: entity.index, entityIndexes: Set(family.map(\.index)),
            predicate: request.predicate, sortDescriptors: request.sortDescriptors,
            offset: limits ? request.fetchOffset : 0, limit: limits ? request.fetchLimit : 0,
            result: result)
    }

    func hasPendingChanges<T: ManagedObject>(
        in entities: Set<Int>, _ request: FetchRequest<T>
    ) -> Bool {
        request.includesPendingChanges
            && touched.values.contains { entities.contains($0.schema.index) && $0.hasUnsavedWork }
    }

    /// The objects of the saved rows matching `query`, found in memory over every row of its
    /// entities (stores that leave fetching to the context, or entities in several stores):
    /// the answer a SQL store gives, decided by the saved values, whatever the objects this
    /// context holds say (the caller lays pending changes over it).
    private func storeAnswerInMemory(_ query: StoreQuery) throws -> [ManagedObject] {
        let graph = try storedRowGraph(from: source)
        let rows = Self.limit(
            try matchingStoredRows(query, graph: graph), offset: query.offset, limit: query.limit)
        return rows.map {
            query.result == .ids ? materializeFault(for: $0.row) : materialize($0.row)
        }
    }

    /// The saved rows of `query`'s entities (from every store) matching its predicate, in the
    /// order of its sort descriptors (store order without), read through `graph`.
    func matchingStoredRows(_ query: StoreQuery, graph: StoredRowGraph) throws
        -> [StoredRowView]
    {
        var seen = Set<ObjectID>()
        var matches: [StoredRowView] = []
        for row in try graph.source.rows(ofEntities: query.entityIndexes, in: graph.generation)
        where seen.insert(row.id).inserted {
            let view = graph.view(of: row)
            if try query.predicate?.evaluate(with: view) ?? true { matches.append(view) }
        }
        guard !query.sortDescriptors.isEmpty else { return matches }
        return try sorted(matches, by: query.sortDescriptors)
    }

    static func limit<E>(_ items: [E], offset: Int, limit: Int) -> [E] {
        let start = min(max(offset, 0), items.count)
        let end = limit > 0 ? min(start + limit, items.count) : items.count
        return Array(items[start..<end])
    }

    func fetchEntity<T: ManagedObject>(_ request: FetchRequest<T>) throws -> EntitySchema {
        // Every fetch, count and dictionary fetch starts here.
        checkQueue("fetch")
        drainQueuedWork()
        // A key-path predicate that could not name a key fails here, never as another query.
        if let error = request.predicate?.keyPathError ?? request.havingPredicate?.keyPathError {
            throw error
        }
        if let name = request.entityName { return try schema.requireEntity(named: name) }
        guard let name = classes.entityName(for: T.self, in: schema.model) else {
            throw ObjectGraphError.unsupported(
                "the fetch request names no entity and \(T.self) is not registered for one")
        }
        return try schema.requireEntity(named: name)
    }

    /// Sorts objects (or anything read by key) by the descriptors (stable: ties keep their
    /// order).
    func sorted<Item: KeyValueReadable>(_ objects: [Item], by descriptors: [SortDescriptor])
        throws -> [Item]
    {
        let keyPaths = try SortDescriptor.keyExpressions(descriptors)
        var keyed: [(index: Int, object: Item, keys: [Value])] = []
        keyed.reserveCapacity(objects.count)
        for (index, object) in objects.enumerated() {
            let keys = try keyPaths.map { expression -> Value in
                if case .value(let value) = try expression.evaluate(with: object) { return value }
                return .null
            }
            keyed.append((index, object, keys))
        }
        keyed.sort { lhs, rhs in
            SortDescriptor.precedes(lhs.keys, rhs.keys, by: descriptors) ?? (lhs.index < rhs.index)
        }
        return keyed.map(\.object)
    }
}

extension FetchRequest where Result == ManagedObject {
    /// Creates a request for the entity named `entityName`, returning plain managed objects.
    public init(
        entityName: String, predicate: Predicate? = nil, sortDescriptors: [SortDescriptor] = []
    ) {
        self.init(
            entityName: Optional(entityName), predicate: predicate, sortDescriptors: sortDescriptors
        )
    }
}

extension EntityModel {
    /// A fetch request made from the model's fetch request template `name`, with its
    /// `$VARIABLES` replaced by `variables`.
    ///
    /// ```swift
    /// let request = try model.fetchRequest(fromTemplate: "studentsByPrefix",
    ///                                      variables: ["PREFIX": "A"])
    /// ```
    /// - Throws: ``ObjectGraphError`` when there is no such template, or its predicate does
    ///   not parse (the ``PredicateSyntaxError`` text included).
    public func fetchRequest(fromTemplate name: String, variables: [String: Value] = [:]) throws
        -> FetchRequest<ManagedObject>
    {
        guard let template = fetchTemplate(named: name) else {
            throw ObjectGraphError.unsupported("the model has no fetch request template '\(name)'")
        }
        var request = FetchRequest(entityName: template.entityName)
        if let format = template.predicateString, !format.isEmpty {
            do {
                request.predicate = try Predicate(format: format).withSubstitutionVariables(
                    variables)
            } catch {
                throw ObjectGraphError.unsupported(
                    "the predicate of template '\(name)' does not parse: \(error)")
            }
        }
        request.fetchLimit = template.fetchLimit ?? 0
        request.fetchBatchSize = template.fetchBatchSize ?? 0
        request.includesSubentities = true
        request.returnsDistinctResults = template.returnsDistinctResults
        return request
    }
}

extension ManagedContext {
    /// The SQL (with its bound arguments after `--`) a SQLite store runs for `request`, or
    /// `nil` when the request is answered in memory (another store type, or a predicate part
    /// that has no SQL translation).
    ///
    /// ```swift
    /// print(try context.sql(for: request) ?? "evaluated in memory")
    /// // SELECT t0."Z_PK", … FROM "ZPERSON" AS t0 WHERE … -- 30, 'J'
    /// ```
    public func sql<T: ManagedObject>(for request: FetchRequest<T>) throws -> String? {
        let entity = try fetchEntity(request)
        let query = storeQuery(request, entity: entity, result: .rows, limits: true)
        return source.sql(for: query)
    }

    /// What a fetch of `request` logs: the SQL (with its bound arguments after `--`) a SQLite
    /// store runs for it, or a comment line saying why it is evaluated in memory — another
    /// store type, a predicate part without a SQL translation, or a statement SQLite refuses
    /// as too deep or too large. The answer is the same either way.
    ///
    /// ```swift
    /// print(try context.sqlLog(for: request))
    /// // -- evaluated in memory: SQLite cannot prepare the statement (parser stack overflow)
    /// ```
    public func sqlLog<T: ManagedObject>(for request: FetchRequest<T>) throws -> String {
        let entity = try fetchEntity(request)
        let query = storeQuery(request, entity: entity, result: .rows, limits: true)
        return source.sqlLog(for: query)
    }
}
