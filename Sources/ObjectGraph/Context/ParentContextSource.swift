/// A child context's ``RowSource``: its parent context, which answers with its own current
/// objects and takes the child's saves as its own unsaved changes.
///
/// The child holds its parent strongly, as Core Data's `parentContext` does: a parent lives
/// as long as any child, so a child never finds its parent gone; and the parent is fixed when
/// the child is made, so no chain of parents can loop.
///
/// Every call from a child into its parent goes through ``withParent(_:)``.
final class ParentContextSource: RowSource {
    /// The parent context.
    let parent: ManagedContext
    /// The child's queue, once the child is made: the child is in the middle of one of its
    /// operations (a fetch, a fault, a save) whenever it calls its parent.
    var childQueue: ContextQueue?

    init(parent: ManagedContext) {
        self.parent = parent
    }

    /// Runs `body` with the parent, in the parent's isolation: the one way a child reaches its
    /// parent. It enters the parent's queue as ``ManagedContext/performAndWait(_:)`` does
    /// (inline for a confined parent, or when this thread is inside the parent's queue already;
    /// re-entrant, so a parent's `performAndWait` called from its child's queue runs). While it
    /// waits for the parent, the thread does not run other threads' blocks on the child's
    /// queue (see ``ContextQueue/runSync(midOperationOf:_:)``): the child is halfway through
    /// an operation.
    func withParent<T, E: Error>(_ body: (ManagedContext) throws(E) -> T) throws(E) -> T {
        try parent.queue.runSync(midOperationOf: childQueue) { () throws(E) -> T in
            try body(parent)
        }
    }

    func answer<Sink: RowSink>(
        _ query: StoreQuery, in generation: StoreGeneration?, decodingInto sink: inout Sink
    ) throws -> StoreCoordinator.QueryAnswer {
        .rows(try withParent { try $0.rowsForChild(answering: query) })
    }

    func rows(answering query: StoreQuery, in generation: StoreGeneration?) throws
        -> [StoreRow]?
    {
        try withParent { try $0.rowsForChild(answering: query) }
    }

    func count(_ query: StoreQuery, in generation: StoreGeneration?) throws -> Int? {
        try withParent { try $0.countForChild(query) }
    }

    func rows(ofEntities entities: Set<Int>, in generation: StoreGeneration?) throws
        -> [StoreRow]
    {
        try withParent { try $0.rowsForChild(ofEntities: entities) }
    }

    func row(for id: ObjectID, in generation: StoreGeneration?) throws -> StoreRow? {
        try withParent { try $0.rowForChild(id) }
    }

    func rows(for ids: [ObjectID], in generation: StoreGeneration?) throws
        -> [ObjectID: StoreRow]
    {
        try withParent { parent in
            var rows: [ObjectID: StoreRow] = [:]
            for id in ids { rows[id] = try parent.rowForChild(id) }
            return rows
        }
    }

    func rows<Sink: RowSink>(
        for ids: [ObjectID], inStore storeIdentifier: String, generation: StoreGeneration?,
        decodingInto sink: inout Sink
    ) throws -> [StoreRow] {
        try withParent { parent in try ids.compactMap { try parent.rowForChild($0) } }
    }

    /// A parent answers relationship faults one owner at a time (``relatedIDs(of:entityIndex:position:in:)``).
    func relatedRows<Sink: RowSink>(
        of owners: [ObjectID], inStore storeIdentifier: String, entityIndex: Int, position: Int,
        generation: StoreGeneration?, decodingInto sink: inout Sink
    ) throws -> StoreCoordinator.RelatedAnswer {
        .unanswered
    }

    func relatedIDs(
        of id: ObjectID, entityIndex: Int, position: Int, in generation: StoreGeneration?
    ) throws -> [ObjectID] {
        try withParent {
            try $0.relatedIDsForChild(of: id, entityIndex: entityIndex, position: position)
        }
    }

    func newPrimaryKeys(rootEntity rootIndex: Int, count: Int) throws
        -> (keys: Range<Int64>, storeIdentifier: String)
    {
        try withParent { try $0.source.newPrimaryKeys(rootEntity: rootIndex, count: count) }
    }

    func adoptPermanentIDs(_ pairs: [(from: ObjectID, to: ObjectID)]) throws {
        try withParent { try $0.adoptPermanentIDs(pairs) }
    }

    func sql(for query: StoreQuery) -> String? {
        withParent { $0.source.sql(for: query) }
    }

    func sqlLog(for query: StoreQuery) -> String {
        withParent { $0.source.sqlLog(for: query) }
    }

    func explain(_ query: StoreQuery) throws -> FetchExplanation {
        try withParent { try $0.source.explain(query) }
    }

    func save(_ changes: ChangeSet, from context: ManagedContext) throws -> SaveOutcome {
        try withParent { try $0.receiveChildSave(changes, from: context) }
        return SaveOutcome(saved: [changes], failure: nil)
    }

    /// Tells the parent's other children that `child` saved into it (see
    /// ``ManagedContext/parentDidSave(_:)``).
    func childDidSave(_ notification: ContextNotification, from child: ManagedContext) {
        withParent { $0.notifyChildren(of: notification, except: child) }
    }
}
