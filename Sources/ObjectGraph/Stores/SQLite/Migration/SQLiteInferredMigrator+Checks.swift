import Foundation
import SQLiteDatabase

/// The checks of an inferred migration, each one query naming the objects at fault (at most
/// ``namedObjects`` of them): integer values that do not fit a narrower type, nils of an
/// attribute that became required without a default, duplicates under a new uniqueness
/// constraint (found when its unique index refuses them).
extension SQLiteInferredMigrator {
    /// How many objects an error names at most.
    static let namedObjects = 20

    /// The URIs of objects by their entity and key.
    func uris(_ rows: [(entity: String, key: Int64)]) -> [String] {
        rows.map {
            ObjectID(entityName: $0.entity, storeIdentifier: storeUUID, key: .permanent($0.key))
                .uriRepresentation.absoluteString
        }
    }

    /// The objects (entity name, key) that `sql` selects as `Z_PK, Z_ENT` rows of `layout`.
    func objects(_ sql: String, layout: StoreLayout) throws -> [(entity: String, key: Int64)] {
        let cursor = try db.makeCursor(sql: sql)
        var result: [(entity: String, key: Int64)] = []
        while try cursor.step() {
            let key = try cursor.decode(Int64.self, at: 0)
            let number = try cursor.decode(Int.self, at: 1)
            result.append((layout.entity(number: number)?.name ?? "\(number)", key))
        }
        return result
    }

    /// Refuses values a type change cannot keep (before anything is copied), naming the
    /// objects and values: `x-coredata://…/Person/p12: 70000 does not fit Integer 16`.
    func checkRanges() throws {
        for entity in destination.entities where !entity.isAbstract {
            guard let sourceName = sources.sourceEntity(of: entity.name),
                let sourceLayout = source.entity(named: sourceName),
                let old = oldTable(ofSource: sourceName),
                let model = destinationModel.entity(named: entity.name)
            else { continue }
            for attribute in destinationModel.allAttributes(of: model) where !attribute.isTransient
            {
                guard
                    let (sourceAttribute, column) = sourceAttribute(
                        of: entity.name, attribute.name, in: sourceLayout),
                    let check = SQLiteValueConversionSQL.outOfRange(
                        "s." + quoteIdentifier(column), from: sourceAttribute.type,
                        to: attribute.type)
                else { continue }
                let cursor = try db.makeCursor(
                    sql: "SELECT s.Z_PK, CAST(s.\(quoteIdentifier(column)) AS TEXT) FROM "
                        + "\(quoteIdentifier(old)) AS s WHERE s.Z_ENT = "
                        + "\(sourceLayout.entityNumber) AND \(check) ORDER BY s.Z_PK LIMIT "
                        + "\(Self.namedObjects)")
                var bad: [String] = []
                while try cursor.step() {
                    let key = try cursor.decode(Int64.self, at: 0)
                    let value = (try cursor.decode(String?.self, at: 1)) ?? "nil"
                    bad.append(
                        uris([(entity.name, key + (offsets[sourceName] ?? 0))]).joined()
                            + ": \(value)")
                }
                guard bad.isEmpty else {
                    throw MigrationError.cannotConvertValue(
                        entity: entity.name, property: attribute.name,
                        reason: bad.joined(separator: ", ") + " does not fit \(attribute.type)")
                }
            }
        }
    }

