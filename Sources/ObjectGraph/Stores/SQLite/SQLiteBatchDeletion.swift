import SQLiteDatabase

/// A batch delete in SQL, inside the caller's transaction. The keys of the rows to delete are
/// kept in `temp.og_batch_deleted` (table number, `Z_PK`, `Z_ENT`, in the order found) and
/// the rows left alive whose relationships lose a deleted row in `temp.og_batch_touched`:
///
/// 1. cascade: for each entity with rows to delete and each cascade relationship, the targets
///    join the set, until a pass adds none;
/// 2. deny: a deny relationship holding a row not in the set refuses the whole delete
///    (``ValidationError``, rule `deleteDenied`, naming entity and relationship);
/// 3. nullify: the targets of every relationship with an inverse that stay are touched (their
///    `Z_OPT` goes up), their to-one foreign keys pointing at deleted rows are cleared, and
///    every join-table row naming a deleted row is removed; relationships without an inverse
///    of the rows that stay lose the deleted rows too (to-one keys cleared, join-table rows
///    removed, their owners touched; see ``BatchDeletion``);
/// 4. the rows are deleted, table by table.
///
/// Table numbers are positions in the layout's table list and entity numbers are `Z_ENT`s:
/// integers of the layout, never values from the user (those are bound).
struct SQLiteBatchDeletion {
    let store: SQLiteStore
    let db: Database
    /// The layout's tables' positions, by name.
    private let tableNumbers: [String: Int]

    init(store: SQLiteStore, db: Database) {
        self.store = store
        self.db = db
        var numbers: [String: Int] = [:]
        for (number, table) in store.layout.tables.enumerated() { numbers[table.name] = number }
        tableNumbers = numbers
    }

    /// Empties (creating them on first use) the temporary key tables.
    static func resetKeyTables(_ db: Database) throws {
        for name in ["og_batch_deleted", "og_batch_touched"] {
            try db.execute(
                sql: "CREATE TEMP TABLE IF NOT EXISTS \(name) (seq INTEGER PRIMARY KEY,"
                    + " tbl INTEGER NOT NULL, pk INTEGER NOT NULL, ent INTEGER NOT NULL,"
                    + " UNIQUE (tbl, pk))")
            try db.execute(sql: "DELETE FROM temp.\(name)")
        }
    }

    /// Deletes the rows `matched` (a SELECT of `Z_PK`, `Z_ENT` of `table`) and applies the
    /// rules.
    mutating func run(_ matched: CompiledQuery, table: String) throws {
        try Self.resetKeyTables(db)
        try db.execute(
            sql: "INSERT OR IGNORE INTO temp.og_batch_deleted (tbl, pk, ent) SELECT "
                + "\(number(of: table)), * FROM (\(matched.sql))",
            arguments: matched.statementArguments)
        let links = relationshipLinks()
        var added = 1
        while added > 0 {
            added = 0
            for link in links where link.rule == .cascade {
                try db.execute(
                    sql: link.insertTargets(into: "og_batch_deleted", keepingDeleted: true))
                added += db.changes
            }
        }
        try checkDenyRules(links)
        for link in links where link.hasInverse {
            try db.execute(sql: link.insertTargets(into: "og_batch_touched", keepingDeleted: false))
            if let clear = link.clearInverseForeignKey { try db.execute(sql: clear) }
        }
        for link in links where !link.hasInverse {
            guard case .foreignKey(let table, let column, let entityColumn) = link.storage else {
                continue
            }
            // A to-one without an inverse pointing at a deleted row is cleared (its owner
            // touched): no reference to a deleted row is left.
            let (quotedTable, quotedColumn) = (quoteIdentifier(table), quoteIdentifier(column))
            let holders =
                "\(quotedColumn) IN (\(link.deleted)) AND Z_PK NOT IN (\(deletedKeys(table)))"
            try db.execute(
                sql: "INSERT OR IGNORE INTO temp.og_batch_touched (tbl, pk, ent) SELECT "
                    + "\(number(of: table)), Z_PK, Z_ENT FROM \(quotedTable) WHERE \(holders)")
            let clears =
                ["\(quotedColumn) = NULL"]
                + (entityColumn.map { ["\(quoteIdentifier($0)) = NULL"] } ?? [])
            try db.execute(
                sql: "UPDATE \(quotedTable) SET \(clears.joined(separator: ", ")) WHERE \(holders)")
        }
        for join in store.layout.joinTables {
            guard let ownerTable = tableName(ofEntity: join.entity),
                let destinationTable = tableName(ofEntity: join.destinationEntity)
            else { continue }
            if join.inverseRelationship == nil {
                // A to-many without an inverse loses the deleted rows too (its row path drops
                // them from the list): the owners that stay are touched.
                try db.execute(
                    sql: "INSERT OR IGNORE INTO temp.og_batch_touched (tbl, pk, ent) SELECT "
                        + "\(number(of: ownerTable)), o.Z_PK, o.Z_ENT FROM \(quoteIdentifier(ownerTable))"
                        + " o WHERE o.Z_PK IN (SELECT \(quoteIdentifier(join.ownerColumn)) FROM "
                        + "\(quoteIdentifier(join.name)) WHERE \(quoteIdentifier(join.destinationColumn))"
                        + " IN (\(deletedKeys(destinationTable)))) AND o.Z_PK NOT IN (\(deletedKeys(ownerTable)))"
                )
            }
            try db.execute(
                sql: "DELETE FROM \(quoteIdentifier(join.name)) WHERE "
                    + "\(quoteIdentifier(join.ownerColumn)) IN (\(deletedKeys(ownerTable))) OR "
                    + "\(quoteIdentifier(join.destinationColumn)) IN (\(deletedKeys(destinationTable)))"
            )
        }
        for table in store.layout.tables {
            let quoted = quoteIdentifier(table.name)
            try db.execute(
                sql: "UPDATE \(quoted) SET Z_OPT = COALESCE(Z_OPT, 0) + 1 WHERE Z_PK IN "
                    + "(SELECT pk FROM temp.og_batch_touched WHERE tbl = \(number(of: table.name)))"
            )
            try db.execute(
                sql: "DELETE FROM \(quoted) WHERE Z_PK IN (\(deletedKeys(table.name)))")
        }
    }

