import PostgresClient

/// A batch delete in PostgreSQL that reaches a cascade or deny rule (the others run as one
/// statement, ``PostgresBatchDeleteStatement``), inside the caller's transaction, with the
/// rules of the SQLite store's batch delete (and of the rows path, ``StoreBatch/delete(_:)``). The keys of the rows
/// to delete and of the rows left alive whose relationships lose a deleted row are kept here,
/// by table, in the order found; every statement reads or changes rows by key arrays bound as
/// one parameter (`= ANY($1::bigint[])`):
///
/// 1. cascade: the targets of each cascade relationship of the rows newly added join the set,
///    until a pass adds none;
/// 2. deny: a deny relationship holding a row not in the set refuses the whole delete
///    (``ValidationError``, rule `deleteDenied`, naming entity and relationship);
/// 3. nullify: the targets that stay of every relationship with an inverse are touched (their
///    `Z_OPT` goes up) and their to-one foreign keys pointing at deleted rows are cleared;
///    relationships without an inverse of the rows that stay lose the deleted rows too (to-one
///    keys cleared, join-table rows removed, their holders touched); every join-table row
///    naming a deleted row is removed;
/// 4. the rows are deleted, table by table.
struct PostgresBatchDeletion {
    let store: PostgresStore
    let connection: PostgresConnection
    /// The rows to delete.
    private var deleted = KeyList()
    /// The rows that stay whose relationships lose a deleted row.
    private var touched = KeyList()

    init(store: PostgresStore, connection: PostgresConnection) {
        self.store = store
        self.connection = connection
    }

    /// Deletes the rows `matched` (keys of `table`) and applies the rules.
    mutating func run(matched: [(key: Int64, entityIndex: Int)], table: String) throws {
        guard !matched.isEmpty else { return }
        var fresh = KeyList()
        for (key, entityIndex) in matched {
            let number = store.entityLayouts[entityIndex].entityNumber
            if deleted.insert(table, key, number) { fresh.insert(table, key, number) }
        }
        let links = PostgresBatchLink.all(in: store)
        try cascade(from: fresh, links)
        try checkDenyRules(links)
        for link in links where link.hasInverse {
            let owners = deleted.keys(of: link.ownerTable, entity: link.entityNumber)
            guard !owners.isEmpty else { continue }
            for pair in try pairs(link, owners) {
                guard let entity = pair.targetEntity,
                    !deleted.contains(link.destinationTable, pair.target)
                else { continue }
                touched.insert(link.destinationTable, pair.target, entity)
            }
            try clearInverseForeignKey(link, owners: owners)
        }
        for link in links where !link.hasInverse {
            try clearUnpairedForeignKey(link)
        }
        try clearJoinTables()
        for table in store.layout.tables {
            let touchedKeys = touched.keys(of: table.name)
            if !touchedKeys.isEmpty {
                try connection.execute(
                    "UPDATE \(PostgresIdentifier.quoted(table.name)) SET \"Z_OPT\" ="
                        + " COALESCE(\"Z_OPT\", 0) + 1 WHERE \"Z_PK\" = ANY($1::bigint[])",
                    [PostgresStore.arrayLiteral(touchedKeys)])
            }
            let deletedKeys = deleted.keys(of: table.name)
            if !deletedKeys.isEmpty {
                try connection.execute(
                    "DELETE FROM \(PostgresIdentifier.quoted(table.name))"
                        + " WHERE \"Z_PK\" = ANY($1::bigint[])",
                    [PostgresStore.arrayLiteral(deletedKeys)])
            }
        }
    }

    /// The IDs deleted (the matched rows first, then those deleted by cascade) and touched.
    func outcome() -> StoreBatchOutcome {
        StoreBatchOutcome(deleted: deleted.ids(store), updated: touched.ids(store))
    }

    /// Adds the targets of the cascade relationships of `fresh` (and of theirs, in turn).
    private mutating func cascade(from fresh: KeyList, _ links: [PostgresBatchLink]) throws {
        var frontier = fresh
        while !frontier.isEmpty {
            var next = KeyList()
            for link in links where link.rule == .cascade {
                let owners = frontier.keys(of: link.ownerTable, entity: link.entityNumber)
                guard !owners.isEmpty else { continue }
                for pair in try pairs(link, owners) {
                    guard let entity = pair.targetEntity,
                        deleted.insert(link.destinationTable, pair.target, entity)
                    else { continue }
                    next.insert(link.destinationTable, pair.target, entity)
                }
            }
            frontier = next
        }
    }

