/// Where a context's rows come from and where its saves go: the seam between a context and
/// what stands above it.
///
/// Reads name the query generation they read (`nil`: the live stores; see
/// ``QueryGenerationToken``). A parent answers with its own objects as they are now and reads
/// what it holds only as faults in its own generation, so a child's generation is not used there.
///
/// A root context's source is its ``StoreCoordinator`` (the stores, through the coordinator's
/// lock); a child context's is its parent (``ParentContextSource``), which answers with its own
/// current objects — unsaved inserts (by their temporary IDs), changed values, deletions
/// hidden — and asks its own source for what it holds only as faults. Every question a context
/// asks above itself is one of these; a root context calls the coordinator's methods directly
/// through the existential, one dynamic call per question, never one per row.
protocol RowSource: AnyObject {
    /// Answers `query`: decoded straight into `sink` when the source decodes rows, else as
    /// rows; ``StoreCoordinator/QueryAnswer/unanswered`` when the caller evaluates it over
    /// ``rows(ofEntities:)``.
    func answer<Sink: RowSink>(
        _ query: StoreQuery, in generation: StoreGeneration?, decodingInto sink: inout Sink
    ) throws -> StoreCoordinator.QueryAnswer
    /// The rows matching `query`, in order; `nil` when the source cannot answer it.
    func rows(answering query: StoreQuery, in generation: StoreGeneration?) throws
        -> [StoreRow]?
    /// How many rows `query` matches (offset and limit applied); `nil` when the source cannot
    /// count it.
    func count(_ query: StoreQuery, in generation: StoreGeneration?) throws -> Int?
    /// Every row of the entities (by index).
    func rows(ofEntities entities: Set<Int>, in generation: StoreGeneration?) throws
        -> [StoreRow]
    /// The rows of `ids` the source has, by ID (one read per store, not one per object).
    func rows(for ids: [ObjectID], in generation: StoreGeneration?) throws
        -> [ObjectID: StoreRow]
    /// The row of `id`; `nil` when the source has none (or, for a parent, deleted it).
    func row(for id: ObjectID, in generation: StoreGeneration?) throws -> StoreRow?
    /// The rows of `ids` (all of the store `storeIdentifier`): decoded into `sink` when the
    /// source decodes rows (then none is returned), else returned.
    func rows<Sink: RowSink>(
        for ids: [ObjectID], inStore storeIdentifier: String, generation: StoreGeneration?,
        decodingInto sink: inout Sink
    ) throws -> [StoreRow]
    /// The rows related to each of `owners` through the to-many relationship at `position`.
    func relatedRows<Sink: RowSink>(
        of owners: [ObjectID], inStore storeIdentifier: String, entityIndex: Int, position: Int,
        generation: StoreGeneration?, decodingInto sink: inout Sink
    ) throws -> StoreCoordinator.RelatedAnswer
    /// The IDs the source holds for the to-many relationship at `position` of `id`.
    func relatedIDs(
        of id: ObjectID, entityIndex: Int, position: Int, in generation: StoreGeneration?
    ) throws -> [ObjectID]
    /// Reserves `count` new primary keys in the store of the hierarchy rooted at `rootIndex`.
    func newPrimaryKeys(rootEntity rootIndex: Int, count: Int) throws
        -> (keys: Range<Int64>, storeIdentifier: String)
    /// Tells the source that objects it may hold under the temporary IDs `pairs.from` now have
    /// the permanent IDs `pairs.to` (a child obtained them): the store has nothing to re-key.
    func adoptPermanentIDs(_ pairs: [(from: ObjectID, to: ObjectID)]) throws
    /// The SQL the store runs for `query` (see ``StoreCoordinator/sql(for:)``).
    func sql(for query: StoreQuery) -> String?
    /// What a fetch of `query` logs (see ``StoreCoordinator/sqlLog(for:)``).
    func sqlLog(for query: StoreQuery) -> String
    /// How a fetch of `query` is answered (see ``StoreCoordinator/explain(_:)``).
    func explain(_ query: StoreQuery) throws -> FetchExplanation
    /// Saves `changes` (the objects of `context`): into the stores, or into a parent context
    /// as its own unsaved changes.
    /// - Throws: ``SaveError/conflicts(_:)`` when the other side changed objects `context`
    ///   changed since it read them; nothing is written then.
    func save(_ changes: ChangeSet, from context: ManagedContext) throws -> SaveOutcome
}

extension StoreCoordinator: RowSource {
    func adoptPermanentIDs(_ pairs: [(from: ObjectID, to: ObjectID)]) {}

    func save(_ changes: ChangeSet, from context: ManagedContext) throws -> SaveOutcome {
        try save(changes, origin: context.historyOrigin)
    }
}
