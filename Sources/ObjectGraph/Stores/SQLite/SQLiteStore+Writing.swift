import Foundation
import SQLiteDatabase

/// How to write one entity's rows.
/// (A class: the plan is looked up for every saved row, and handing out a reference costs one
/// retain where copying a struct of arrays and strings costs a dozen.)
final class RowWritingPlan {
    enum Binding {
        case attribute(position: Int, type: AttributeType, external: Bool)
        case toOneKey(position: Int)
        case toOneEntity(position: Int)

        /// The property position the binding writes.
        var position: Int {
            switch self {
            case .attribute(let position, _, _), .toOneKey(let position),
                .toOneEntity(let position):
                return position
            }
        }
    }

    /// Which key a cached partial UPDATE is stored under.
    struct UpdateKey: Hashable {
        let entityIndex: Int
        let bindings: [Int]
    }

    struct JoinWrite {
        let position: Int
        let table: String, owner: String, target: String, order: String?
    }

    struct OrderWrite {
        let position: Int
        let table: String, column: String
    }

    let table: String
    let insertSQL: String
    let updateSQL: String
    let deleteSQL: String
    let bindings: [Binding]
    /// The column of each binding.
    let columns: [String]
    let joins: [JoinWrite]
    let orders: [OrderWrite]
    /// Whether the table has a unique index (updates may then need a second pass).
    let hasUniqueIndex: Bool

    init(
        table: String, insertSQL: String, updateSQL: String, deleteSQL: String,
        bindings: [Binding], columns: [String], joins: [JoinWrite], orders: [OrderWrite],
        hasUniqueIndex: Bool
    ) {
        self.table = table
        self.insertSQL = insertSQL
        self.updateSQL = updateSQL
        self.deleteSQL = deleteSQL
        self.bindings = bindings
        self.columns = columns
        self.joins = joins
        self.orders = orders
        self.hasUniqueIndex = hasUniqueIndex
    }

    /// Whether saving a row writes more than its own row (join tables, order keys).
    var writesLinks: Bool { !joins.isEmpty || !orders.isEmpty }
}

/// Saving: one immediate transaction per save; inserts, updates and deletes through cached
/// statements; `Z_OPT` optimistic locking; join tables and order keys.
extension SQLiteStore {
    func writePlan(for index: Int) -> RowWritingPlan {
        if let known = writePlans[index] { return known }
        let entity = schema.entities[index]
        let entityLayout = entityLayouts[index]
        let table = entityLayout.tableName
        var columns: [String] = []
        var bindings: [RowWritingPlan.Binding] = []
        var joins: [RowWritingPlan.JoinWrite] = []
        var orders: [RowWritingPlan.OrderWrite] = []
        for (position, property) in entity.properties.enumerated() {
            switch property {
            case .attribute(let attribute):
                guard !attribute.isTransient,
                    let column = entityLayout.attributeColumns[attribute.name]
                else { continue }
                columns.append(column.name)
                bindings.append(
                    .attribute(
                        position: position, type: attribute.type,
                        external: attribute.allowsExternalBinaryDataStorage))
            case .relationship(let relationship):
                switch entityLayout.relationships[relationship.relationship.name] {
                case .foreignKey(_, let column, let entityColumn)?:
                    columns.append(column)
                    bindings.append(.toOneKey(position: position))
                    if let entityColumn {
                        columns.append(entityColumn)
                        bindings.append(.toOneEntity(position: position))
                    }
                case .inverseForeignKey(let destination, _, _, let order?)?:
                    orders.append(
                        RowWritingPlan.OrderWrite(
                            position: position, table: destination, column: order))
                case .joinTable(let joinTable, let owner, let target, let order)?:
                    joins.append(
                        RowWritingPlan.JoinWrite(
                            position: position, table: joinTable, owner: owner, target: target,
                            order: order))
                default:
                    continue
                }
            }
        }
        let quoted = columns.map(quoteIdentifier)
        let insert =
            "INSERT INTO \(quoteIdentifier(table)) (Z_PK, Z_ENT, Z_OPT"
            + quoted.map { ", " + $0 }.joined() + ") VALUES (?, ?, 1"
            + String(repeating: ", ?", count: columns.count) + ")"
        let update =
            "UPDATE \(quoteIdentifier(table)) SET "
            + quoted.map { $0 + " = ?, " }.joined()
            + "Z_OPT = ? WHERE Z_PK = ? AND COALESCE(Z_OPT, 0) = ?"
        let delete =
            "DELETE FROM \(quoteIdentifier(table)) WHERE Z_PK = ? AND COALESCE(Z_OPT, 0) = ?"
        let plan = RowWritingPlan(
            table: table, insertSQL: insert, updateSQL: update, deleteSQL: delete,
            bindings: bindings, columns: columns, joins: joins, orders: orders,
            hasUniqueIndex: layout.indexes.contains { $0.isUnique && $0.table == table })
        writePlans[index] = plan
        return plan
    }