    /// Throws for the first deny relationship that holds a row not deleted, per relationship.
    private func checkDenyRules(_ links: [PostgresBatchLink]) throws {
        var problems: [ValidationError.Problem] = []
        for link in links where link.rule == .deny {
            let owners = deleted.keys(of: link.ownerTable, entity: link.entityNumber)
            guard !owners.isEmpty,
                let held = try pairs(link, owners)
                    .filter({ !deleted.contains(link.destinationTable, $0.target) })
                    .min(by: { ($0.owner, $0.target) < ($1.owner, $1.target) })
            else { continue }
            let target = held.targetEntity.flatMap { store.schemaIndexByNumber[$0] }.map {
                Value.objectID(store.objectID(store.schema.entities[$0].name, held.target))
            }
            problems.append(
                ValidationError.Problem(
                    objectID: store.objectID(link.entity, held.owner), entity: link.entity,
                    property: link.name, rule: .deleteDenied, value: target ?? .null,
                    message:
                        "the deny rule of \(link.entity).\(link.name) refuses the batch delete:"
                        + " it holds an object not deleted"))
        }
        if !problems.isEmpty { throw ValidationError(problems: problems) }
    }

    /// Clears the inverse's foreign keys that point at `owners` (rows being deleted) in the
    /// rows that stay, when the inverse is a to-one kept in the destination's row.
    private func clearInverseForeignKey(_ link: PostgresBatchLink, owners: [Int64]) throws {
        guard case .foreignKey(let table, let column, let entityColumn)? = link.inverseStorage
        else { return }
        try connection.execute(
            "UPDATE \(PostgresIdentifier.quoted(table)) SET "
                + Self.clearing(column, entityColumn) + " WHERE "
                + PostgresIdentifier.quoted(column) + " = ANY($1::bigint[]) AND NOT \"Z_PK\" ="
                + " ANY($2::bigint[])",
            [
                PostgresStore.arrayLiteral(owners),
                PostgresStore.arrayLiteral(deleted.keys(of: link.destinationTable)),
            ])
    }

    /// Clears a to-one without an inverse pointing at a deleted row, in the rows that stay
    /// (touched): no reference to a deleted row is left.
    private mutating func clearUnpairedForeignKey(_ link: PostgresBatchLink) throws {
        guard case .foreignKey(let table, let column, let entityColumn) = link.storage else {
            return
        }
        let targets = deleted.keys(of: link.destinationTable)
        guard !targets.isEmpty else { return }
        let result = try connection.execute(
            "UPDATE \(PostgresIdentifier.quoted(table)) SET " + Self.clearing(column, entityColumn)
                + " WHERE \(PostgresIdentifier.quoted(column)) = ANY($1::bigint[]) AND NOT"
                + " \"Z_PK\" = ANY($2::bigint[]) RETURNING \"Z_PK\", \"Z_ENT\"",
            [
                PostgresStore.arrayLiteral(targets),
                PostgresStore.arrayLiteral(deleted.keys(of: table)),
            ])
        try touch(result.rows, in: table)
    }

    /// Removes every join-table row naming a deleted row; the owners that stay of to-many
    /// relationships without an inverse that lose a row are touched.
    private mutating func clearJoinTables() throws {
        for join in store.layout.joinTables {
            guard let ownerTable = store.layout.entity(named: join.entity)?.tableName,
                let destinationTable = store.layout.entity(named: join.destinationEntity)?
                    .tableName
            else { continue }
            let owners = deleted.keys(of: ownerTable)
            let targets = deleted.keys(of: destinationTable)
            guard !owners.isEmpty || !targets.isEmpty else { continue }
            let (table, ownerColumn, destinationColumn) = (
                PostgresIdentifier.quoted(join.name), PostgresIdentifier.quoted(join.ownerColumn),
                PostgresIdentifier.quoted(join.destinationColumn)
            )
            if join.inverseRelationship == nil, !targets.isEmpty {
                let holders = try connection.execute(
                    "SELECT o.\"Z_PK\", o.\"Z_ENT\" FROM \(PostgresIdentifier.quoted(ownerTable))"
                        + " AS o WHERE o.\"Z_PK\" IN (SELECT \(ownerColumn) FROM \(table) WHERE"
                        + " \(destinationColumn) = ANY($1::bigint[])) AND NOT o.\"Z_PK\" ="
                        + " ANY($2::bigint[]) ORDER BY o.\"Z_PK\"",
                    [PostgresStore.arrayLiteral(targets), PostgresStore.arrayLiteral(owners)])
                try touch(holders.rows, in: ownerTable)
            }
            try connection.execute(
                "DELETE FROM \(table) WHERE \(ownerColumn) = ANY($1::bigint[]) OR"
                    + " \(destinationColumn) = ANY($2::bigint[])",
                [PostgresStore.arrayLiteral(owners), PostgresStore.arrayLiteral(targets)])
        }
    }

