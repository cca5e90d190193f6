import SQLiteDatabase

/// Relationships in an inferred migration: to-one foreign keys, their entity and order
/// columns, and join tables, each read from wherever the source layout kept the source
/// relationship (a foreign key, the inverse's foreign key, or a join table), so to-one ↔
/// to-many and ordered ↔ unordered changes are plain `SELECT`s. Keys of objects that changed
/// tables are shifted by their entity's offset; references to objects of removed entities
/// become NULL (join rows are dropped).
extension SQLiteInferredMigrator {
    /// Where the targets of a source relationship are read: `from` (nil: the owner's own row
    /// `s`), the condition tying them to the owner row `s`, the target's old key and old
    /// `Z_ENT`, and their order.
    struct TargetSource {
        var from: String?
        var condition: String
        var key: String
        var entity: String
        var order: String
        /// The source entity layout the targets belong to (for the remapping).
        var targetEntity: EntityLayout
    }

    /// The source relationship `name` of destination `entity` reads, with its storage.
    func sourceRelationship(
        of entity: String, _ name: String, in sourceLayout: EntityLayout
    ) -> (name: String, storage: RelationshipStorage, target: EntityLayout)? {
        guard
            let sourceName = sources.sourceProperty(
                of: entity, name, hasSource: { sourceLayout.relationships[$0] != nil }),
            let storage = sourceLayout.relationships[sourceName],
            let sourceEntity = sourceModel.entity(named: sourceLayout.name)
        else { return nil }
        for declaring in sourceModel.lineage(of: sourceEntity) {
            if let relationship = declaring.relationship(named: sourceName),
                let target = source.entity(named: relationship.destinationEntityName)
            {
                return (sourceName, storage, target)
            }
        }
        return nil
    }

    /// The layout of the destination entity of destination `entity`'s relationship `name`.
    func destinationTarget(of entity: String, _ name: String) -> EntityLayout? {
        guard let model = destinationModel.entity(named: entity) else { return nil }
        for declaring in destinationModel.lineage(of: model) {
            if let relationship = declaring.relationship(named: name) {
                return destination.entity(named: relationship.destinationEntityName)
            }
        }
        return nil
    }

    /// The old `Z_ENT` of the object of `entity` (or a subentity) whose old key is `key`.
    func oldEntityNumber(of key: String, in entity: EntityLayout) -> String {
        let concrete = entity.coveredEntityNumbers.filter {
            source.entity(number: $0)?.isAbstract == false
        }
        if concrete.count == 1, let only = concrete.first { return "\(only)" }
        guard let old = sourceTable(entity.tableName) else { return "NULL" }
        return "(SELECT x.Z_ENT FROM \(quoteIdentifier(old)) AS x WHERE x.Z_PK = \(key))"
    }

    /// The new key of the object of `entity` (or a subentity) whose old key and `Z_ENT` are
    /// `key` and `number`: the same key, shifted when its entity changed tables, NULL when
    /// its entity is gone.
    func newKey(
        _ key: String, number: String, in entity: EntityLayout, into target: EntityLayout? = nil
    ) -> String {
        let cases = entity.coveredEntityNumbers.compactMap { old -> (Int, String)? in
            guard let layout = source.entity(number: old), !layout.isAbstract else { return nil }
            guard let mapped = sources.destinationEntities[layout.name],
                let new = destination.entity(named: mapped),
                target.map({ $0.coveredEntityNumbers.contains(new.entityNumber) }) ?? true
            else { return (old, "NULL") }
            let offset = offsets[layout.name] ?? 0
            return (old, offset == 0 ? key : "\(key) + \(offset)")
        }
        if cases.allSatisfy({ $0.1 == key }) { return key }
        if cases.count == 1, let only = cases.first { return only.1 }
        return "CASE \(number) "
            + cases.map { "WHEN \($0.0) THEN \($0.1)" }.joined(separator: " ") + " END"
    }

