import PostgresClient

/// A batch delete that reaches no cascade or deny rule, as one PostgreSQL statement: the
/// rows deleted are exactly the rows matched, so every rule is one set-based part of a `WITH`
/// of data-modifying statements, all reading the snapshot from before the delete:
///
/// - `og_deleted`: the matched rows (by the compiled condition on the table, or by key), their
///   keys, `Z_ENT`s and the to-one foreign keys the nullify rules follow: a `SELECT`, `NOT
///   MATERIALIZED`, so each part reading it reads the table itself, as a plain `UPDATE … WHERE
///   … IN (SELECT … WHERE <condition>)` would (PostgreSQL plans each part on its own, with the
///   condition's indexes). A `DELETE … RETURNING` read by several parts costs more: every
///   deleted row fetched again for `RETURNING` and kept in a tuple store, on disk past
///   `work_mem` (at 50,000 rows: 65 ms against 49 ms; deleting every row: 118 ms against
///   75 ms);
/// - `og_delete`: the `DELETE` of the same rows, by the same condition. Every part reads one
///   snapshot, and the batch's transaction is `REPEATABLE READ`: a row another writer changes
///   or deletes meanwhile fails the statement (SQLSTATE 40001, run again), so the rows
///   deleted are the rows `og_deleted` lists;
/// - `og_join<n>`: `DELETE` of every join-table row naming a deleted row;
/// - `og_touched<n>`, one per table: the rows that stay whose relationships lose a deleted row
///   (targets of the deleted rows' relationships with an inverse, holders of a to-one or
///   to-many without an inverse pointing at a deleted row) get their `Z_OPT` raised, and
///   their to-one foreign keys pointing at a deleted row cleared (`CASE`, one `UPDATE` per
///   table: PostgreSQL changes a row once per statement);
/// - the answer: the keys deleted (kind 0) and touched (kind 1), one row per kind and `Z_ENT`
///   with the keys packed in one `bytea`, put in key order here.
///
/// These are the rules of ``PostgresBatchDeletion`` (which runs the deletes with cascade or
/// deny rules), in one round trip and with no key read into the process before the delete.
/// Entity numbers are `Z_ENT`s of the layout, never values from the user (those are bound,
/// in the condition).
struct PostgresBatchDeleteStatement {
    /// The quoted table deleted from.
    private let table: String
    /// The columns `og_deleted` lists (quoted): `Z_PK`, `Z_ENT`, foreign keys.
    private let selected: String
    /// The statement after `og_delete`.
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
        self.table = quoted(table)
        selected = (["\"Z_PK\"", "\"Z_ENT\""] + returned).joined(separator: ", ")
        var parts: [String] = []
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
        var answer = [Self.keys(kind: 0, of: "og_deleted")]
        for (number, holder) in store.layout.tables.map(\.name).enumerated() {
            guard let update = touches.update(holder, deletedFrom: table) else { continue }
            parts.append("og_touched\(number) AS (\(update))")
            answer.append(Self.keys(kind: 1, of: "og_touched\(number)"))
        }
        tail =
            parts.map { ", " + $0 }.joined() + " " + answer.joined(separator: " UNION ALL ")
    }

    /// The answer's rows for the rows of `source`: `kind`, then one row per `Z_ENT` with the
    /// keys as one `bytea` of 8-byte big-endian integers (`int8send`), read at once instead of
    /// a row per key.
    private static func keys(kind: Int, of source: String) -> String {
        "SELECT \(kind), \"Z_ENT\", string_agg(int8send(\"Z_PK\"), ''::bytea) FROM \(source)"
            + " GROUP BY \"Z_ENT\""
    }

    /// Deletes the rows `rows` chooses (what follows `DELETE FROM <table>`: `AS t0 WHERE
    /// <condition>`, or `WHERE "Z_PK" IN (…)`) on `connection`, and applies the rules;
    /// returns the IDs deleted and touched.
    func run(
        deleting rows: PostgresStatement, store: PostgresStore,
        on connection: PostgresConnection
    ) throws -> StoreBatchOutcome {
        let sql =
            "WITH og_deleted AS NOT MATERIALIZED (SELECT \(selected) FROM \(table)" + rows.sql
            + "), og_delete AS (DELETE FROM \(table)" + rows.sql + ")" + tail
        return try connection.execute(sql, rows.arguments, binary: true) { cursor in
            var deleted: [(key: Int64, id: ObjectID)] = []
            var updated: [(key: Int64, id: ObjectID)] = []
            while cursor.next() {
                guard let number = try cursor.int64OrNil(1),
                    let index = store.schemaIndexByNumber[Int(truncatingIfNeeded: number)],
                    let keys = try cursor.bytes(2)
                else { continue }
                let space = store.idSpace(store.schema.entities[index].name)
                let isDeleted = try cursor.int64(0) == 0
                keys.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset + 8 <= bytes.count {
                        let key = Int64(
                            bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self))
                        offset += 8
                        let row = (key, ObjectID(space: space, key: .permanent(key)))
                        if isDeleted { deleted.append(row) } else { updated.append(row) }
                    }
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