    /// `value` of the attribute at `position` of the entity at `entityIndex` as its column
    /// holds it (`type` encoded, external binary data inline with its marker).
    /// - Throws: ``StoreError/sqlite(path:message:)`` naming entity and attribute for a value
    ///   the type cannot hold, or a NaN (SQLite would keep it as NULL).
    func columnValue(
        _ value: Value, type: AttributeType, external: Bool, entityIndex: Int, position: Int
    ) throws -> DatabaseValue {
        var stored: DatabaseValue
        do {
            stored = try ValueCoding.storageValue(for: value, type: type)
        } catch {
            let entity = schema.entities[entityIndex]
            throw StoreError.sqlite(
                path: path, message: "\(entity.name).\(entity.names[position]): \(error)")
        }
        if case .real(let number) = stored, number.isNaN {
            // SQLite stores a NaN as NULL, which would read back as nil.
            let entity = schema.entities[entityIndex]
            throw StoreError.sqlite(
                path: path,
                message: "\(entity.name).\(entity.names[position]): NaN cannot be stored in"
                    + " a SQLite store (SQLite keeps it as NULL, which reads back as nil)")
        }
        if external, case .blob(let bytes) = stored {
            stored = .blob(Data([0x01]) + bytes)
        }
        return stored
    }

    /// Appends the value of the plan's binding `binding` for `row` to `values`.
    func appendColumnValue(
        _ binding: RowWritingPlan.Binding, of row: PendingRow, to values: inout [DatabaseValue]
    ) throws {
        switch binding {
        case .attribute(let position, let type, let external):
            values.append(
                try columnValue(
                    row.attribute(at: position), type: type, external: external,
                    entityIndex: row.entityIndex, position: position))
        case .toOneKey(let position):
            if let id = row.toOneID(at: position), case .permanent(let key) = id.key {
                values.append(.integer(key))
            } else {
                values.append(.null)
            }
        case .toOneEntity(let position):
            if let id = row.toOneID(at: position),
                let number = layout.entity(named: id.entityName)?.entityNumber
            {
                values.append(.integer(Int64(number)))
            } else {
                values.append(.null)
            }
        }
    }

    /// Conflicts are found inside the save's transaction (`WHERE Z_OPT = ?` matching no row),
    /// so no separate pass reads every row first.
    func conflicts(in changes: ChangeSet) throws -> [SaveConflict] { [] }

    func save(_ changes: ChangeSet) throws {
        if description.isReadOnly { throw StoreError.readOnly(path: path) }
        // Each list made once, not once per row (each one retains the entries' storage).
        let inserted = changes.inserted
        let updated = changes.updated
        let deleted = changes.deleted
        if textIsNFC,
            !inserted.indices.allSatisfy({ textIsNFC(inserted[$0]) })
                || !updated.indices.allSatisfy({ textIsNFC(updated[$0]) })
        {
            textIsNFC = false
        }
        let updatedPlans = Self.entities(of: updated).map(writePlan(for:))
        let insertedPlans = Self.entities(of: inserted).map(writePlan(for:))
        try sqlite {
            try writeTransaction { db in
                let history = try historyRecorder(db)
                var writer = RowWriter(db: db)
                var conflicts: [SaveConflict] = []
                // Deletions, then updates, then inserts: a value a row gives up (deleted, or
                // changed) is free for the rows written after it, under a unique index too.
                for row in deleted {
                    let id = row.id
                    let version = row.version
                    guard case .permanent(let pk) = id.key else { continue }
                    let plan = writePlan(for: row.entityIndex)
                    writer.values.append(.integer(pk))
                    writer.values.append(.integer(version))
                    try writer.run(
                        writer.deleteStatement(for: row.entityIndex, sql: plan.deleteSQL))
                    if db.changes == 0 {
                        conflicts.append(
                            SaveConflict(objectID: id, expectedVersion: version, storeVersion: 0))
                    }
                    for join in plan.joins {
                        try db.cachedStatement(
                            sql:
                                "DELETE FROM \(quoteIdentifier(join.table)) WHERE \(quoteIdentifier(join.owner)) = ?"
                        ).execute(arguments: [pk])
                    }
                }
                if !updatedPlans.contains(where: \.hasUniqueIndex) {
                    // No unique index to trip over: no savepoint either (a savepoint makes
                    // SQLite keep every page it changes a second time, in its statement
                    // journal).
                    conflicts += try update(updated, &writer)
                } else {
                    do {
                        try db.inSavepoint(named: "og_updates") { _ in
                            conflicts += try update(updated, &writer)
                        }
                    } catch let error as DatabaseError where error.resultCode == .constraint {
                        // Values swapped between rows (a↔b) break a unique index statement
                        // by statement: clear the uniquely indexed columns, then update.
                        try clearUniqueColumns(of: updated, db)
                        conflicts += try update(updated, &writer)
                    }
                }
                // A conflict stops the save before the inserts: its merge may change them.
                if !conflicts.isEmpty {
                    throw SaveError.conflicts(try withStoreVersions(conflicts, db))
                }
                for position in inserted.indices {
                    try insert(inserted[position], &writer)
                }
                if insertedPlans.contains(where: \.writesLinks) {
                    for row in inserted { try writeRelationships(row, db) }
                }
                if updatedPlans.contains(where: \.writesLinks) {
                    for row in updated { try writeRelationships(row, db) }
                }
                try history?.record(inserted: inserted, updated: updated, deleted: deleted)
            }
        }
    }