    /// The new `Z_ENT` of the object whose old `Z_ENT` is `number`.
    func newEntityNumber(
        _ number: String, in entity: EntityLayout, into target: EntityLayout? = nil
    ) -> String {
        let cases = entity.coveredEntityNumbers.compactMap { old -> String? in
            guard let layout = source.entity(number: old), !layout.isAbstract,
                let mapped = sources.destinationEntities[layout.name],
                let new = destination.entity(named: mapped),
                target.map({ $0.coveredEntityNumbers.contains(new.entityNumber) }) ?? true
            else { return nil }
            return "WHEN \(old) THEN \(new.entityNumber)"
        }
        guard !cases.isEmpty else { return "NULL" }
        return "CASE \(number) " + cases.joined(separator: " ") + " END"
    }

    /// Where the targets of `storage` (a relationship of the owner row `s`) are.
    func targets(
        of storage: RelationshipStorage, target: EntityLayout, owner: EntityLayout
    ) -> TargetSource? {
        switch storage {
        case .foreignKey(_, let column, let entityColumn):
            let key = "s." + quoteIdentifier(column)
            return TargetSource(
                from: nil, condition: "\(key) IS NOT NULL", key: key,
                entity: entityColumn.map { "s." + quoteIdentifier($0) }
                    ?? oldEntityNumber(of: key, in: target),
                order: "s.Z_PK", targetEntity: target)
        case .inverseForeignKey(let table, let column, let entityColumn, let orderColumn):
            guard let old = sourceTable(table) else { return nil }
            var condition =
                "d.\(quoteIdentifier(column)) = s.Z_PK AND d.Z_ENT IN ("
                + target.coveredEntityNumbers.map(String.init).joined(separator: ", ") + ")"
            if let entityColumn { condition += " AND d.\(quoteIdentifier(entityColumn)) = s.Z_ENT" }
            return TargetSource(
                from: quoteIdentifier(old) + " AS d", condition: condition, key: "d.Z_PK",
                entity: "d.Z_ENT",
                order: orderColumn.map { "d." + quoteIdentifier($0) } ?? "d.Z_PK",
                targetEntity: target)
        case .joinTable(let table, let ownerColumn, let destinationColumn, let orderColumn):
            guard let old = sourceTable(table) else { return nil }
            let key = "d." + quoteIdentifier(destinationColumn)
            return TargetSource(
                from: quoteIdentifier(old) + " AS d",
                condition: "d.\(quoteIdentifier(ownerColumn)) = s.Z_PK", key: key,
                entity: oldEntityNumber(of: key, in: target),
                order: orderColumn.map { "d." + quoteIdentifier($0) } ?? key,
                targetEntity: target)
        }
    }

    /// A to-one relationship's value for the row `s`, picked by `pick` from its target.
    func toOne(
        entity: EntityLayout, relationship name: String, from sourceLayout: EntityLayout,
        pick: (TargetSource) -> String
    ) -> String {
        guard let found = sourceRelationship(of: entity.name, name, in: sourceLayout),
            let targets = targets(of: found.storage, target: found.target, owner: sourceLayout)
        else { return "NULL" }
        let value = pick(targets)
        guard let from = targets.from else { return value }
        return "(SELECT \(value) FROM \(from) WHERE \(targets.condition)"
            + " ORDER BY \(targets.order), \(targets.key)"
            + " LIMIT 1)"
    }

    /// The new key of a to-one relationship's target.
    func toOneKey(entity: EntityLayout, relationship name: String, from sourceLayout: EntityLayout)
        throws -> String
    {
        let target = destinationTarget(of: entity.name, name)
        return toOne(entity: entity, relationship: name, from: sourceLayout) {
            newKey($0.key, number: $0.entity, in: $0.targetEntity, into: target)
        }
    }

    /// The new `Z_ENT` of a to-one relationship's target.
    func toOneEntity(
        entity: EntityLayout, relationship name: String, from sourceLayout: EntityLayout
    ) throws -> String {
        let target = destinationTarget(of: entity.name, name)
        return toOne(entity: entity, relationship: name, from: sourceLayout) {
            newEntityNumber($0.entity, in: $0.targetEntity, into: target)
        }
    }

