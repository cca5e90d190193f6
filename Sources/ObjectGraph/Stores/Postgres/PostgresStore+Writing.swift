import Foundation
import PostgresClient

/// How to write one entity's rows: its table's columns and where their values come from.
struct PostgresWritePlan {
    enum Binding {
        case attribute(position: Int, type: AttributeType)
        case toOneKey(position: Int)
        case toOneEntity(position: Int)

        var position: Int {
            switch self {
            case .attribute(let position, _), .toOneKey(let position),
                .toOneEntity(let position):
                return position
            }
        }
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
    let bindings: [Binding]
    /// The column of each binding.
    let columns: [String]
    let joins: [JoinWrite]
    let orders: [OrderWrite]
}

/// Saving: one transaction per save; `Z_OPT` checked by each UPDATE and DELETE
/// (`WHERE "Z_OPT" = $n`: a row another writer changed since it was read matches nothing, also
/// when that writer commits while this one waits on its row lock); join tables and order keys.
extension PostgresStore {
    func writePlan(for index: Int) -> PostgresWritePlan {
        if let known = writePlans[index] { return known }
        let entity = schema.entities[index]
        let entityLayout = entityLayouts[index]
        var columns: [String] = []
        var bindings: [PostgresWritePlan.Binding] = []
        var joins: [PostgresWritePlan.JoinWrite] = []
        var orders: [PostgresWritePlan.OrderWrite] = []
        for (position, property) in entity.properties.enumerated() {
            switch property {
            case .attribute(let attribute):
                guard !attribute.isTransient,
                    let column = entityLayout.attributeColumns[attribute.name]
                else { continue }
                columns.append(column.name)
                bindings.append(.attribute(position: position, type: attribute.type))
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
                    orders.append(.init(position: position, table: destination, column: order))
                case .joinTable(let table, let owner, let target, let order)?:
                    joins.append(
                        .init(
                            position: position, table: table, owner: owner, target: target,
                            order: order))
                default:
                    continue
                }
            }
        }
        let plan = PostgresWritePlan(
            table: entityLayout.tableName, bindings: bindings, columns: columns, joins: joins,
            orders: orders)
        writePlans[index] = plan
        return plan
    }

    /// The parameter of `binding` for `row`.
    func parameter(_ binding: PostgresWritePlan.Binding, of row: PendingRow) throws
        -> PostgresValue
    {
        switch binding {
        case .attribute(let position, let type):
            do {
                return try PostgresValueCoding.parameter(
                    for: row.attribute(at: position), type: type)
            } catch {
                let entity = schema.entities[row.entityIndex]
                throw StoreError.cannotWrite(
                    path: path, reason: "\(entity.name).\(entity.names[position]): \(error)")
            }
        case .toOneKey(let position):
            guard let id = row.toOneID(at: position), case .permanent(let key) = id.key else {
                return .null
            }
            return .integer(key)
        case .toOneEntity(let position):
            guard let id = row.toOneID(at: position),
                let number = layout.entity(named: id.entityName)?.entityNumber
            else { return .null }
            return .integer(Int64(number))
        }
    }

    /// Conflicts are found inside the save's transaction (an UPDATE or DELETE matching no
    /// row), so no separate pass reads every row first.
    func conflicts(in changes: ChangeSet) throws -> [SaveConflict] { [] }

    func save(_ changes: ChangeSet) throws {
        if description.isReadOnly { throw StoreError.readOnly(path: path) }
        let inserted = changes.inserted
        let updated = changes.updated
        let deleted = changes.deleted
        try postgres {
            try connection.transaction {
                let tombstones = try tombstones(of: deleted)
                var conflicts: [SaveConflict] = []
                // Deletions, then updates, then inserts, as on SQLite.
                for row in lockOrder(deleted) {
                    if let conflict = try delete(row) { conflicts.append(conflict) }
                }
                for row in lockOrder(updated) {
                    if let conflict = try update(row) { conflicts.append(conflict) }
                }
                // A conflict stops the save before the inserts: its merge may change them.
                if !conflicts.isEmpty {
                    throw SaveError.conflicts(try withStoreVersions(conflicts))
                }
                try insertRows(inserted, insertOne: insert)
                for row in inserted { try writeRelationships(row) }
                for row in updated { try writeRelationships(row) }
                try publish(changes, tombstones: tombstones)
            }
        }
    }

