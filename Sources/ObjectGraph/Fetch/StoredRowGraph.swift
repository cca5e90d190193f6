/// The rows of the stores as they are saved, read for predicates and key paths without making
/// objects: what a dictionary fetch sees (Core Data's dictionary results reflect the persistent
/// store only, never a context's pending changes).
///
/// Related rows are read from their stores on first use and kept for the rest of the fetch
/// (the rows a fetch walks are not: a fetch of many rows keeps no table of them).
final class StoredRowGraph {
    /// Where the rows come from: the coordinator (the stores' saved rows), or for a child
    /// context's fetches its parent.
    let source: any RowSource
    /// The generation read (`nil`: the stores as they are now).
    let generation: StoreGeneration?
    private let schema: ModelSchema
    private var rows: [ObjectID: StoreRow] = [:]
    private var related: [RelatedKey: [ObjectID]] = [:]

    init(source: any RowSource, generation: StoreGeneration?, schema: ModelSchema) {
        self.source = source
        self.generation = generation
        self.schema = schema
    }

    /// A readable view of `row`.
    func view(of row: StoreRow) -> StoredRowView {
        StoredRowView(row: row, graph: self)
    }

    /// The view of the row of `id`; `nil` when no store has it (a dangling reference reads
    /// as nil, as in SQL's LEFT JOIN).
    func view(of id: ObjectID) throws -> StoredRowView? {
        if let row = rows[id] { return StoredRowView(row: row, graph: self) }
        guard let row = try source.row(for: id, in: generation) else { return nil }
        rows[id] = row
        return view(of: row)
    }

    /// The saved targets of the to-many relationship at `position` of `row`.
    func targets(of row: StoreRow, position: Int) throws -> [ObjectID] {
        if case .toMany(let ids?) = row.values[position] { return ids }
        let key = RelatedKey(id: row.id, position: position)
        if let known = related[key] { return known }
        let ids = try source.relatedIDs(
            of: row.id, entityIndex: row.entityIndex, position: position, in: generation)
        related[key] = ids
        return ids
    }

    func entity(of row: StoreRow) -> EntitySchema { schema.entities[row.entityIndex] }

    private struct RelatedKey: Hashable {
        let id: ObjectID
        let position: Int
    }
}

/// One saved row read as an object by the predicate evaluator: attributes give their stored
/// values, to-one relationships the related row, to-many relationships the related rows.
struct StoredRowView: KeyValueReadable {
    let row: StoreRow
    let graph: StoredRowGraph

    func predicateValue(forKey key: String) throws -> EvaluationValue {
        let entity = graph.entity(of: row)
        guard let position = entity.positionByName[key] else {
            throw PredicateEvaluationError.unknownKey(key, in: entity.name)
        }
        guard position < row.values.count else { return .null }
        switch row.values[position] {
        case .value(let value):
            return .value(value)
        case .toOne(let id):
            guard let id, let target = try graph.view(of: id) else { return .null }
            return .object(target)
        case .toMany:
            return .collection(
                try graph.targets(of: row, position: position).compactMap { id in
                    try graph.view(of: id).map { .object($0) }
                })
        }
    }

    var predicateObjectID: ObjectID? { row.id }
}

extension ManagedContext {
    /// A graph of the saved rows this context reads (its query generation's, when pinned), from
    /// the stores, or from `source` (a child's parent, for counts a store cannot answer).
    func storedRowGraph(from source: (any RowSource)? = nil) throws -> StoredRowGraph {
        StoredRowGraph(
            source: source ?? coordinator, generation: try readingGeneration(), schema: schema)
    }
}
