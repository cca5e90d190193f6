import Foundation
import PostgresClient

/// How to read one entity's rows from its table's columns (`Z_PK`, `Z_ENT`, `Z_OPT` first).
struct PostgresReadPlan {
    enum Step {
        case attribute(column: Int, type: AttributeType)
        /// A to-one foreign key: its column, the target's entity column (when the destination
        /// has subentities) and the ID space of the declared destination.
        case toOne(column: Int, entityColumn: Int?, destination: ObjectIDSpace)
        case toMany
        case transient
    }

    let steps: [Step]
}

/// Reading rows and relationships: each read is one statement with bound keys.
extension PostgresStore {
    /// The most rows a read receives whole before decoding them: a read that may return more
    /// (a fetch without a smaller limit, more keys, an entity's or a relationship's rows) is
    /// streamed (``PostgresConnection/execute(_:_:binary:streaming:reading:)``), each row
    /// decoded as it arrives, so that a large result is never in memory twice, as libpq's
    /// result and as its decoded rows.
    static let wholeResultRows = 1000

    /// Whether a read of at most `rows` rows (`nil`: no bound) is streamed.
    static func streams(atMost rows: Int?) -> Bool {
        guard let rows else { return true }
        return rows > wholeResultRows
    }

    /// The columns of `table`, in table order.
    func columnNames(of table: String) -> [String] {
        layout.table(named: table)?.columns.map(\.name) ?? ["Z_PK", "Z_ENT", "Z_OPT"]
    }

    /// `SELECT <every column> FROM <table>`.
    func selectAll(from table: String) -> String {
        "SELECT " + columnNames(of: table).map(PostgresIdentifier.quoted).joined(separator: ", ")
            + " FROM " + PostgresIdentifier.quoted(table)
    }

    /// The plan for reading rows of the schema entity at `index`.
    func readPlan(for index: Int) -> PostgresReadPlan {
        if let known = readPlans[index] { return known }
        let entity = schema.entities[index]
        let entityLayout = entityLayouts[index]
        var positions: [String: Int] = [:]
        for (position, name) in columnNames(of: entityLayout.tableName).enumerated() {
            positions[name] = position
        }
        var steps: [PostgresReadPlan.Step] = []
        for property in entity.properties {
            switch property {
            case .attribute(let attribute):
                if !attribute.isTransient,
                    let column = entityLayout.attributeColumns[attribute.name],
                    let position = positions[column.name]
                {
                    steps.append(.attribute(column: position, type: attribute.type))
                } else {
                    steps.append(.transient)
                }
            case .relationship(let relationship):
                switch entityLayout.relationships[relationship.relationship.name] {
                case .foreignKey(_, let column, let entityColumn)?:
                    if let position = positions[column] {
                        steps.append(
                            .toOne(
                                column: position,
                                entityColumn: entityColumn.flatMap { positions[$0] },
                                destination: idSpace(
                                    relationship.relationship.destinationEntityName)))
                    } else {
                        steps.append(.transient)
                    }
                case .inverseForeignKey?, .joinTable?: steps.append(.toMany)
                case nil: steps.append(.transient)
                }
            }
        }
        let plan = PostgresReadPlan(steps: steps)
        readPlans[index] = plan
        return plan
    }

    func objectID(_ entity: String, _ key: Int64) -> ObjectID {
        ObjectID(space: idSpace(entity), key: .permanent(key))
    }

    /// The space of the IDs of `entity`'s objects in this store.
    func idSpace(_ entity: String) -> ObjectIDSpace {
        if let space = idSpaces[entity] { return space }
        let space = ObjectIDSpace.named(entity, storeIdentifier: description.identifier)
        idSpaces[entity] = space
        return space
    }

    /// `{1,2,3}`: a PostgreSQL array literal of `numbers`, bound as one parameter.
    static func arrayLiteral(_ numbers: some Sequence<Int64>) -> PostgresValue {
        .text("{" + numbers.map(String.init).joined(separator: ",") + "}")
    }

    // MARK: - PersistentStore reading

    func row(for id: ObjectID) throws -> StoreRow? {
        guard case .permanent(let key) = id.key, let entity = schema.entity(named: id.entityName)
        else { return nil }
        let table = entityLayouts[entity.index].tableName
        return try postgres {
            try connection.execute(
                selectAll(from: table) + " WHERE \"Z_PK\" = $1", [.integer(key)],
                binary: true
            ) { cursor in
                var decoder = PostgresRowDecoder(store: self)
                return cursor.next() ? try decoder.storeRow(cursor) : nil
            }
        }
    }