    /// The distinct entities of `rows` (few; found in one pass that copies no row).
    private static func entities(of rows: PendingRows) -> [Int] {
        var result: [Int] = []
        var last = -1
        for position in rows.indices {
            let entity = rows[position].entityIndex
            if entity != last, !result.contains(entity) { result.append(entity) }
            last = entity
        }
        return result
    }

    private func insert(_ row: PendingRow, _ writer: inout RowWriter) throws {
        guard case .permanent(let pk) = row.id.key else { return }
        let index = row.entityIndex
        let plan = writePlan(for: index)
        writer.values.append(.integer(pk))
        writer.values.append(.integer(Int64(entityLayouts[index].entityNumber)))
        for binding in plan.bindings {
            try appendColumnValue(binding, of: row, to: &writer.values)
        }
        try writer.run(writer.insertStatement(for: index, sql: plan.insertSQL))
    }

    private func update(_ rows: PendingRows, _ writer: inout RowWriter) throws
        -> [SaveConflict]
    {
        var conflicts: [SaveConflict] = []
        for position in rows.indices {
            if let conflict = try update(rows[position], &writer) { conflicts.append(conflict) }
        }
        return conflicts
    }

    /// Updates one row; a conflict when its version moved since it was read.
    private func update(_ row: PendingRow, _ writer: inout RowWriter) throws -> SaveConflict? {
        guard case .permanent(let pk) = row.id.key else { return nil }
        let index = row.entityIndex
        let plan = writePlan(for: index)
        let statement: Statement
        if let changed = row.changedMask {
            for binding in plan.bindings where changed & (1 << UInt64(binding.position)) != 0 {
                try appendColumnValue(binding, of: row, to: &writer.values)
            }
            statement = try writer.updateStatement(for: index, changed: changed) {
                let keep = plan.bindings.indices.filter {
                    changed & (1 << UInt64(plan.bindings[$0].position)) != 0
                }
                return updateSQL(for: index, bindings: keep, plan: plan)
            }
        } else {
            for binding in plan.bindings {
                try appendColumnValue(binding, of: row, to: &writer.values)
            }
            statement = try writer.updateStatement(for: index, changed: nil) { plan.updateSQL }
        }
        writer.values.append(.integer(row.version + 1))
        writer.values.append(.integer(pk))
        writer.values.append(.integer(row.version))
        try writer.run(statement)
        guard writer.db.changes == 0 else { return nil }
        // The store's version is read with the others' (``withStoreVersions(_:_:)``).
        return SaveConflict(objectID: row.id, expectedVersion: row.version, storeVersion: 0)
    }

    /// `conflicts` with the versions their rows have now (0: deleted), read in one query per
    /// table and few hundred rows, not one per conflict.
    private func withStoreVersions(_ conflicts: [SaveConflict], _ db: Database) throws
        -> [SaveConflict]
    {
        var byTable: [String: [Int64]] = [:]
        for conflict in conflicts {
            guard case .permanent(let pk) = conflict.objectID.key,
                let entity = schema.entity(named: conflict.objectID.entityName)
            else { continue }
            byTable[entityLayouts[entity.index].tableName, default: []].append(pk)
        }
        var versions: [String: [Int64: Int64]] = [:]
        for (table, keys) in byTable {
            for start in stride(from: 0, to: keys.count, by: Self.batchSize) {
                let chunk = Array(keys[start..<min(start + Self.batchSize, keys.count)])
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                let cursor = try db.makeCursor(
                    sql: "SELECT Z_PK, COALESCE(Z_OPT, 0) FROM \(quoteIdentifier(table))"
                        + " WHERE Z_PK IN (\(marks))",
                    arguments: StatementArguments(chunk))
                while try cursor.step() {
                    versions[table, default: [:]][try cursor.int64(at: 0)] =
                        try cursor.int64(at: 1)
                }
            }
        }
        return conflicts.map { conflict in
            var result = conflict
            if case .permanent(let pk) = conflict.objectID.key,
                let entity = schema.entity(named: conflict.objectID.entityName)
            {
                result.storeVersion =
                    versions[entityLayouts[entity.index].tableName]?[pk] ?? 0
            }
            return result
        }
    }