    /// The IDs deleted and touched.
    func outcome() throws -> StoreBatchOutcome {
        StoreBatchOutcome(
            deleted: try store.batchIDs(
                db, sql: "SELECT pk, ent FROM temp.og_batch_deleted ORDER BY seq"),
            updated: try store.batchIDs(
                db, sql: "SELECT pk, ent FROM temp.og_batch_touched ORDER BY seq"))
    }

    /// Throws for the first deny relationship that holds a row not deleted, per relationship.
    private func checkDenyRules(_ links: [Link]) throws {
        var problems: [ValidationError.Problem] = []
        for link in links where link.rule == .deny {
            guard
                let row = try db.fetchOne(
                    sql: "SELECT owner, target FROM (\(link.pairs)) WHERE target NOT IN "
                        + "(\(deletedKeys(link.destinationTable))) LIMIT 1"),
                case .integer(let owner)? = row[0], case .integer(let target)? = row[1]
            else { continue }
            let targetID = try store.batchIDs(
                db,
                sql: "SELECT Z_PK, Z_ENT FROM \(quoteIdentifier(link.destinationTable))"
                    + " WHERE Z_PK = \(target)"
            ).first
            let ownerID = store.objectID(link.entity, owner)
            problems.append(
                ValidationError.Problem(
                    objectID: ownerID, entity: link.entity, property: link.name,
                    rule: .deleteDenied, value: targetID.map { .objectID($0) } ?? .null,
                    message:
                        "the deny rule of \(link.entity).\(link.name) refuses the batch delete:"
                        + " it holds an object not deleted"))
        }
        if !problems.isEmpty { throw ValidationError(problems: problems) }
    }

    /// The number of the table `name`.
    private func number(of name: String) -> Int { tableNumbers[name] ?? -1 }

    /// The keys to delete from `table`.
    private func deletedKeys(_ table: String) -> String {
        "SELECT pk FROM temp.og_batch_deleted WHERE tbl = \(number(of: table))"
    }

    private func tableName(ofEntity name: String) -> String? {
        store.layout.entity(named: name)?.tableName
    }

