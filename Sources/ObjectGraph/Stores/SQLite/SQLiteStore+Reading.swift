import Foundation
import SQLiteDatabase

/// How to read one entity's rows: for each property position, which column holds what.
struct RowDecodingPlan {
    enum Step {
        case attribute(AttributeColumn)
        /// A to-one foreign key: its column, the target's entity column (when the destination
        /// has subentities) and the destination's ID space in this store.
        case toOne(column: Int, entityColumn: Int?, destination: ObjectIDSpace)
        case toMany
        case transient
    }

    let steps: [Step]
}

/// How to read one attribute's column. Its fields are plain values, so reading a row copies
/// no reference (the attribute's type, needed only off the common path, is looked up in the
/// schema by entity and position).
struct AttributeColumn {
    /// The values read in place when the column holds the storage class they are written as
    /// (or, for numbers and dates, an integer); everything else goes through ``ValueCoding``.
    enum Reading {
        case integer(ClosedRange<Int64>)
        case boolean
        case double
        case date
        case string
        case other
    }

    let column: Int
    /// The schema index of the entity and the attribute's position in it.
    let entityIndex: Int
    let position: Int
    let reading: Reading
    /// Whether the attribute allows external storage (its blobs may be markers).
    let external: Bool

    init(column: Int, entityIndex: Int, position: Int, type: AttributeType, external: Bool) {
        self.column = column
        self.entityIndex = entityIndex
        self.position = position
        self.external = external
        switch type {
        case .integer16, .integer32, .integer64:
            reading = type.integerRange.map { .integer($0) } ?? .other
        case .boolean: reading = .boolean
        case .double, .float: reading = .double
        case .date: reading = .date
        case .string: reading = .string
        default: reading = .other
        }
    }
}

/// Reading rows, relationships and whole tables.
extension SQLiteStore {
    /// The plan for decoding rows of the schema entity at `index`, from its table's columns.
    func plan(for index: Int) -> RowDecodingPlan {
        if let known = plans[index] { return known }
        let entity = schema.entities[index]
        let entityLayout = entityLayouts[index]
        let positions = tableColumns[entityLayout.tableName]?.positions ?? [:]
        var steps: [RowDecodingPlan.Step] = []
        for (propertyPosition, property) in entity.properties.enumerated() {
            switch property {
            case .attribute(let attribute):
                if let column = entityLayout.attributeColumns[attribute.name],
                    let position = positions[column.name], !attribute.isTransient
                {
                    steps.append(
                        .attribute(
                            AttributeColumn(
                                column: position, entityIndex: index,
                                position: propertyPosition, type: attribute.type,
                                external: attribute.allowsExternalBinaryDataStorage)))
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
                case .inverseForeignKey?, .joinTable?:
                    steps.append(.toMany)
                case nil:
                    steps.append(.transient)
                }
            }
        }
        let plan = RowDecodingPlan(steps: steps)
        plans[index] = plan
        return plan
    }

    /// `SELECT <every column> FROM <table>`.
    /// (`extra` adds one more selected column, after the table's.)
    func selectAll(from table: String, extra: String? = nil) -> String {
        let names = tableColumns[table]?.names ?? ["Z_PK", "Z_ENT", "Z_OPT"]
        let layoutTable = layout.table(named: table)
        let list =
            names.map { layoutTable?.selectedColumn($0) ?? "t0." + quoteIdentifier($0) }
            + (extra.map { [$0] } ?? [])
        return "SELECT " + list.joined(separator: ", ") + " FROM " + quoteIdentifier(table)
            + " AS t0"
    }

    /// Decodes the row under `cursor` (columns of `table` in table order) as a ``StoreRow``.
    func decodeRow(_ cursor: RowCursor, table: String) throws -> StoreRow? {
        var decoder = SQLiteRowDecoder(store: self, table: table)
        return try decoder.storeRow(cursor)
    }

    /// The value of `attribute` in the current row.
    ///
    /// The common cases (see ``AttributeColumn/Reading``) are read in place; the others go
    /// through ``ValueCoding``, which converts what Core Data accepts and throws for what it
    /// does not.
    func attributeValue(_ cursor: RowCursor, _ attribute: AttributeColumn) throws -> Value {
        // One read of the column (its storage class and value together).
        var stored = try cursor.value(at: attribute.column)
        switch (stored, attribute.reading) {
        case (.null, _):
            return .null
        case (.integer(let number), .integer(let range)):
            if range.contains(number) { return .integer(number) }
        case (.integer(let number), .boolean):
            return .bool(number != 0)
        case (.real(let number), .double):
            return .double(number)
        case (.integer(let number), .double):
            return .double(Double(number))
        case (.real(let seconds), .date):
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case (.integer(let seconds), .date):
            return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        case (.text(let text), .string):
            return .string(text)
        default:
            break
        }
        if attribute.external, case .blob(let bytes) = stored { stored = externalData(bytes) }
        guard
            let type = schema.entities[attribute.entityIndex].attributeTypes[attribute.position]
        else { return .null }
        return try ValueCoding.value(from: stored, type: type)
    }

