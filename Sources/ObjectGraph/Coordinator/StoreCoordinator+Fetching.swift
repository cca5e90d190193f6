/// Reading: what contexts ask of the stores, each question routed to the store that can answer
/// it, under the coordinator's lock. Contexts never see a store.
extension StoreCoordinator {
    /// How the store holding a query's entities answered it.
    enum QueryAnswer {
        /// The rows were decoded into the sink, in order.
        case decoded
        /// The rows, in order.
        case rows([StoreRow])
        /// No single store holds the query's entities, or the store cannot answer the query:
        /// the caller evaluates it over ``rows(ofEntities:)``.
        case unanswered
    }

    /// Answers `query` in the one store holding its entities: decoded straight into `sink`
    /// when the query asks for whole rows and the store decodes rows, else as rows.
    ///
    /// Every read here takes the generation to read (`nil`: the stores as they are now; see
    /// ``StoreGeneration``).
    func answer<Sink: RowSink>(
        _ query: StoreQuery, in generation: StoreGeneration?, decodingInto sink: inout Sink
    ) throws -> QueryAnswer {
        try withStores(in: generation) { stores in
            guard let store = Self.onlyStore(for: query.entityIndexes, in: stores, schema: schema)
            else { return .unanswered }
            if query.result == .rows, let decoding = store.rowDecoding {
                return try decoding.fetchDecoded(query, into: &sink) ? .decoded : .unanswered
            }
            return try store.fetch(query).map(QueryAnswer.rows) ?? .unanswered
        }
    }

    /// The rows of the one store holding `query`'s entities that match it, in order; `nil`
    /// when no single store holds them or the store cannot answer.
    func rows(answering query: StoreQuery, in generation: StoreGeneration?) throws
        -> [StoreRow]?
    {
        try withStores(in: generation) { stores in
            try Self.onlyStore(for: query.entityIndexes, in: stores, schema: schema)?.fetch(query)
        }
    }

    /// How many rows `query` matches in the one store holding its entities; `nil` when no
    /// single store holds them or the store cannot count it.
    func count(_ query: StoreQuery, in generation: StoreGeneration?) throws -> Int? {
        try withStores(in: generation) { stores in
            try Self.onlyStore(for: query.entityIndexes, in: stores, schema: schema)?.count(query)
        }
    }

    /// Every row of the entities (by index), from every store, in store order.
    func rows(ofEntities entities: Set<Int>, in generation: StoreGeneration?) throws
        -> [StoreRow]
    {
        try withStores(in: generation) { stores in
            try stores.flatMap { try $0.rows(ofEntities: entities) }
        }
    }

    /// The row of `id`, from its store; `nil` when no store has it.
    func row(for id: ObjectID, in generation: StoreGeneration?) throws -> StoreRow? {
        try withStores(in: generation) { stores in
            try Self.store(identifiedBy: id.storeIdentifier, in: stores)?.row(for: id)
        }
    }

    /// The rows of `ids` (all of the store `storeIdentifier`) that the store has: decoded into
    /// `sink` when the store decodes rows (then none is returned), else returned.
    func rows<Sink: RowSink>(
        for ids: [ObjectID], inStore storeIdentifier: String, generation: StoreGeneration?,
        decodingInto sink: inout Sink
    ) throws -> [StoreRow] {
        try withStores(in: generation) { stores in
            guard let store = Self.store(identifiedBy: storeIdentifier, in: stores) else {
                return []
            }
            if let decoding = store.rowDecoding {
                try decoding.decodedRows(for: ids, into: &sink)
                return []
            }
            return try store.rows(for: ids)
        }
    }

    /// How a store answered a question about related rows.
    enum RelatedAnswer {
        /// The rows were decoded into the sink, each in the group of its owner.
        case decoded
        /// The rows related to each owner, in relationship order.
        case rows([ObjectID: [StoreRow]])
        /// The store keeps relationship lists in its rows already (or is gone).
        case unanswered
    }

