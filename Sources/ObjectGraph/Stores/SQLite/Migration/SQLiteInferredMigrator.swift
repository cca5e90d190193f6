import Foundation
import SQLiteDatabase

/// Runs one inferred migration step on an open SQLite store inside the caller's transaction,
/// in SQL only (nothing per row in Swift): the old tables are renamed aside, the destination
/// layout's tables are created with the very statements a fresh store uses, every row is
/// copied with one `INSERT … SELECT` per destination table and source entity (renamed and
/// converted columns, defaults bound as arguments, `Z_ENT` renumbered, foreign keys and join
/// tables rebuilt), then the old tables are dropped, checks run, indexes, `Z_PRIMARYKEY` and
/// `Z_METADATA` rewritten. Objects keep their `Z_PK` wherever their entity keeps its table;
/// objects moved into a table that already holds rows of another source table get keys after
/// that table's largest (and every reference to them follows).
struct SQLiteInferredMigrator {
    let db: Database
    let path: String
    let storeUUID: String
    let step: MigrationStep
    let source: StoreLayout
    let destination: StoreLayout
    let sources: SQLiteMappingSources
    /// Old table name → the name it was renamed to for the copy.
    var oldNames: [String: String] = [:]
    /// The tables (entity and join) kept as they are: same name, columns and rows.
    var kept: Set<String> = []
    /// The tables of the file, lower-cased.
    var existingTables: Set<String> = []
    /// Key offset by source entity name (objects that change tables and would collide).
    var offsets: [String: Int64] = [:]
    /// Bound arguments of the statement being built.
    var arguments: [DatabaseValue] = []
    /// Window columns (`ROW_NUMBER() … AS alias`) the statement being built reads from its
    /// old table.
    var orderWindows: [String] = []

    var sourceModel: EntityModel { step.source.model }
    var destinationModel: EntityModel { step.destination.model }

    init(db: Database, path: String, storeUUID: String, step: MigrationStep) throws {
        self.db = db
        self.path = path
        self.storeUUID = storeUUID
        self.step = step
        do {
            source = try StoreLayout(model: step.source.model)
            destination = try StoreLayout(model: step.destination.model)
        } catch {
            throw MigrationError.cannotInferMapping(
                entity: error.entity, property: error.property,
                reason: "the model has no SQLite layout: \(error)")
        }
        sources = try SQLiteMappingSources(mapping: step.mapping)
    }

    /// Runs the step; `progress` gets the fraction of the step done and the entity at hand.
    mutating func run(progress: (Double, String?) -> Void) throws {
        existingTables = Set(
            try SQLiteStore.schemaNames(db, type: "table").map { $0.lowercased() })
        try computeOffsets()
        findKeptTables()
        try dropIndexes()
        try renameOldTables()
        try checkRanges()
        for table in destination.tables where !kept.contains(table.name) {
            try db.execute(sql: destination.createStatement(for: table))
        }
        for table in destination.joinTables where !kept.contains(table.name) {
            try db.execute(sql: destination.createStatement(for: table))
        }
        let total = Double(destination.tables.count + destination.joinTables.count + 1)
        for (position, table) in destination.tables.enumerated() {
            progress(Double(position) / total, table.rootEntity)
            if !kept.contains(table.name) { try fill(table) }
        }
        for (position, joinTable) in destination.joinTables.enumerated() {
            progress(Double(destination.tables.count + position) / total, joinTable.entity)
            if !kept.contains(joinTable.name) { try fill(joinTable) }
        }
        for old in oldNames.values.sorted() {
            try db.execute(sql: "DROP TABLE " + quoteIdentifier(old))
        }
        try checkRequiredValues()
        try createIndexes()
        try rewritePrimaryKeys()
        try rewriteMetadata()
        progress(1, nil)
    }

    // MARK: - Old tables