    private func delete(_ row: PendingRow) throws -> SaveConflict? {
        guard case .permanent(let key) = row.id.key else { return nil }
        let plan = writePlan(for: row.entityIndex)
        let result = try connection.execute(
            "DELETE FROM \(PostgresIdentifier.quoted(plan.table)) WHERE \"Z_PK\" = $1"
                + " AND COALESCE(\"Z_OPT\", 0) = $2", [.integer(key), .integer(row.version)])
        for join in plan.joins {
            try connection.execute(
                "DELETE FROM \(PostgresIdentifier.quoted(join.table)) WHERE "
                    + PostgresIdentifier.quoted(join.owner) + " = $1", [.integer(key)])
        }
        guard result.affectedRows == 0 else { return nil }
        return SaveConflict(objectID: row.id, expectedVersion: row.version, storeVersion: 0)
    }

    private func update(_ row: PendingRow) throws -> SaveConflict? {
        guard case .permanent(let key) = row.id.key else { return nil }
        let plan = writePlan(for: row.entityIndex)
        let changed = row.changedMask
        var assignments: [String] = []
        var parameters: [PostgresValue] = []
        for (index, binding) in plan.bindings.enumerated() {
            if let changed, changed & (1 << UInt64(binding.position)) == 0 { continue }
            parameters.append(try parameter(binding, of: row))
            assignments.append(
                PostgresIdentifier.quoted(plan.columns[index]) + " = $\(parameters.count)")
        }
        parameters += [.integer(row.version + 1), .integer(key), .integer(row.version)]
        let count = parameters.count
        let sql =
            "UPDATE \(PostgresIdentifier.quoted(plan.table)) SET "
            + assignments.map { $0 + ", " }.joined() + "\"Z_OPT\" = $\(count - 2)"
            + " WHERE \"Z_PK\" = $\(count - 1) AND COALESCE(\"Z_OPT\", 0) = $\(count)"
        guard try connection.execute(sql, parameters).affectedRows == 0 else { return nil }
        return SaveConflict(objectID: row.id, expectedVersion: row.version, storeVersion: 0)
    }

    private func insert(_ row: PendingRow) throws {
        guard case .permanent(let key) = row.id.key else { return }
        let plan = writePlan(for: row.entityIndex)
        var parameters: [PostgresValue] = [
            .integer(key), .integer(Int64(entityLayouts[row.entityIndex].entityNumber)),
        ]
        for binding in plan.bindings { parameters.append(try parameter(binding, of: row)) }
        let columns = ["Z_PK", "Z_ENT"] + plan.columns
        let marks = (1...parameters.count).map { "$\($0)" }
        try connection.execute(
            "INSERT INTO \(PostgresIdentifier.quoted(plan.table)) (\"Z_OPT\", "
                + columns.map(PostgresIdentifier.quoted).joined(separator: ", ") + ") VALUES (1, "
                + marks.joined(separator: ", ") + ")", parameters)
    }

    /// `conflicts` with the versions their rows have now (0: deleted).
    private func withStoreVersions(_ conflicts: [SaveConflict]) throws -> [SaveConflict] {
        var byTable: [String: [Int64]] = [:]
        for conflict in conflicts {
            guard case .permanent(let key) = conflict.objectID.key,
                let entity = schema.entity(named: conflict.objectID.entityName)
            else { continue }
            byTable[entityLayouts[entity.index].tableName, default: []].append(key)
        }
        var versions: [String: [Int64: Int64]] = [:]
        for (table, keys) in byTable {
            let result = try connection.execute(
                "SELECT \"Z_PK\", COALESCE(\"Z_OPT\", 0) FROM \(PostgresIdentifier.quoted(table))"
                    + " WHERE \"Z_PK\" = ANY($1::bigint[])", [Self.arrayLiteral(keys)])
            for row in result.rows {
                versions[table, default: [:]][try row.int64(0)] = try row.int64(1)
            }
        }
        return conflicts.map { conflict in
            var result = conflict
            if case .permanent(let key) = conflict.objectID.key,
                let entity = schema.entity(named: conflict.objectID.entityName)
            {
                result.storeVersion = versions[entityLayouts[entity.index].tableName]?[key] ?? 0
            }
            return result
        }
    }