    func rows(ofEntities entities: Set<Int>) throws -> [StoreRow] {
        var byTable: [String: [Int64]] = [:]
        for index in entities.sorted() {
            byTable[entityLayouts[index].tableName, default: []].append(
                Int64(entityLayouts[index].entityNumber))
        }
        var rows: [StoreRow] = []
        for (table, numbers) in byTable.sorted(by: { $0.key < $1.key }) {
            try postgres {
                try connection.execute(
                    selectAll(from: table)
                        + " WHERE \"Z_ENT\" = ANY($1::integer[]) ORDER BY \"Z_PK\"",
                    [Self.arrayLiteral(numbers)], binary: true, streaming: true
                ) { cursor in
                    var decoder = PostgresRowDecoder(store: self)
                    while cursor.next() {
                        if let decoded = try decoder.storeRow(cursor) { rows.append(decoded) }
                    }
                }
            }
        }
        return rows
    }

    func rows(for ids: [ObjectID]) throws -> [StoreRow] {
        var byID: [ObjectID: StoreRow] = [:]
        try forEachRow(of: ids) { cursor, decoder in
            if let decoded = try decoder.storeRow(cursor) { byID[decoded.id] = decoded }
        }
        return ids.compactMap { byID[$0] }
    }

    /// Runs `read` on each row of `ids` the store has (one statement per table, the keys
    /// bound as one array), with a decoder for the statement's rows.
    func forEachRow(
        of ids: [ObjectID], read: (PostgresCursor, inout PostgresRowDecoder) throws -> Void
    ) throws {
        var byTable: [String: [Int64]] = [:]
        for id in ids {
            guard case .permanent(let key) = id.key,
                let entity = schema.entity(named: id.entityName)
            else { continue }
            byTable[entityLayouts[entity.index].tableName, default: []].append(key)
        }
        for (table, keys) in byTable {
            try postgres {
                try connection.execute(
                    selectAll(from: table) + " WHERE \"Z_PK\" = ANY($1::bigint[])",
                    [Self.arrayLiteral(keys)], binary: true,
                    streaming: Self.streams(atMost: keys.count)
                ) { cursor in
                    var decoder = PostgresRowDecoder(store: self)
                    while cursor.next() { try read(cursor, &decoder) }
                }
            }
        }
    }

    /// The rows related to each of `owners` through the to-many relationship at `position`,
    /// in relationship order, read in one statement for all the owners (their keys bound as
    /// one array): the destination rows whose foreign key is one of the keys, or, through a
    /// join table, the rows its pairs of those owners name, each with its owner's key.
    func relatedRows(of owners: [ObjectID], entityIndex: Int, position: Int) throws
        -> [ObjectID: [StoreRow]]?
    {
        var lists = [[StoreRow]](repeating: [], count: owners.count)
        try forEachRelatedRow(of: owners, entityIndex: entityIndex, position: position) {
            cursor, group, decoder in
            if let decoded = try decoder.storeRow(cursor) { lists[group].append(decoded) }
        }
        var result: [ObjectID: [StoreRow]] = [:]
        for (index, owner) in owners.enumerated() where result[owner] == nil {
            guard case .permanent = owner.key else { continue }
            result[owner] = lists[index]
        }
        return result
    }

    /// Runs `read` on each row related to one of `owners` through the to-many relationship at
    /// `position` (see ``relatedRows(of:entityIndex:position:)``), with the index in `owners`
    /// of the row's owner (its first, when listed twice) and a decoder for the statement's
    /// rows.
    func forEachRelatedRow(
        of owners: [ObjectID], entityIndex: Int, position: Int,
        read: (PostgresCursor, Int, inout PostgresRowDecoder) throws -> Void
    ) throws {
        var groups: [Int64: Int] = [:]
        var keys: [Int64] = []
        for (index, owner) in owners.enumerated() {
            guard case .permanent(let key) = owner.key, groups[key] == nil else { continue }
            groups[key] = index
            keys.append(key)
        }
        guard !keys.isEmpty, let sql = relatedRowsSQL(entityIndex: entityIndex, position: position)
        else { return }
        try postgres {
            try connection.execute(
                sql.text, [Self.arrayLiteral(keys)], binary: true, streaming: true
            ) { cursor in
                var decoder = PostgresRowDecoder(store: self)
                while cursor.next() {
                    guard let owner = try cursor.int64OrNil(sql.ownerColumn),
                        let group = groups[owner]
                    else { continue }
                    try read(cursor, group, &decoder)
                }
            }
        }
    }