    /// Drops every index of the entity and join tables (the destination's are created after
    /// the copy, as a fresh store has them).
    func dropIndexes() throws {
        let wanted = Set(destination.indexes.map(destination.createStatement(for:)))
        try SQLiteStore.dropEntityIndexes(db) { table, sql in
            kept.contains(table) && wanted.contains(sql)
        }
    }

    /// Renames the source layout's tables present in the file (but the kept ones) to free
    /// names.
    mutating func renameOldTables() throws {
        var taken = existingTables
        for name in source.tables.map(\.name) + source.joinTables.map(\.name)
        where existingTables.contains(name.lowercased()) && !kept.contains(name) {
            var candidate = "Z_MIGRATING_" + name
            var counter = 0
            while taken.contains(candidate.lowercased()) {
                counter += 1
                candidate = "Z_MIGRATING\(counter)_" + name
            }
            taken.insert(candidate.lowercased())
            try db.execute(
                sql: "ALTER TABLE " + quoteIdentifier(name) + " RENAME TO "
                    + quoteIdentifier(candidate))
            oldNames[name] = candidate
        }
    }

    /// The renamed old table holding `entity`'s rows (`nil`: not in the file).
    func oldTable(ofSource entity: String) -> String? {
        source.entity(named: entity).flatMap { sourceTable($0.tableName) }
    }

    /// Where the source table `name` is read during the copy: its renamed copy, itself when
    /// it is kept, `nil` when the file does not have it.
    func sourceTable(_ name: String) -> String? {
        oldNames[name] ?? (kept.contains(name) ? name : nil)
    }

    /// Gives the source entities that land in a destination table fed by several source
    /// tables key offsets past the keys already there.
    mutating func computeOffsets() throws {
        for table in destination.tables {
            var feeding: [String] = []
            var entitiesByTable: [String: [String]] = [:]
            let rootSource = sources.sourceEntity(of: table.rootEntity).flatMap {
                source.entity(named: $0)?.tableName
            }
            if let rootSource { feeding.append(rootSource) }
            for number in table.entityNumbers {
                guard let entity = destination.entity(number: number),
                    let sourceName = sources.sourceEntity(of: entity.name),
                    let sourceTable = source.entity(named: sourceName)?.tableName
                else { continue }
                if !feeding.contains(sourceTable) { feeding.append(sourceTable) }
                entitiesByTable[sourceTable, default: []].append(sourceName)
            }
            guard feeding.count > 1 else { continue }
            var largest: Int64 = 0
            for (position, sourceTable) in feeding.enumerated() {
                guard existingTables.contains(sourceTable.lowercased()) else { continue }
                let old = sourceTable
                if position > 0 {
                    for entity in entitiesByTable[sourceTable] ?? [] { offsets[entity] = largest }
                }
                let top =
                    try db.fetchValue(
                        Int64.self, sql: "SELECT MAX(Z_PK) FROM " + quoteIdentifier(old)) ?? 0
                largest += top
            }
        }
    }

    // MARK: - Copying rows

    /// Copies the rows of every destination entity of `table` from its source entity.
    mutating func fill(_ table: EntityTableLayout) throws {
        for number in table.entityNumbers {
            guard let entity = destination.entity(number: number), !entity.isAbstract,
                let sourceName = sources.sourceEntity(of: entity.name),
                let sourceLayout = source.entity(named: sourceName),
                let old = oldTable(ofSource: sourceName)
            else { continue }
            arguments = []
            orderWindows = []
            let lineage = Set(
                destinationModel.entity(named: entity.name).map {
                    destinationModel.lineage(of: $0).map(\.name)
                } ?? [])
            var names: [String] = []
            var values: [String] = []
            for column in table.columns {
                names.append(quoteIdentifier(column.name))
                values.append(
                    try value(
                        of: column, entity: entity, lineage: lineage, sourceLayout: sourceLayout))
            }
            let from =
                orderWindows.isEmpty
                ? quoteIdentifier(old)
                : "(SELECT *, " + orderWindows.joined(separator: ", ") + " FROM "
                    + quoteIdentifier(old) + ")"
            let sql =
                "INSERT INTO " + quoteIdentifier(table.name) + " (" + names.joined(separator: ", ")
                + ") SELECT " + values.joined(separator: ", ") + " FROM " + from
                + " AS s WHERE s.Z_ENT = \(sourceLayout.entityNumber) ORDER BY s.Z_PK"
            try db.execute(sql: sql, arguments: StatementArguments(arguments))
        }
    }