    /// Writes the to-one relationship whose target's key is in `column` of the current row
    /// (its entity from `entityColumn` when the destination has subentities) to `values`: the
    /// target's key, or no target.
    func appendToOneTarget(
        _ cursor: RowCursor, column: Int, entityColumn: Int?, destination: ObjectIDSpace,
        to values: inout some RowValueWriter
    ) throws {
        guard let target = try cursor.integer(at: column) else {
            values.appendToOne(nil)
            return
        }
        if let entityColumn, let targetNumber = try cursor.integer(at: entityColumn),
            let targetIndex = schemaIndexByNumber[Int(truncatingIfNeeded: targetNumber)]
        {
            values.appendToOne(space: idSpace(schema.entities[targetIndex].name), key: target)
            return
        }
        values.appendToOne(space: destination, key: target)
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

    /// Core Data's external-storage marker: `0x01` + the bytes inline, or `0x02` + the UUID
    /// of a file in `.<store>_SUPPORT/_EXTERNAL_DATA/`.
    func externalData(_ bytes: Data) -> DatabaseValue {
        guard let marker = bytes.first else { return .blob(bytes) }
        switch marker {
        case 0x01:
            return .blob(bytes.dropFirst())
        case 0x02:
            let name = String(decoding: bytes.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
            let url = URL(fileURLWithPath: path).deletingLastPathComponent()
                .appendingPathComponent(".\(storeBaseName)_SUPPORT/_EXTERNAL_DATA/\(name)")
            return (try? Data(contentsOf: url)).map { .blob($0) } ?? .null
        default:
            return .blob(bytes)
        }
    }

    var storeBaseName: String {
        URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    }

    // MARK: - PersistentStore reading

    func row(for id: ObjectID) throws -> StoreRow? {
        guard case .permanent(let pk) = id.key, let entity = schema.entity(named: id.entityName)
        else { return nil }
        let table = entityLayouts[entity.index].tableName
        return try sqlite {
            let statement = try database.cachedStatement(
                sql: selectAll(from: table) + " WHERE t0.Z_PK = ?")
            let cursor = try statement.makeCursor(arguments: [pk])
            guard try cursor.step() else { return nil }
            return try decodeRow(cursor, table: table)
        }
    }

    /// The statements ``rows(ofEntities:)`` runs: one per table, in key order.
    func entityRowQueries(_ entities: Set<Int>) -> [CompiledQuery] {
        var byTable: [String: [Int]] = [:]
        for index in entities.sorted() {
            byTable[entityLayouts[index].tableName, default: []].append(
                entityLayouts[index].entityNumber)
        }
        return byTable.sorted(by: { $0.key < $1.key }).map { table, numbers in
            let marks = Array(repeating: "?", count: numbers.count).joined(separator: ", ")
            return CompiledQuery(
                sql: selectAll(from: table) + " WHERE t0.Z_ENT IN (\(marks)) ORDER BY t0.Z_PK",
                arguments: numbers.map { .integer(Int64($0)) })
        }
    }

    func rows(ofEntities entities: Set<Int>) throws -> [StoreRow] {
        var rows: [StoreRow] = []
        for query in entityRowQueries(entities) {
            try sqlite {
                let cursor = try database.makeCursor(
                    sql: query.sql, arguments: query.statementArguments)
                var decoder = SQLiteRowDecoder(store: self)
                while try cursor.step() {
                    if let row = try decoder.storeRow(cursor) { rows.append(row) }
                }
            }
        }
        return rows
    }

    func relatedIDs(of id: ObjectID, entityIndex: Int, position: Int) throws -> [ObjectID] {
        guard case .permanent(let pk) = id.key,
            case .relationship(let relationship) = schema.entities[entityIndex].properties[position]
        else { return [] }
        let name = relationship.relationship.name
        let destination = relationship.relationship.destinationEntityName
        guard let destinationIndex = schema.entity(named: destination)?.index else { return [] }
        let destinationTable = entityLayouts[destinationIndex].tableName
        let sql: String
        switch entityLayouts[entityIndex].relationships[name] {
        case .inverseForeignKey(let table, let column, _, let order)?:
            sql =
                "SELECT Z_PK, Z_ENT FROM \(quoteIdentifier(table)) WHERE \(quoteIdentifier(column)) = ?"
                + " ORDER BY " + (order.map { quoteIdentifier($0) + ", " } ?? "") + "Z_PK"
        case .joinTable(let table, let owner, let target, let order)?:
            sql =
                "SELECT d.Z_PK, d.Z_ENT FROM \(quoteIdentifier(table)) AS j JOIN "
                + "\(quoteIdentifier(destinationTable)) AS d ON d.Z_PK = j.\(quoteIdentifier(target))"
                + " WHERE j.\(quoteIdentifier(owner)) = ? ORDER BY "
                + (order.map { "j." + quoteIdentifier($0) + ", " } ?? "") + "d.Z_PK"
        default:
            return []
        }
        return try sqlite {
            var ids: [ObjectID] = []
            let cursor = try database.cachedStatement(sql: sql).makeCursor(arguments: [pk])
            while try cursor.step() {
                guard case .integer(let key) = try cursor.value(at: 0),
                    case .integer(let number) = try cursor.value(at: 1),
                    let index = schemaIndexByNumber[Int(number)]
                else { continue }
                ids.append(objectID(schema.entities[index].name, key))
            }
            return ids
        }
    }
}
