import PostgresClient

/// A batch delete that reaches no cascade or deny rule, as one PostgreSQL statement: the
/// rows deleted are exactly the rows matched, so every rule is one set-based part of a `WITH`
/// of data-modifying statements, all reading the snapshot from before the delete:
///
/// - `og_deleted`: `DELETE` of the matched rows (by the compiled condition on the table, or
///   by key), `RETURNING` their keys, `Z_ENT`s and the to-one foreign keys the nullify rules
///   follow;
/// - `og_join<n>`: `DELETE` of every join-table row naming a deleted row;
/// - `og_touched<n>`, one per table: the rows that stay whose relationships lose a deleted row
///   (targets of the deleted rows' relationships with an inverse, holders of a to-one or
///   to-many without an inverse pointing at a deleted row) get their `Z_OPT` raised, and
///   their to-one foreign keys pointing at a deleted row cleared (`CASE`, one `UPDATE` per
///   table: PostgreSQL changes a row once per statement);
/// - the answer: the keys and `Z_ENT`s deleted (kind 0) and touched (kind 1), put in key
///   order here.
///
/// These are the rules of ``PostgresBatchDeletion`` (which runs the deletes with cascade or
/// deny rules), in one round trip and with no key read into the process before the delete.
/// Entity numbers are `Z_ENT`s of the layout, never values from the user (those are bound,
/// in the condition).
struct PostgresBatchDeleteStatement {
    /// The statement before the choice of the rows to delete.
    private let head: String
    /// The statement after the choice of the rows to delete.
    private let tail: String

    /// The statement deleting rows of `table` of the entities numbered `entityNumbers` (the
    /// query's, with their subentities); `nil` when a relationship of one of them cascades or
    /// denies.
    init?(store: PostgresStore, table: String, entityNumbers: Set<Int>) {
        let links = PostgresBatchLink.all(in: store)
        let owned = links.filter { entityNumbers.contains($0.entityNumber) }
        if owned.contains(where: { $0.rule == .cascade || $0.rule == .deny }) { return nil }
        let quoted = PostgresIdentifier.quoted
        let deleted = "SELECT \"Z_PK\" FROM og_deleted"
        var returned: [String] = []
        var touches = Touches()
        for link in owned where link.hasInverse {
            let owners = deleted + " WHERE \"Z_ENT\" = \(link.entityNumber)"
            switch link.storage {
            case .foreignKey(_, let column, _):
                let column = quoted(column)
                if !returned.contains(column) { returned.append(column) }
                touches.add(
                    link.destinationTable,
                    "SELECT \(column) FROM og_deleted WHERE \"Z_ENT\" = \(link.entityNumber)"
                        + " AND \(column) IS NOT NULL")
            case .inverseForeignKey(let holder, let column, _, _):
                touches.add(
                    holder,
                    "SELECT \"Z_PK\" FROM \(quoted(holder)) WHERE \(quoted(column)) IN (\(owners))")
            case .joinTable(let join, let owner, let target, _):
                let (join, owner, target) = (quoted(join), quoted(owner), quoted(target))
                touches.add(
                    link.destinationTable,
                    "SELECT \(target) FROM \(join) WHERE \(owner) IN (\(owners))")
                if link.selfInverse {
                    touches.add(
                        link.destinationTable,
                        "SELECT \(owner) FROM \(join) WHERE \(target) IN (\(owners))")
                }
            }
            if case .foreignKey(let holder, let column, let entityColumn)? = link.inverseStorage {
                touches.clear(holder, column, entityColumn)
            }
        }
        // A to-one without an inverse pointing at a deleted row is cleared, its holder touched.
        for link in links where !link.hasInverse && link.destinationTable == table {
            if case .foreignKey(let holder, let column, let entityColumn) = link.storage {
                touches.clear(holder, column, entityColumn)
            }
        }
        head = "WITH og_deleted AS (DELETE FROM \(quoted(table))"
        var parts = [
            " RETURNING "
                + (["\"Z_PK\"", "\"Z_ENT\""] + returned).joined(separator: ", ") + ")"
        ]
        for (number, join) in store.layout.joinTables.enumerated() {
            let ownerTable = store.layout.entity(named: join.entity)?.tableName
            let destinationTable = store.layout.entity(named: join.destinationEntity)?.tableName
            var naming: [String] = []
            if ownerTable == table { naming.append(quoted(join.ownerColumn) + " IN (\(deleted))") }
            if destinationTable == table {
                naming.append(quoted(join.destinationColumn) + " IN (\(deleted))")
                // A to-many without an inverse loses the deleted rows: its holders are touched.
                if join.inverseRelationship == nil, let ownerTable {
                    touches.add(
                        ownerTable,
                        "SELECT \(quoted(join.ownerColumn)) FROM \(quoted(join.name)) WHERE "
                            + quoted(join.destinationColumn) + " IN (\(deleted))")
                }
            }
            guard !naming.isEmpty else { continue }
            parts.append(
                "og_join\(number) AS (DELETE FROM \(quoted(join.name)) WHERE "
                    + naming.joined(separator: " OR ") + ")")
        }
        var answer = ["SELECT 0, \"Z_PK\", \"Z_ENT\" FROM og_deleted"]
        for (number, holder) in store.layout.tables.map(\.name).enumerated() {
            guard let update = touches.update(holder, deletedFrom: table) else { continue }
            parts.append("og_touched\(number) AS (\(update))")
            answer.append("SELECT 1, \"Z_PK\", \"Z_ENT\" FROM og_touched\(number)")
        }
        tail =
            parts.joined(separator: ", ") + " " + answer.joined(separator: " UNION ALL ")
    }