    /// Rewrites `row`'s join-table rows and the order keys of its ordered relationships (for
    /// lists the save carries; an unloaded list is left as stored).
    private func writeRelationships(_ row: PendingRow) throws {
        let plan = writePlan(for: row.entityIndex)
        guard case .permanent(let key) = row.id.key else { return }
        for join in plan.joins {
            guard case .toMany(let ids?) = row.value(at: join.position) else { continue }
            try connection.execute(
                "DELETE FROM \(PostgresIdentifier.quoted(join.table)) WHERE "
                    + PostgresIdentifier.quoted(join.owner) + " = $1", [.integer(key)])
            var columns = [join.owner, join.target].map(PostgresIdentifier.quoted)
            if let order = join.order { columns.append(PostgresIdentifier.quoted(order)) }
            // The other side of the pair may have written the same pair in this save: its
            // row stays, with this side's order.
            let onConflict =
                join.order.map {
                    " DO UPDATE SET \(PostgresIdentifier.quoted($0)) = EXCLUDED."
                        + PostgresIdentifier.quoted($0)
                } ?? " DO NOTHING"
            let sql =
                "INSERT INTO \(PostgresIdentifier.quoted(join.table)) ("
                + columns.joined(separator: ", ") + ") VALUES ("
                + (1...columns.count).map { "$\($0)" }.joined(separator: ", ")
                + ") ON CONFLICT (" + columns[0] + ", " + columns[1] + ")" + onConflict
            for (index, id) in ids.enumerated() {
                guard case .permanent(let target) = id.key else { continue }
                var parameters: [PostgresValue] = [.integer(key), .integer(target)]
                if join.order != nil { parameters.append(.integer(Int64(index + 1))) }
                try connection.execute(sql, parameters)
            }
        }
        for order in plan.orders {
            guard case .toMany(let ids?) = row.value(at: order.position) else { continue }
            let sql =
                "UPDATE \(PostgresIdentifier.quoted(order.table)) SET "
                + PostgresIdentifier.quoted(order.column) + " = $1 WHERE \"Z_PK\" = $2"
            for (index, id) in ids.enumerated() {
                guard case .permanent(let target) = id.key else { continue }
                try connection.execute(sql, [.integer(Int64(index + 1)), .integer(target)])
            }
        }
    }

    /// Adds `rows` as they are: `Z_PRIMARYKEY.Z_MAX` raised to at least the largest key of each
    /// inheritance tree, then the rows through the save path, in one transaction.
    func importRows(_ rows: [StoreRow], schema: ModelSchema) throws {
        if description.isReadOnly { throw StoreError.readOnly(path: path) }
        var largest: [Int: Int64] = [:]
        for row in rows {
            guard case .permanent(let key) = row.id.key,
                row.entityIndex >= 0, row.entityIndex < schema.entities.count
            else { continue }
            let root = schema.root(of: schema.entities[row.entityIndex]).index
            largest[root] = max(largest[root] ?? 0, key)
        }
        try postgres {
            try connection.transaction {
                for (root, key) in largest.sorted(by: { $0.key < $1.key }) {
                    try connection.execute(
                        "UPDATE \"Z_PRIMARYKEY\" SET \"Z_MAX\" = GREATEST(\"Z_MAX\", $1)"
                            + " WHERE \"Z_ENT\" = $2",
                        [.integer(key), .integer(Int64(entityLayouts[root].entityNumber))])
                }
                try save(ChangeSet(inserting: rows))
            }
        }
    }
}
