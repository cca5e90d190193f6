/// The tables an inferred step leaves as they are, so a migration costs what changed, not the
/// whole file: an entity table is kept when the destination creates it with the same name and
/// columns (names, types, roles), holds the same entities under the same numbers, maps every
/// property from the property of the same name and type without a default to fill, and
/// points its foreign keys at entities that keep their names, numbers and keys; a join table
/// when its columns, relationship and both sides' entities are likewise unchanged. Their
/// identical indexes are kept too.
extension SQLiteInferredMigrator {
    /// Fills ``kept``.
    mutating func findKeptTables() {
        for table in destination.tables where keepsTable(table) {
            kept.insert(table.name)
        }
        for joinTable in destination.joinTables where keepsJoinTable(joinTable) {
            kept.insert(joinTable.name)
        }
    }

    /// Whether the source entity `name` (and its subentities) keep name, number and keys.
    func keepsIdentity(ofSourceEntity name: String) -> Bool {
        guard let layout = source.entity(named: name) else { return false }
        return layout.coveredEntityNumbers.allSatisfy { number in
            guard let old = source.entity(number: number),
                sources.destinationEntities[old.name] == old.name,
                let new = destination.entity(named: old.name)
            else { return false }
            return new.entityNumber == number && (offsets[old.name] ?? 0) == 0
        }
    }

    func keepsTable(_ table: EntityTableLayout) -> Bool {
        guard existingTables.contains(table.name.lowercased()),
            let old = source.table(named: table.name), old.columns == table.columns,
            old.entityNumbers == table.entityNumbers,
            let root = source.entity(named: table.rootEntity),
            root.tableName == table.name, keepsIdentity(ofSourceEntity: table.rootEntity)
        else { return false }
        for number in table.entityNumbers {
            guard let entity = destination.entity(number: number),
                let sourceLayout = source.entity(named: entity.name),
                let model = destinationModel.entity(named: entity.name)
            else { return false }
            for attribute in destinationModel.allAttributes(of: model) where !attribute.isTransient
            {
                guard
                    let (sourceAttribute, _) = sourceAttribute(
                        of: entity.name, attribute.name, in: sourceLayout),
                    sources.sourceProperty(
                        of: entity.name, attribute.name, hasSource: { _ in true })
                        == attribute.name,
                    sourceAttribute.type == attribute.type,
                    attribute.isOptional || !sourceAttribute.isOptional
                        || attribute.defaultValue == .null
                else { return false }
            }
            for (name, storage) in entity.relationships {
                guard case .foreignKey = storage else { continue }
                guard
                    let found = sourceRelationship(of: entity.name, name, in: sourceLayout),
                    found.name == name, found.storage == storage,
                    keepsIdentity(ofSourceEntity: found.target.name)
                else { return false }
            }
        }
        return true
    }

    func keepsJoinTable(_ joinTable: JoinTableLayout) -> Bool {
        guard existingTables.contains(joinTable.name.lowercased()),
            let old = source.joinTable(named: joinTable.name), old.columns == joinTable.columns,
            old.entity == joinTable.entity, old.relationship == joinTable.relationship,
            old.destinationEntity == joinTable.destinationEntity,
            keepsIdentity(ofSourceEntity: joinTable.entity),
            keepsIdentity(ofSourceEntity: joinTable.destinationEntity),
            let owner = source.entity(named: joinTable.entity)
        else { return false }
        return sources.sourceProperty(
            of: joinTable.entity, joinTable.relationship,
            hasSource: { owner.relationships[$0] != nil }) == joinTable.relationship
    }
}