    /// Deletes the rows `rows` chooses (what follows `DELETE FROM <table>`: `AS t0 WHERE
    /// <condition>`, or `WHERE "Z_PK" IN (…)`) on `connection`, and applies the rules;
    /// returns the IDs deleted and touched.
    func run(
        deleting rows: PostgresStatement, store: PostgresStore,
        on connection: PostgresConnection
    ) throws -> StoreBatchOutcome {
        let sql = head + rows.sql + tail
        return try connection.execute(sql, rows.arguments, binary: true) { cursor in
            var deleted: [(key: Int64, id: ObjectID)] = []
            var updated: [(key: Int64, id: ObjectID)] = []
            var entity: (number: Int64, name: String?) = (-1, nil)
            while cursor.next() {
                guard let number = try cursor.int64OrNil(2) else { continue }
                if number != entity.number {
                    entity = (
                        number,
                        store.schemaIndexByNumber[Int(number)].map {
                            store.schema.entities[$0].name
                        }
                    )
                }
                guard let name = entity.name else { continue }
                let key = try cursor.int64(1)
                if try cursor.int64(0) == 0 {
                    deleted.append((key, store.objectID(name, key)))
                } else {
                    updated.append((key, store.objectID(name, key)))
                }
            }
            return StoreBatchOutcome(
                deleted: Self.inKeyOrder(deleted), updated: Self.inKeyOrder(updated))
        }
    }

    /// The IDs of `rows` in key order (the statement returns them in the order changed).
    private static func inKeyOrder(_ rows: [(key: Int64, id: ObjectID)]) -> [ObjectID] {
        let ordered = zip(rows, rows.dropFirst()).allSatisfy { $0.key < $1.key }
        return (ordered ? rows : rows.sorted { $0.key < $1.key }).map(\.id)
    }

    /// The rows to touch and the foreign keys to clear, by table.
    private struct Touches {
        /// Selects of the keys to touch, by table, each once.
        private var sources: [String: [String]] = [:]
        /// The to-one foreign keys (pointing at the deleted rows) to clear, by table.
        private var clears: [String: [(column: String, entityColumn: String?)]] = [:]

        /// Touches the rows of `table` whose keys `select` gives.
        mutating func add(_ table: String, _ select: String) {
            if sources[table]?.contains(select) != true {
                sources[table, default: []].append(select)
            }
        }

        /// Clears `column` (and `entityColumn`) of the rows of `table` where it holds a deleted
        /// key, touching them.
        mutating func clear(_ table: String, _ column: String, _ entityColumn: String?) {
            guard clears[table]?.contains(where: { $0.column == column }) != true else { return }
            clears[table, default: []].append((column, entityColumn))
            add(
                table,
                "SELECT \"Z_PK\" FROM \(PostgresIdentifier.quoted(table)) WHERE "
                    + PostgresIdentifier.quoted(column) + " IN (SELECT \"Z_PK\" FROM og_deleted)")
        }

        /// The `UPDATE … RETURNING "Z_PK", "Z_ENT"` of the rows of `table` to touch (none of
        /// the rows deleted from `deletedTable`); `nil` when there are none.
        func update(_ table: String, deletedFrom deletedTable: String) -> String? {
            guard let selects = sources[table], !selects.isEmpty else { return nil }
            let quoted = PostgresIdentifier.quoted
            var settings = ["\"Z_OPT\" = COALESCE(\"Z_OPT\", 0) + 1"]
            for (column, entityColumn) in clears[table] ?? [] {
                let pointsAtDeleted = quoted(column) + " IN (SELECT \"Z_PK\" FROM og_deleted)"
                for cleared in [column] + (entityColumn.map { [$0] } ?? []) {
                    settings.append(
                        quoted(cleared) + " = CASE WHEN \(pointsAtDeleted) THEN NULL ELSE "
                            + quoted(cleared) + " END")
                }
            }
            return "UPDATE \(quoted(table)) SET " + settings.joined(separator: ", ")
                + " WHERE \"Z_PK\" IN (" + selects.joined(separator: " UNION ") + ")"
                + (table == deletedTable
                    ? " AND \"Z_PK\" NOT IN (SELECT \"Z_PK\" FROM og_deleted)" : "")
                + " RETURNING \"Z_PK\", \"Z_ENT\""
        }
    }
}
