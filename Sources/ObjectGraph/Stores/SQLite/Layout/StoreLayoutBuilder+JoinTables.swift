/// To-many relationships: inverse foreign keys and join tables (rules and choices in
/// ``StoreLayoutBuilder``).
extension StoreLayoutBuilder {
    mutating func layOutToMany(of entity: Entity) throws(StoreLayoutError) {
        let toMany = entity.relationships.filter { !$0.isTransient && $0.isToMany }
            .sorted { $0.name.utf8Less(than: $1.name) }
        for relationship in toMany {
            let key = PropertyKey(entity: entity.name, name: relationship.name)
            if storages[key] != nil { continue }
            let target = try destination(of: relationship, in: entity)
            // A transient inverse stores nothing: the relationship is laid out as unpaired.
            guard let inverse = try inverse(of: relationship, in: entity),
                !inverse.relationship.isTransient
            else {
                layOutUnpairedJoinTable(entity: entity, relationship: relationship, to: target)
                continue
            }
            let inverseKey = PropertyKey(
                entity: inverse.entity.name, name: inverse.relationship.name)
            if !inverse.relationship.isToMany {
                guard let columns = toOneColumns[inverseKey] else {
                    layOutUnpairedJoinTable(entity: entity, relationship: relationship, to: target)
                    continue
                }
                storages[key] = .inverseForeignKey(
                    table: columns.table, column: columns.column,
                    entityColumn: columns.entityColumn,
                    orderColumn: relationship.isOrdered ? columns.orderColumn : nil)
                continue
            }
            let ownNumber = number(of: entity)
            let inverseNumber = number(of: inverse.entity)
            let ownSideNames: Bool
            if ownNumber != inverseNumber {
                ownSideNames = ownNumber < inverseNumber
            } else {
                ownSideNames = !relationship.name.utf8Less(than: inverse.relationship.name)
            }
            if ownSideNames {
                layOutJoinTable(
                    owner: entity, relationship: relationship, inverseOwner: inverse.entity,
                    inverse: inverse.relationship)
            } else {
                layOutJoinTable(
                    owner: inverse.entity, relationship: inverse.relationship,
                    inverseOwner: entity, inverse: relationship)
            }
        }
    }

    mutating func uniqueJoinColumn(_ name: String) -> String {
        let suffix = Self.freeSuffix(used: usedJoinColumns) { [name + $0] }
        usedJoinColumns.insert((name + suffix).lowercased())
        return name + suffix
    }

    mutating func uniqueTableName(_ name: String) -> String {
        let suffix = Self.freeSuffix(used: usedSchemaNames) { [name + $0] }
        usedSchemaNames.insert((name + suffix).lowercased())
        return name + suffix
    }

    mutating func layOutJoinTable(
        owner: Entity, relationship: Relationship, inverseOwner: Entity, inverse: Relationship
    ) {
        let ownerNumber = number(of: owner)
        let inverseNumber = number(of: inverseOwner)
        let table = uniqueTableName("Z_\(ownerNumber)" + relationship.name.uppercased())
        let ownerColumn = uniqueJoinColumn("Z_\(ownerNumber)" + inverse.name.uppercased())
        let destinationColumn = uniqueJoinColumn(
            "Z_\(inverseNumber)" + relationship.name.uppercased())
        let isSelfInverse = owner.name == inverseOwner.name && relationship.name == inverse.name
        let ownerOrder =
            relationship.isOrdered ? uniqueJoinColumn(Self.orderColumn(destinationColumn)) : nil
        let inverseOrder =
            inverse.isOrdered && !isSelfInverse
            ? uniqueJoinColumn(Self.orderColumn(ownerColumn)) : nil
        joinTables.append(
            JoinTableLayout(
                name: table, entity: owner.name, relationship: relationship.name,
                inverseEntity: inverseOwner.name, inverseRelationship: inverse.name,
                ownerColumn: ownerColumn, destinationColumn: destinationColumn,
                ownerOrderColumn: ownerOrder, inverseOrderColumn: inverseOrder,
                indexName: uniqueTableName(table + "_" + destinationColumn + "_INDEX"),
                destinationEntity: inverseOwner.name))
        storages[PropertyKey(entity: owner.name, name: relationship.name)] = .joinTable(
            table: table, ownerColumn: ownerColumn, destinationColumn: destinationColumn,
            orderColumn: ownerOrder)
        if !isSelfInverse {
            storages[PropertyKey(entity: inverseOwner.name, name: inverse.name)] = .joinTable(
                table: table, ownerColumn: destinationColumn, destinationColumn: ownerColumn,
                orderColumn: inverseOrder)
        }
    }

    mutating func layOutUnpairedJoinTable(
        entity: Entity, relationship: Relationship, to target: Entity
    ) {
        let ownerNumber = number(of: entity)
        let name = relationship.name.uppercased()
        let table = uniqueTableName("Z_\(ownerNumber)" + name)
        let ownerColumn = uniqueJoinColumn("Z_\(ownerNumber)INVERSE_" + name)
        let destinationColumn = uniqueJoinColumn("Z_\(number(of: target))" + name)
        let order =
            relationship.isOrdered ? uniqueJoinColumn(Self.orderColumn(destinationColumn)) : nil
        joinTables.append(
            JoinTableLayout(
                name: table, entity: entity.name, relationship: relationship.name,
                inverseEntity: nil, inverseRelationship: nil, ownerColumn: ownerColumn,
                destinationColumn: destinationColumn, ownerOrderColumn: order,
                inverseOrderColumn: nil,
                indexName: uniqueTableName(table + "_" + destinationColumn + "_INDEX"),
                destinationEntity: target.name))
        storages[PropertyKey(entity: entity.name, name: relationship.name)] = .joinTable(
            table: table, ownerColumn: ownerColumn, destinationColumn: destinationColumn,
            orderColumn: order)
    }

    /// `Z_2BOOKS` → `Z_FOK_2BOOKS`.
    static func orderColumn(_ keyColumn: String) -> String {
        "Z_FOK_" + keyColumn.dropFirst(2)
    }
}