    /// Adds rows read as (`Z_PK`, `Z_ENT`) of `table` to the touched rows.
    private mutating func touch(_ rows: [PostgresRow], in table: String) throws {
        var found: [(key: Int64, entity: Int)] = []
        for row in rows {
            guard let entity = try row.int64OrNil(1) else { continue }
            found.append((try row.int64(0), Int(entity)))
        }
        for (key, entity) in found.sorted(by: { $0.key < $1.key }) {
            touched.insert(table, key, entity)
        }
    }

    /// `"column" = NULL[, "entityColumn" = NULL]`.
    private static func clearing(_ column: String, _ entityColumn: String?) -> String {
        ([column] + (entityColumn.map { [$0] } ?? [])).map {
            PostgresIdentifier.quoted($0) + " = NULL"
        }.joined(separator: ", ")
    }

    /// The (owner, target) pairs `link` holds for the rows `owners` (keys of its entity), with
    /// the target's `Z_ENT` (`nil`: no such row, a dangling reference), in key order.
    private func pairs(_ link: PostgresBatchLink, _ owners: [Int64]) throws
        -> [(owner: Int64, target: Int64, targetEntity: Int?)]
    {
        let destination = PostgresIdentifier.quoted(link.destinationTable)
        let sql: String
        switch link.storage {
        case .foreignKey(let table, let column, _):
            let column = PostgresIdentifier.quoted(column)
            sql =
                "SELECT o.\"Z_PK\", o.\(column), d.\"Z_ENT\" FROM \(PostgresIdentifier.quoted(table))"
                + " AS o LEFT JOIN \(destination) AS d ON d.\"Z_PK\" = o.\(column) WHERE o.\"Z_PK\""
                + " = ANY($1::bigint[]) AND o.\(column) IS NOT NULL ORDER BY 1, 2"
        case .inverseForeignKey(let table, let column, _, _):
            let column = PostgresIdentifier.quoted(column)
            sql =
                "SELECT d.\(column), d.\"Z_PK\", d.\"Z_ENT\" FROM \(PostgresIdentifier.quoted(table))"
                + " AS d WHERE d.\(column) = ANY($1::bigint[]) ORDER BY 1, 2"
        case .joinTable(let table, let owner, let target, _):
            let (table, owner, target) = (
                PostgresIdentifier.quoted(table), PostgresIdentifier.quoted(owner),
                PostgresIdentifier.quoted(target)
            )
            let forward =
                "SELECT j.\(owner), j.\(target), d.\"Z_ENT\" FROM \(table) AS j LEFT JOIN"
                + " \(destination) AS d ON d.\"Z_PK\" = j.\(target) WHERE j.\(owner) ="
                + " ANY($1::bigint[])"
            sql =
                (link.selfInverse
                    ? forward + " UNION ALL SELECT j.\(target), j.\(owner), d.\"Z_ENT\" FROM"
                        + " \(table) AS j LEFT JOIN \(destination) AS d ON d.\"Z_PK\" = j.\(owner)"
                        + " WHERE j.\(target) = ANY($1::bigint[])"
                    : forward) + " ORDER BY 1, 2"
        }
        return try connection.execute(sql, [PostgresStore.arrayLiteral(owners)]).rows.map { row in
            (try row.int64(0), try row.int64(1), try row.int64OrNil(2).map { Int($0) })
        }
    }

    /// Rows by table, each once, in the order added, with their `Z_ENT`s.
    private struct KeyList {
        private var order: [(table: String, key: Int64, entity: Int)] = []
        private var byTable: [String: [Int64: Int]] = [:]

        var isEmpty: Bool { order.isEmpty }

        /// Adds the row `key` of `table` (of the entity numbered `entity`, a `Z_ENT`); `false`
        /// when it is there already.
        @discardableResult
        mutating func insert(_ table: String, _ key: Int64, _ entity: Int) -> Bool {
            guard byTable[table]?[key] == nil else { return false }
            byTable[table, default: [:]][key] = entity
            order.append((table, key, entity))
            return true
        }

        func contains(_ table: String, _ key: Int64) -> Bool { byTable[table]?[key] != nil }

        /// The keys of `table` (of the entity numbered `entity` only, when given).
        func keys(of table: String, entity: Int? = nil) -> [Int64] {
            guard let rows = byTable[table] else { return [] }
            guard let entity else { return Array(rows.keys) }
            return rows.compactMap { $0.value == entity ? $0.key : nil }
        }

        /// The rows' IDs, in order.
        func ids(_ store: PostgresStore) -> [ObjectID] {
            order.compactMap { item in
                store.schemaIndexByNumber[item.entity].map {
                    store.objectID(store.schema.entities[$0].name, item.key)
                }
            }
        }
    }
}