    /// The rows related to each of `owners` (all of the entity at `entityIndex`, in the store
    /// `storeIdentifier`) through the to-many relationship at `position`: decoded into `sink`,
    /// each in the group of its owner's index in `owners`, when the store decodes rows.
    func relatedRows<Sink: RowSink>(
        of owners: [ObjectID], inStore storeIdentifier: String, entityIndex: Int, position: Int,
        generation: StoreGeneration?, decodingInto sink: inout Sink
    ) throws -> RelatedAnswer {
        try withStores(in: generation) { stores in
            guard let store = Self.store(identifiedBy: storeIdentifier, in: stores) else {
                return .unanswered
            }
            if let decoding = store.rowDecoding {
                return try decoding.relatedDecodedRows(
                    of: owners, entityIndex: entityIndex, position: position, into: &sink)
                    ? .decoded : .unanswered
            }
            return try store.relatedRows(of: owners, entityIndex: entityIndex, position: position)
                .map(RelatedAnswer.rows) ?? .unanswered
        }
    }

    /// The IDs the store of `id` holds for the to-many relationship at `position` of that
    /// object (of the entity at `entityIndex`).
    /// - Throws: ``ObjectGraphError/objectNotFound(_:)`` when no store of this coordinator has
    ///   the object's store identifier.
    func relatedIDs(
        of id: ObjectID, entityIndex: Int, position: Int, in generation: StoreGeneration?
    ) throws -> [ObjectID] {
        try withStores(in: generation) { stores in
            guard let store = Self.store(identifiedBy: id.storeIdentifier, in: stores) else {
                throw ObjectGraphError.objectNotFound(id)
            }
            return try store.relatedIDs(of: id, entityIndex: entityIndex, position: position)
        }
    }

    /// Reserves `count` new primary keys for objects of the inheritance tree rooted at the
    /// entity at `rootIndex`, in the store that holds it: a run of keys, and the store's
    /// identifier (for the objects' IDs).
    func newPrimaryKeys(rootEntity rootIndex: Int, count: Int) throws
        -> (keys: Range<Int64>, storeIdentifier: String)
    {
        try withStoresLocked { stores in
            let store = try Self.store(
                for: schema.entities[rootIndex], in: stores, model: schema.model)
            let keys = try store.newPrimaryKeys(rootEntity: rootIndex, count: count)
            return (keys, store.description.identifier)
        }
    }

    /// The SQL (with its bound arguments after `--`) the store holding `query`'s entities runs
    /// for it; `nil` when the query is answered in memory (a store that does not speak SQL,
    /// several stores, or a predicate part without a SQL translation).
    func sql(for query: StoreQuery) -> String? {
        withStoresLocked { stores in
            guard
                let store = Self.onlyStore(for: query.entityIndexes, in: stores, schema: schema)?
                    .sqlQuerying
            else { return nil }
            return store.sqlText(for: query)
        }
    }

    /// What the store holding `query`'s entities logs for it: the SQL it runs (with its
    /// bound arguments after `--`), or a comment line saying why the query is evaluated in
    /// memory (`-- evaluated in memory: <reason>`).
    func sqlLog(for query: StoreQuery) -> String {
        withStoresLocked { stores in
            guard let store = Self.onlyStore(for: query.entityIndexes, in: stores, schema: schema)
            else {
                return Self.inMemoryLine("the fetched entities are in more than one store")
            }
            guard let querying = store.sqlQuerying else {
                return Self.inMemoryLine("the \(store.description.type) store does not run SQL")
            }
            if let sql = querying.sqlText(for: query) { return sql }
            return Self.inMemoryLine(querying.inMemoryReason(for: query) ?? "no SQL translation")
        }
    }

    /// The log line of a query evaluated in memory, on one line whatever the reason holds.
    private static func inMemoryLine(_ reason: String) -> String {
        "-- evaluated in memory: "
            + reason.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(
                of: "\n", with: " ")
    }
}