    /// The `Z_FOK_` position of the row `s` in its owner's ordered to-many: the source's when
    /// it had one, else the order of the keys (1, 2, … per owner).
    mutating func toOneOrder(
        entity: EntityLayout, relationship name: String, from sourceLayout: EntityLayout
    ) throws -> String {
        guard let found = sourceRelationship(of: entity.name, name, in: sourceLayout),
            case .foreignKey(let table, let column, _) = found.storage
        else { return "NULL" }
        let lineage = Set(
            sourceModel.entity(named: sourceLayout.name).map {
                sourceModel.lineage(of: $0).map(\.name)
            } ?? [])
        let existing = source.table(named: table)?.columns.first { candidate in
            if case .orderKey(let owner, let relationship) = candidate.role {
                return relationship == found.name && lineage.contains(owner)
            }
            return false
        }
        let key = "s." + quoteIdentifier(column)
        if let existing { return "s." + quoteIdentifier(existing.name) }
        // Positions over the whole old table (every entity sharing the foreign key), not only
        // the rows of this INSERT.
        let alias = quoteIdentifier("Z_MIGRATION_ORDER_\(orderWindows.count)")
        orderWindows.append(
            "ROW_NUMBER() OVER (PARTITION BY \(quoteIdentifier(column)) ORDER BY Z_PK) AS \(alias)")
        return "CASE WHEN \(key) IS NULL THEN NULL ELSE s.\(alias) END"
    }

    // MARK: - Join tables

    /// Fills a destination join table from the source storage of its relationship (or of its
    /// inverse, the columns swapped).
    func fill(_ joinTable: JoinTableLayout) throws {
        var sides = [(joinTable.entity, joinTable.relationship, false)]
        if let inverseEntity = joinTable.inverseEntity,
            let inverse = joinTable.inverseRelationship
        {
            sides.append((inverseEntity, inverse, true))
        }
        for (entityName, relationship, swapped) in sides {
            guard let select = joinRows(entity: entityName, relationship: relationship) else {
                continue
            }
            var columns =
                swapped
                ? [joinTable.destinationColumn, joinTable.ownerColumn]
                : [joinTable.ownerColumn, joinTable.destinationColumn]
            var values = ["a", "b"]
            if let order = swapped ? joinTable.inverseOrderColumn : joinTable.ownerOrderColumn {
                columns.append(order)
                values.append("ROW_NUMBER() OVER (PARTITION BY a ORDER BY o, b)")
            }
            if let order = swapped ? joinTable.ownerOrderColumn : joinTable.inverseOrderColumn {
                columns.append(order)
                values.append("ROW_NUMBER() OVER (PARTITION BY b ORDER BY a)")
            }
            try db.execute(
                sql: "INSERT INTO \(quoteIdentifier(joinTable.name)) ("
                    + columns.map(quoteIdentifier).joined(separator: ", ") + ") SELECT "
                    + values.joined(separator: ", ") + " FROM (\(select))"
                    + " WHERE a IS NOT NULL AND b IS NOT NULL ORDER BY a, b")
            return
        }
    }

    /// `SELECT a, b, o`: owner's new key, target's new key and the source order of every
    /// pair of the destination relationship `relationship` of `entity` (or a subentity),
    /// `nil` when it has no source.
    func joinRows(entity name: String, relationship: String) -> String? {
        guard let entity = destination.entity(named: name) else { return nil }
        var selects: [String] = []
        for number in entity.coveredEntityNumbers {
            guard let owner = destination.entity(number: number), !owner.isAbstract,
                let sourceName = sources.sourceEntity(of: owner.name),
                let sourceLayout = source.entity(named: sourceName),
                let old = oldTable(ofSource: sourceName),
                let found = sourceRelationship(of: owner.name, relationship, in: sourceLayout),
                let targets = targets(of: found.storage, target: found.target, owner: sourceLayout)
            else { continue }
            let ownerKey = newKey("s.Z_PK", number: "s.Z_ENT", in: sourceLayout)
            let targetKey = newKey(
                targets.key, number: targets.entity, in: targets.targetEntity,
                into: destinationTarget(of: owner.name, relationship))
            var sql =
                "SELECT \(ownerKey) AS a, \(targetKey) AS b, \(targets.order) AS o FROM "
                + quoteIdentifier(old) + " AS s"
            if let from = targets.from { sql += " JOIN \(from) ON \(targets.condition)" }
            sql += " WHERE s.Z_ENT = \(sourceLayout.entityNumber)"
            if targets.from == nil { sql += " AND \(targets.condition)" }
            selects.append(sql)
        }
        return selects.isEmpty ? nil : selects.joined(separator: " UNION ALL ")
    }
}
