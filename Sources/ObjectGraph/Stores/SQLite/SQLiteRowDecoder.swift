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
        guard let row = try decodedRow(cursor) else { return nil }
        var slots: [Slot] = []
        slots.reserveCapacity(steps.count)
        try appendSlots(cursor, key: row.id.key, to: &slots)
        let values = slots.map(\.storedValue)
        return StoreRow(
            id: row.id, entityIndex: row.entityIndex, version: row.version, values: values)
    }

    /// Decodes the row under `cursor` and hands it to `registrar` (in `group`), with its
    /// values unless the registrar's context holds its object loaded. A row of no known
    /// entity is skipped.
    mutating func decode(
        _ cursor: RowCursor, into registrar: inout RowRegistrar, group: Int? = nil
    ) throws {
        guard var row = try decodedRow(cursor) else { return }
        row.registration = registrar.registration(of: row.id)
        if !row.registration.isLoaded {
            // Straight into the context's slot blocks: the new object's slots are these.
            let run = registrar.context.link.arena.startRun(width: steps.count)
            var block = run.block
            try appendSlots(cursor, key: row.id.key, to: &block)
            assert(block.count == Int(run.offset) + steps.count, "interleaved slot runs")
            row.storage = run
        }
        try registrar.take(row, group: group)
    }

    /// The row under `cursor` without its values; `nil` for a row of no known entity.
    private mutating func decodedRow(_ cursor: RowCursor) throws -> DecodedRow? {
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
        return DecodedRow(
            id: ObjectID(space: space, key: .permanent(pk)), entityIndex: entityIndex,
            version: version)
    }

    /// Appends the values of the row under `cursor` (of the entity ``decodedRow(_:)`` found)
    /// to `slots`, one per property position.
    private func appendSlots(
        _ cursor: RowCursor, key: ObjectID.Key, to slots: inout some SlotSink
    ) throws {
        for position in steps.indices {
            switch steps[position] {
            case .attribute(let attribute):
                do {
                    slots.append(.value(try store.attributeValue(cursor, attribute)))
                } catch let error as ValueCodingError {
                    let property = store.schema.entities[entityIndex].properties[position].name
                    var row = "\(key)"
                    if case .permanent(let pk) = key { row = String(pk) }
                    throw StoreError.sqlite(
                        path: store.path,
                        message: "\(entityName).\(property) of row \(row): \(error)")
                }
            case .toOne(let column, let entityColumn, let destination):
                slots.append(
                    try store.toOneTarget(
                        cursor, column: column, entityColumn: entityColumn,
                        destination: destination))
            case .toMany:
                slots.append(.toManyFault(nil))
            case .transient:
                slots.append(.value(.null))
            }
        }
    }
}

/// Where decoded slots go, in property order: an array, or a run in a ``SlotBlock`` that has
/// room for them.
protocol SlotSink {
    mutating func append(_ slot: Slot)
}

extension Array: SlotSink where Element == Slot {}
extension SlotBlock: SlotSink {}