    /// Whether every string of `row` is NFC (ASCII always is).
    func textIsNFC(_ row: PendingRow) -> Bool {
        let entity = schema.entities[row.entityIndex]
        // An update writes only its changed columns: only they can bring new text.
        let changed = row.changedMask
        for position in entity.attributePositions {
            if let changed, position >= 64 || changed & (1 << UInt64(position)) == 0 {
                continue
            }
            let text: String
            switch row.attribute(at: position) {
            case .string(let string): text = string
            case .uri(let url): text = url.absoluteString
            default: continue
            }
            if SQLFunctions.isNormalizationFormC(text) { continue }
            return false
        }
        return true
    }

    /// The UPDATE of only the columns at `bindings` (indexes into the plan's bindings), cached.
    func updateSQL(for entityIndex: Int, bindings: [Int], plan: RowWritingPlan) -> String {
        let key = RowWritingPlan.UpdateKey(entityIndex: entityIndex, bindings: bindings)
        if let known = updateStatements[key] { return known }
        let assignments = bindings.map { quoteIdentifier(plan.columns[$0]) + " = ?, " }.joined()
        let sql =
            "UPDATE \(quoteIdentifier(plan.table)) SET " + assignments
            + "Z_OPT = ? WHERE Z_PK = ? AND COALESCE(Z_OPT, 0) = ?"
        updateStatements[key] = sql
        return sql
    }

    /// Sets the columns of unique indexes to NULL in `rows` (NULLs never conflict).
    private func clearUniqueColumns(of rows: PendingRows, _ db: Database) throws {
        for row in rows {
            guard case .permanent(let pk) = row.id.key else { continue }
            let table = entityLayouts[row.entityIndex].tableName
            let columns = Set(
                layout.indexes.filter { $0.isUnique && $0.table == table }
                    .flatMap { $0.elements.map(\.column) })
            guard !columns.isEmpty else { continue }
            let assignments = columns.sorted().map { quoteIdentifier($0) + " = NULL" }
            try db.execute(
                sql:
                    "UPDATE \(quoteIdentifier(table)) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ?",
                arguments: [pk])
        }
    }

    /// Rewrites `row`'s join-table rows and the order keys of its ordered relationships.
    private func writeRelationships(_ row: PendingRow, _ db: Database) throws {
        let plan = writePlan(for: row.entityIndex)
        guard case .permanent(let pk) = row.id.key, plan.writesLinks else { return }
        for join in plan.joins {
            guard case .toMany(let ids?) = row.value(at: join.position) else { continue }
            try db.cachedStatement(
                sql:
                    "DELETE FROM \(quoteIdentifier(join.table)) WHERE \(quoteIdentifier(join.owner)) = ?"
            ).execute(arguments: [pk])
            var columns = [join.owner, join.target].map(quoteIdentifier)
            if let order = join.order { columns.append(quoteIdentifier(order)) }
            let insert =
                "INSERT OR REPLACE INTO \(quoteIdentifier(join.table)) (\(columns.joined(separator: ", "))) VALUES ("
                + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            let statement = try db.cachedStatement(sql: insert)
            for (index, id) in ids.enumerated() {
                guard case .permanent(let target) = id.key else { continue }
                var arguments: [DatabaseValue] = [.integer(pk), .integer(target)]
                if join.order != nil { arguments.append(.integer(Int64(index + 1))) }
                try statement.execute(arguments: StatementArguments(arguments))
            }
        }
        for order in plan.orders {
            guard case .toMany(let ids?) = row.value(at: order.position) else { continue }
            let statement = try db.cachedStatement(
                sql:
                    "UPDATE \(quoteIdentifier(order.table)) SET \(quoteIdentifier(order.column)) = ? WHERE Z_PK = ?"
            )
            for (index, id) in ids.enumerated() {
                guard case .permanent(let target) = id.key else { continue }
                try statement.execute(arguments: [Int64(index + 1), target])
            }
        }
    }
}