    /// The SELECT expression giving `column` for rows of `entity` read from `sourceLayout`'s
    /// table (aliased `s`).
    mutating func value(
        of column: Column, entity: EntityLayout, lineage: Set<String>, sourceLayout: EntityLayout
    ) throws -> String {
        switch column.role {
        case .primaryKey:
            let offset = offsets[sourceLayout.name] ?? 0
            return offset == 0 ? "s.Z_PK" : "s.Z_PK + \(offset)"
        case .entityNumber:
            return "\(entity.entityNumber)"
        case .optimisticLock:
            return "s.Z_OPT"
        case .attribute(let owner, let name) where lineage.contains(owner):
            return try attributeValue(owner: owner, name: name, entity: entity, from: sourceLayout)
        case .foreignKey(let owner, let name) where lineage.contains(owner):
            return try toOneKey(entity: entity, relationship: name, from: sourceLayout)
        case .foreignEntity(let owner, let name) where lineage.contains(owner):
            return try toOneEntity(entity: entity, relationship: name, from: sourceLayout)
        case .orderKey(let owner, let name) where lineage.contains(owner):
            return try toOneOrder(entity: entity, relationship: name, from: sourceLayout)
        default:
            return "NULL"
        }
    }

    /// An attribute's value: its source column converted, or its default for a new attribute
    /// (and for nils of an attribute that became required).
    mutating func attributeValue(
        owner: String, name: String, entity: EntityLayout, from sourceLayout: EntityLayout
    ) throws -> String {
        guard let attribute = destinationModel.entity(named: owner)?.attribute(named: name) else {
            return "NULL"
        }
        let sourceAttribute = sourceAttribute(of: entity.name, name, in: sourceLayout)
        var expression = "NULL"
        if let (sourceAttribute, column) = sourceAttribute {
            guard
                let converted = SQLiteValueConversionSQL.convert(
                    "s." + quoteIdentifier(column), from: sourceAttribute.type, to: attribute.type)
            else {
                throw MigrationError.cannotInferMapping(
                    entity: entity.name, property: name,
                    reason:
                        "its type changes from \(sourceAttribute.type) to \(attribute.type),"
                        + " which a lightweight migration does not convert")
            }
            expression = converted
        }
        let fillsDefault =
            sourceAttribute.map { !attribute.isOptional && $0.0.isOptional } ?? true
        if fillsDefault, case let defaultValue = attribute.defaultValue, defaultValue != .null {
            let stored: DatabaseValue
            do {
                stored = try ValueCoding.storageValue(for: defaultValue, type: attribute.type)
            } catch {
                throw MigrationError.cannotConvertValue(
                    entity: entity.name, property: name,
                    reason: "its default value cannot be stored: \(error)")
            }
            arguments.append(stored)
            return sourceAttribute == nil ? "?" : "COALESCE(\(expression), ?)"
        }
        return expression
    }

    /// The source attribute (and its column) that `destinationEntity`'s attribute `name`
    /// reads, `nil` when it is new.
    func sourceAttribute(
        of destinationEntity: String, _ name: String, in sourceLayout: EntityLayout
    ) -> (Attribute, String)? {
        guard
            let sourceName = sources.sourceProperty(
                of: destinationEntity, name,
                hasSource: { sourceLayout.attributeColumns[$0] != nil }),
            let column = sourceLayout.attributeColumns[sourceName],
            let entity = sourceModel.entity(named: sourceLayout.name),
            let attribute = sourceModel.allAttributes(of: entity).first(where: {
                $0.name == sourceName
            })
        else { return nil }
        return (attribute, column.name)
    }
}
