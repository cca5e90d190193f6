import Foundation
import PostgresClient

/// Decodes the rows of one statement of a ``PostgresStore`` (columns of their table in table
/// order, `Z_PK`, `Z_ENT` and `Z_OPT` first), keeping what is the same from row to row: the
/// last row's entity, with its ID space and read plan. Make one per statement and use it for
/// every row, read in place from a cursor (a concrete type: its reads are direct calls, and
/// every value's decoding is specialized for it, even under a generic sink).
struct PostgresRowDecoder {
    let store: PostgresStore
    /// The `Z_ENT` of the last row, and its entity's schema index, ID space and steps.
    private var entityNumber: Int64?
    private var entityIndex = 0
    private var space: ObjectIDSpace?
    private var steps: [PostgresReadPlan.Step] = []

    init(store: PostgresStore) { self.store = store }

    /// The row as a ``StoreRow``, its to-many relationships unread; `nil` for a row of no
    /// known entity.
    mutating func storeRow(_ row: PostgresCursor) throws -> StoreRow? {
        guard let header = try header(row) else { return nil }
        var values: [StoredValue] = []
        values.reserveCapacity(steps.count)
        try appendValues(row, key: header.key, to: &values)
        return StoreRow(
            id: header.id, entityIndex: entityIndex, version: header.version, values: values)
    }

    /// Decodes the row and hands it to `sink` (in `group`), writing its values only when the
    /// sink asks for them. A row of no known entity is skipped.
    mutating func decode<Sink: RowSink>(
        _ row: PostgresCursor, into sink: inout Sink, group: Int? = nil
    ) throws {
        guard let header = try header(row) else { return }
        try sink.take(
            id: header.id, entityIndex: entityIndex, version: header.version,
            width: steps.count, group: group
        ) { values in
            try appendValues(row, key: header.key, to: &values)
        }
    }

    /// The ID, key and version of the row (its entity found and remembered); `nil` for a row
    /// of no known entity. A row without a key throws.
    private mutating func header(_ row: PostgresCursor) throws
        -> (id: ObjectID, key: Int64, version: Int64)?
    {
        let key = try row.int64(0)
        guard let number = try row.int64OrNil(1) else { return nil }
        if number != entityNumber {
            guard let index = store.schemaIndexByNumber[Int(truncatingIfNeeded: number)] else {
                return nil
            }
            entityNumber = number
            entityIndex = index
            space = store.idSpace(store.schema.entities[index].name)
            steps = store.readPlan(for: index).steps
        }
        guard let space else { return nil }
        let version = try row.int64OrNil(2) ?? 0
        return (ObjectID(space: space, key: .permanent(key)), key, version)
    }

    /// Appends the values of the row (of the entity ``header(_:)`` found) to `values`, one
    /// per property position.
    private func appendValues(
        _ row: PostgresCursor, key: Int64, to values: inout some RowValueWriter
    ) throws {
        for position in steps.indices {
            switch steps[position] {
            case .attribute(let column, let type):
                do {
                    values.append(
                        try PostgresValueCoding.value(in: row, column: column, type: type))
                } catch {
                    let entity = store.schema.entities[entityIndex]
                    throw StoreError.postgres(
                        url: store.path,
                        message: "\(entity.name).\(entity.names[position]) of row \(key): \(error)"
                    )
                }
            case .toOne(let column, let entityColumn, let destination):
                guard let target = try row.int64OrNil(column) else {
                    values.appendToOne(nil)
                    continue
                }
                if let entityColumn, let targetNumber = try row.int64OrNil(entityColumn),
                    let targetIndex = store.schemaIndexByNumber[
                        Int(truncatingIfNeeded: targetNumber)]
                {
                    values.appendToOne(
                        space: store.idSpace(store.schema.entities[targetIndex].name), key: target)
                } else {
                    values.appendToOne(space: destination, key: target)
                }
            case .toMany: values.appendUnreadToMany()
            case .transient: values.append(.null)
            }
        }
    }
}
