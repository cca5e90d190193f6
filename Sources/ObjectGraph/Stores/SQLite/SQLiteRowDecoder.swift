import Foundation
import SQLiteDatabase

/// Decodes the rows of one run of a query (columns of their table in table order, `Z_PK`,
/// `Z_ENT` and `Z_OPT` first), keeping what is the same from row to row: the last row's
/// entity, with its name, ID space and decoding steps. Make one per run and use it for every
/// row.
struct SQLiteRowDecoder {
    let store: SQLiteStore
    /// The context's identity map (see ``RowDecodingStore``).
    let registered: RegistrySnapshot?
    /// The `Z_ENT` of the last row, and its entity's schema index, name, ID space and steps.
    private var entityNumber: Int64 = -1
    private var entityIndex = 0
    private var entityName = ""
    private var space: ObjectIDSpace?
    private var steps: [RowDecodingPlan.Step] = []

    init(store: SQLiteStore, registered: RegistrySnapshot? = nil) {
        self.store = store
        self.registered = registered
    }

    /// The row under `cursor` as a ``StoreRow``; `nil` for a row of no known entity.
    mutating func storeRow(_ cursor: RowCursor) throws -> StoreRow? {
        guard let row = try decodedRow(cursor) else { return nil }
        let values = (row.slots ?? []).map(\.storedValue)
        let id = ObjectID(space: space ?? store.idSpace(entityName), key: .permanent(row.key))
        return StoreRow(
            id: id, entityIndex: row.entityIndex, version: row.version, values: values)
    }

    /// The row under `cursor` decoded straight into slots; `nil` for a row of no known entity.
    /// The values are left out for the objects loaded in ``registered``.
    mutating func decodedRow(_ cursor: RowCursor) throws -> DecodedRow? {
        guard let pk = try cursor.integer(at: 0), let number = try cursor.integer(at: 1) else {
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
        let version = try cursor.integer(at: 2) ?? 0
        var row = DecodedRow(key: pk, entityIndex: entityIndex, version: version, slots: nil)
        if let registered, let space {
            let id = ObjectID(space: space, key: .permanent(pk))
            row.registration = registered.registration(of: id)
            if case .loaded = row.registration { return row }
        }
        var slots: [Slot] = []
        slots.reserveCapacity(steps.count)
        for position in steps.indices {
            switch steps[position] {
            case .attribute(let attribute):
                do {
                    slots.append(.value(try store.attributeValue(cursor, attribute)))
                } catch let error as ValueCodingError {
                    let property = store.schema.entities[entityIndex].properties[position].name
                    throw StoreError.sqlite(
                        path: store.path,
                        message: "\(entityName).\(property) of row \(pk): \(error)")
                }
            case .toOne(let column, let entityColumn, let destination):
                slots.append(
                    .toOneFault(
                        try store.toOneTarget(
                            cursor, column: column, entityColumn: entityColumn,
                            destination: destination)))
            case .toMany:
                slots.append(.toManyFault(nil))
            case .transient:
                slots.append(.value(.null))
            }
        }
        row.slots = slots
        return row
    }
}
