import Foundation
import SQLiteDatabase

/// Decodes the rows of one run of a query (columns of their table in table order, `Z_PK`,
/// `Z_ENT` and `Z_OPT` first), keeping what is the same from row to row: the last row's
/// entity, with its name, ID space and decoding steps. Make one per run and use it for every
/// row.
struct SQLiteRowDecoder {
    let store: SQLiteStore
    /// The `Z_ENT` of the last row, and its entity's schema index, name, ID space and steps.
    private var entityNumber: Int64 = -1
    private var entityIndex = 0
    private var entityName = ""
    private var space: ObjectIDSpace?
    private var steps: [RowDecodingPlan.Step] = []

    /// The `Z_ENT` of every row, when the rows are of a table holding one entity only (their
    /// `Z_ENT` column is not read then).
    private let soleEntityNumber: Int64?

    /// A decoder of rows of `table` (`nil`: rows of any table, or several).
    init(store: SQLiteStore, table: String? = nil) {
        self.store = store
        soleEntityNumber = table.flatMap { store.soleEntityNumbers[$0] }
    }

    /// The row under `cursor` as a ``StoreRow``; `nil` for a row of no known entity.
    mutating func storeRow(_ cursor: RowCursor) throws -> StoreRow? {
        guard let header = try header(cursor) else { return nil }
        var values: [StoredValue] = []
        values.reserveCapacity(steps.count)
        try appendValues(cursor, key: header.key, to: &values)
        return StoreRow(
            id: ObjectID(space: header.space, key: .permanent(header.key)),
            entityIndex: entityIndex, version: header.version, values: values)
    }

    /// Decodes the row under `cursor` and hands it to `sink` (in `group`), writing its values
    /// only when the sink asks for them. A row of no known entity is skipped.
    mutating func decode<Sink: RowSink>(
        _ cursor: RowCursor, into sink: inout Sink, group: Int? = nil
    ) throws {
        guard let header = try header(cursor) else { return }
        try sink.take(
            id: ObjectID(space: header.space, key: .permanent(header.key)),
            entityIndex: entityIndex, version: header.version, width: steps.count, group: group
        ) { values in
            try appendValues(cursor, key: header.key, to: &values)
        }
    }

    /// The key, ID space and version of the row under `cursor` (its entity found and
    /// remembered); `nil` for a row of no known entity.
    private mutating func header(_ cursor: RowCursor) throws
        -> (key: Int64, space: ObjectIDSpace, version: Int64)?
    {
        guard let pk = try cursor.integer(at: 0),
            let number = try soleEntityNumber ?? cursor.integer(at: 1)
        else {
            return nil
        }
        if number != entityNumber {
            guard let index = store.schemaIndexByNumber[Int(truncatingIfNeeded: number)] else {
                return nil
            }
            entityNumber = number
            entityIndex = index
            entityName = store.schema.entities[index].name
            space = store.idSpace(entityName)
            steps = store.plan(for: index).steps
        }
        guard let space else { return nil }
        let version = try cursor.integer(at: 2) ?? 0
        return (pk, space, version)
    }

    /// Appends the values of the row under `cursor` (of the entity ``header(_:)`` found) to
    /// `values`, one per property position.
    private func appendValues(
        _ cursor: RowCursor, key: Int64, to values: inout some RowValueWriter
    ) throws {
        for position in steps.indices {
            switch steps[position] {
            case .attribute(let attribute):
                do {
                    values.append(try store.attributeValue(cursor, attribute))
                } catch let error as ValueCodingError {
                    let property = store.schema.entities[entityIndex].properties[position].name
                    throw StoreError.sqlite(
                        path: store.path,
                        message: "\(entityName).\(property) of row \(key): \(error)")
                }
            case .toOne(let column, let entityColumn, let destination):
                try store.appendToOneTarget(
                    cursor, column: column, entityColumn: entityColumn, destination: destination,
                    to: &values)
            case .toMany:
                values.appendUnreadToMany()
            case .transient:
                values.append(.null)
            }
        }
    }
}