    /// The SELECT of ``relatedRows(of:entityIndex:position:)``: the destination table's
    /// columns, then the owner's key (at `ownerColumn`), for the owner keys bound as `$1`,
    /// in relationship order (the order column, then `Z_PK`), the owners' rows interleaved:
    /// each owner's rows are in its order all the same, and rows of one table come in key
    /// order (the order a context registers objects fastest); `nil` for a relationship
    /// without storage.
    private func relatedRowsSQL(entityIndex: Int, position: Int)
        -> (text: String, ownerColumn: Int)?
    {
        guard
            case .relationship(let relationship) = schema.entities[entityIndex].properties[position],
            let destination = schema.entity(named: relationship.relationship.destinationEntityName)
        else { return nil }
        let destinationTable = entityLayouts[destination.index].tableName
        let select = { (columns: [String]) -> String in
            "SELECT " + columns.map { "d." + PostgresIdentifier.quoted($0) }.joined(separator: ", ")
        }
        switch entityLayouts[entityIndex].relationships[relationship.relationship.name] {
        case .inverseForeignKey(let table, let column, _, let order)?:
            let columns = columnNames(of: table)
            let owner = "d." + PostgresIdentifier.quoted(column)
            return (
                select(columns)
                    + ", \(owner) FROM \(PostgresIdentifier.quoted(table)) AS d WHERE \(owner)"
                    + " = ANY($1::bigint[]) ORDER BY "
                    + (order.map { "d." + PostgresIdentifier.quoted($0) + ", " } ?? "")
                    + "d.\"Z_PK\"", columns.count
            )
        case .joinTable(let table, let ownerColumn, let target, let order)?:
            let owner = "j." + PostgresIdentifier.quoted(ownerColumn)
            let columns = columnNames(of: destinationTable)
            return (
                select(columns) + ", \(owner) FROM \(PostgresIdentifier.quoted(table)) AS j JOIN "
                    + PostgresIdentifier.quoted(destinationTable) + " AS d ON d.\"Z_PK\" = j."
                    + PostgresIdentifier.quoted(target) + " WHERE \(owner) = ANY($1::bigint[])"
                    + " ORDER BY "
                    + (order.map { "j." + PostgresIdentifier.quoted($0) + ", " } ?? "")
                    + "d.\"Z_PK\"", columns.count
            )
        default:
            return nil
        }
    }

    func relatedIDs(of id: ObjectID, entityIndex: Int, position: Int) throws -> [ObjectID] {
        guard case .permanent(let key) = id.key,
            case .relationship(let relationship) = schema.entities[entityIndex].properties[position],
            let destination = schema.entity(named: relationship.relationship.destinationEntityName)
        else { return [] }
        let destinationTable = PostgresIdentifier.quoted(
            entityLayouts[destination.index].tableName)
        let sql: String
        switch entityLayouts[entityIndex].relationships[relationship.relationship.name] {
        case .inverseForeignKey(let table, let column, _, let order)?:
            sql =
                "SELECT \"Z_PK\", \"Z_ENT\" FROM \(PostgresIdentifier.quoted(table)) WHERE "
                + PostgresIdentifier.quoted(column) + " = $1 ORDER BY "
                + (order.map { PostgresIdentifier.quoted($0) + ", " } ?? "") + "\"Z_PK\""
        case .joinTable(let table, let owner, let target, let order)?:
            sql =
                "SELECT d.\"Z_PK\", d.\"Z_ENT\" FROM \(PostgresIdentifier.quoted(table)) AS j JOIN "
                + destinationTable + " AS d ON d.\"Z_PK\" = j." + PostgresIdentifier.quoted(target)
                + " WHERE j." + PostgresIdentifier.quoted(owner) + " = $1 ORDER BY "
                + (order.map { "j." + PostgresIdentifier.quoted($0) + ", " } ?? "") + "d.\"Z_PK\""
        default:
            return []
        }
        return try postgres {
            try connection.execute(sql, [.integer(key)]).rows.compactMap { row -> ObjectID? in
                guard let number = try row.int64OrNil(1),
                    let index = schemaIndexByNumber[Int(number)]
                else { return nil }
                let target = try row.int64(0)
                return objectID(schema.entities[index].name, target)
            }
        }
    }
}
