/// The rows of a ``PostgresStore`` read for a predicate inside the store (a batch request's
/// rows chosen in memory, in the batch's transaction): attributes give their stored values,
/// to-one relationships the related row, to-many relationships the related rows, as the
/// context's evaluator reads saved rows. Related rows are read on first use and kept for the
/// graph's life.
final class PostgresRowGraph {
    let store: PostgresStore
    private var rows: [ObjectID: StoreRow] = [:]
    private var related: [RelatedKey: [ObjectID]] = [:]

    init(store: PostgresStore) { self.store = store }

    /// A readable view of `row`.
    func view(of row: StoreRow) -> PostgresRowView { PostgresRowView(row: row, graph: self) }

    /// The view of the row of `id`; `nil` when the store has none (a dangling reference reads
    /// as nil, as SQL's LEFT JOIN does).
    func view(of id: ObjectID) throws -> PostgresRowView? {
        if let row = rows[id] { return view(of: row) }
        guard let row = try store.row(for: id) else { return nil }
        rows[id] = row
        return view(of: row)
    }

    /// The targets of the to-many relationship at `position` of `row`.
    func targets(of row: StoreRow, position: Int) throws -> [ObjectID] {
        if case .toMany(let ids?) = row.values[position] { return ids }
        let key = RelatedKey(id: row.id, position: position)
        if let known = related[key] { return known }
        let ids = try store.relatedIDs(of: row.id, entityIndex: row.entityIndex, position: position)
        related[key] = ids
        return ids
    }

    private struct RelatedKey: Hashable {
        let id: ObjectID
        let position: Int
    }
}

/// One row of a ``PostgresRowGraph`` read as an object by the predicate evaluator.
struct PostgresRowView: KeyValueReadable {
    let row: StoreRow
    let graph: PostgresRowGraph

    func predicateValue(forKey key: String) throws -> EvaluationValue {
        let entity = graph.store.schema.entities[row.entityIndex]
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