    /// Refuses nils of required attributes that were optional or new, without a default.
    func checkRequiredValues() throws {
        for entity in destination.entities where !entity.isAbstract {
            guard let sourceName = sources.sourceEntity(of: entity.name),
                let sourceLayout = source.entity(named: sourceName),
                let model = destinationModel.entity(named: entity.name)
            else { continue }
            for attribute in destinationModel.allAttributes(of: model)
            where !attribute.isOptional && !attribute.isTransient && attribute.defaultValue == .null
            {
                let found = sourceAttribute(of: entity.name, attribute.name, in: sourceLayout)
                if let found, !found.0.isOptional { continue }
                guard let column = entity.attributeColumns[attribute.name] else { continue }
                let missing = try objects(
                    "SELECT Z_PK, Z_ENT FROM \(quoteIdentifier(entity.tableName)) WHERE Z_ENT = "
                        + "\(entity.entityNumber) AND \(quoteIdentifier(column.name)) IS NULL"
                        + " ORDER BY Z_PK LIMIT \(Self.namedObjects)", layout: destination)
                guard missing.isEmpty else {
                    throw MigrationError.missingRequiredValues(
                        entity: entity.name, property: attribute.name, objects: uris(missing))
                }
            }
        }
    }

    /// Creates the destination's indexes; a unique index refused by duplicates becomes
    /// ``MigrationError/uniquenessViolated(entity:properties:objects:)`` naming them.
    func createIndexes() throws {
        let existing = Set(try SQLiteStore.schemaNames(db, type: "index"))
        for index in destination.indexes where !existing.contains(index.name) {
            do {
                try db.execute(sql: destination.createStatement(for: index))
            } catch let error as DatabaseError
                where index.isUnique && error.resultCode == .constraint
            {
                let columns = index.elements.map { quoteIdentifier($0.column) }
                let matches = columns.map { "t.\($0) = d.\($0)" }.joined(separator: " AND ")
                let table = quoteIdentifier(index.table)
                let duplicates = try objects(
                    "SELECT t.Z_PK, t.Z_ENT FROM \(table) AS t JOIN (SELECT "
                        + columns.joined(separator: ", ") + " FROM \(table) GROUP BY "
                        + columns.joined(separator: ", ") + " HAVING COUNT(*) > 1) AS d ON "
                        + matches + " ORDER BY t.Z_PK LIMIT \(Self.namedObjects)",
                    layout: destination)
                let (entity, properties) = constraint(of: index)
                throw MigrationError.uniquenessViolated(
                    entity: entity, properties: properties, objects: uris(duplicates))
            }
        }
    }

    /// The entity and properties of the uniqueness constraint `index` enforces.
    func constraint(of index: IndexLayout) -> (String, [String]) {
        for entity in destinationModel.entities {
            for constraint in entity.uniquenessConstraints
            where index.name.hasPrefix(
                "Z_\(entity.name)_UNIQUE_" + constraint.joined(separator: "_"))
            {
                return (entity.name, constraint)
            }
        }
        return (index.table, index.elements.map(\.column))
    }

    // MARK: - Bookkeeping

    /// Rewrites `Z_PRIMARYKEY`: a row per destination entity, `Z_MAX` kept from the source
    /// entity and raised to the largest key of its table for roots.
    func rewritePrimaryKeys() throws {
        var oldMax: [String: Int64] = [:]
        let cursor = try db.makeCursor(sql: "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY")
        while try cursor.step() {
            if let name = try cursor.decode(String?.self, at: 0) {
                oldMax[name] = (try cursor.decode(Int64?.self, at: 1)) ?? 0
            }
        }
        try db.execute(sql: "DELETE FROM Z_PRIMARYKEY")
        for entity in destination.entities {
            var largest = sources.sourceEntity(of: entity.name).flatMap { oldMax[$0] } ?? 0
            if entity.superNumber == 0 {
                let top =
                    try db.fetchValue(
                        Int64.self,
                        sql: "SELECT MAX(Z_PK) FROM " + quoteIdentifier(entity.tableName)) ?? 0
                largest = max(largest, top)
            }
            try db.execute(
                sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)",
                arguments: [entity.entityNumber, entity.name, entity.superNumber, largest])
        }
    }

    /// Writes the destination model's metadata (see ``SQLiteStore/rewriteMetadata``).
    func rewriteMetadata() throws {
        try SQLiteStore.rewriteMetadata(db, path: path, model: destinationModel)
    }
}