    /// Every persistent relationship of every concrete entity of the store, with its storage.
    private func relationshipLinks() -> [Link] {
        var links: [Link] = []
        for entity in store.schema.entities where !entity.entity.isAbstract {
            let entityLayout = store.entityLayouts[entity.index]
            let owners =
                "SELECT pk FROM temp.og_batch_deleted WHERE tbl = "
                + "\(number(of: entityLayout.tableName)) AND ent = \(entityLayout.entityNumber)"
            for position in entity.relationshipPositions {
                guard case .relationship(let relationship) = entity.properties[position],
                    !relationship.relationship.isTransient,
                    let destination = relationship.destinationIndex,
                    let storage = entityLayout.relationships[entity.names[position]]
                else { continue }
                let destinationLayout = store.entityLayouts[destination]
                let inverseStorage = relationship.inverseName.flatMap {
                    destinationLayout.relationships[$0]
                }
                links.append(
                    Link(
                        entity: entity.name, name: entity.names[position],
                        rule: relationship.relationship.deleteRule,
                        hasInverse: relationship.inverseName != nil,
                        selfInverse: relationship.inverseName == entity.names[position]
                            && destinationLayout.tableName == entityLayout.tableName,
                        storage: storage, inverseStorage: inverseStorage,
                        destinationTable: destinationLayout.tableName,
                        destinationNumber: number(of: destinationLayout.tableName),
                        owners: owners, deleted: deletedKeys(destinationLayout.tableName)))
            }
        }
        return links
    }

    /// One relationship of one concrete entity, as SQL over the key tables.
    private struct Link {
        let entity: String
        let name: String
        let rule: DeleteRule
        let hasInverse: Bool
        let selfInverse: Bool
        let storage: RelationshipStorage
        let inverseStorage: RelationshipStorage?
        let destinationTable: String
        let destinationNumber: Int
        /// The keys of the entity's rows being deleted.
        let owners: String
        /// The keys being deleted from the destination table.
        let deleted: String

        /// The (`owner`, `target`) pairs the relationship holds for the rows being deleted.
        var pairs: String {
            switch storage {
            case .foreignKey(let table, let column, _):
                let column = quoteIdentifier(column)
                return
                    "SELECT o.Z_PK AS owner, o.\(column) AS target FROM \(quoteIdentifier(table))"
                    + " o WHERE o.Z_PK IN (\(owners)) AND o.\(column) IS NOT NULL"
            case .inverseForeignKey(let table, let column, _, _):
                let column = quoteIdentifier(column)
                return
                    "SELECT d.\(column) AS owner, d.Z_PK AS target FROM \(quoteIdentifier(table))"
                    + " d WHERE d.\(column) IN (\(owners))"
            case .joinTable(let table, let owner, let destination, _):
                let (owner, destination) = (quoteIdentifier(owner), quoteIdentifier(destination))
                let forward =
                    "SELECT j.\(owner) AS owner, j.\(destination) AS target FROM "
                    + "\(quoteIdentifier(table)) j WHERE j.\(owner) IN (\(owners))"
                guard selfInverse else { return forward }
                return forward + " UNION ALL SELECT j.\(destination), j.\(owner) FROM "
                    + "\(quoteIdentifier(table)) j WHERE j.\(destination) IN (\(owners))"
            }
        }

        /// Adds the targets to the key table `keyTable`: all of them, or only those not being
        /// deleted.
        func insertTargets(into keyTable: String, keepingDeleted: Bool) -> String {
            "INSERT OR IGNORE INTO temp.\(keyTable) (tbl, pk, ent) SELECT \(destinationNumber),"
                + " d.Z_PK, d.Z_ENT FROM \(quoteIdentifier(destinationTable)) d WHERE d.Z_PK IN"
                + " (SELECT target FROM (\(pairs)))"
                + (keepingDeleted ? "" : " AND d.Z_PK NOT IN (\(deleted))")
        }

        /// Clears the inverse's foreign keys that point at the rows being deleted, in the rows
        /// that stay (a to-one inverse kept in the destination's row); `nil` when the inverse
        /// is kept elsewhere.
        var clearInverseForeignKey: String? {
            guard case .foreignKey(let table, let column, let entityColumn)? = inverseStorage
            else { return nil }
            let clears =
                ["\(quoteIdentifier(column)) = NULL"]
                + (entityColumn.map { ["\(quoteIdentifier($0)) = NULL"] } ?? [])
            return "UPDATE \(quoteIdentifier(table)) SET \(clears.joined(separator: ", "))"
                + " WHERE \(quoteIdentifier(column)) IN (\(owners)) AND Z_PK NOT IN (\(deleted))"
        }
    }
}
