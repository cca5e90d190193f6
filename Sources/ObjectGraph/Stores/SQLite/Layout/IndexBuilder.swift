/// Computes the indexes of a layout in the order and with the names Core Data of `style` gives
/// them (§8, ``SchemaStyle``). Table by table: `<TABLE>_<COLUMN>_INDEX` on every to-one foreign
/// key (column order), the indexes of the join tables whose relationship an entity of the table
/// declares, `<TABLE>_Z_ENT_INDEX` on root tables with subentities, then entity by entity its
/// fetch indexes `Z_<Entity>_<name>`, `indexed` attributes (`Z_<Entity>_by<Name>Index`, the
/// name Xcode gives them when it converts them to fetch indexes, skipped when a fetch index
/// already has that name; legacy: `<TABLE>_<COLUMN>_INDEX`), compound indexes
/// (`Z_<Entity>_compoundIndex`, `…1`, …; legacy: `<TABLE>_<COL1>_<COL2>`) and uniqueness
/// constraints (`Z_<Entity>_UNIQUE_<a>_<b>` unique indexes, or constraints inside `CREATE
/// TABLE` in older styles). Index names taken already get a numeric suffix.
struct IndexBuilder {
    private var usedNames: Set<String>
    private let style: SchemaStyle

    init(usedNames: Set<String>, style: SchemaStyle) {
        self.usedNames = usedNames
        self.style = style
    }

    mutating func indexes(
        model: EntityModel, ordered: [Entity], entities: [EntityLayout],
        tables: [EntityTableLayout], joinTables: [JoinTableLayout]
    ) throws(StoreLayoutError) -> [IndexLayout] {
        var result: [IndexLayout] = []
        var placedJoinTables: Set<String> = []
        for table in tables {
            for column in table.columns {
                guard case .foreignKey = column.role else { continue }
                result.append(
                    IndexLayout(
                        name: unique(table.name + "_" + column.name + "_INDEX"),
                        table: table.name, elements: [IndexLayout.Element(column: column.name)],
                        purpose: .foreignKey))
            }
            let members = entities.filter { $0.tableName == table.name }
            let memberNames = Set(members.map(\.name))
            for joinTable in joinTables where memberNames.contains(joinTable.entity) {
                placedJoinTables.insert(joinTable.name)
                result.append(index(of: joinTable))
            }
            if table.entityNumbers.count > 1 {
                result.append(
                    IndexLayout(
                        name: unique(table.name + "_Z_ENT_INDEX"), table: table.name,
                        elements: [IndexLayout.Element(column: "Z_ENT")], purpose: .entityNumber))
            }
            for member in members {
                let position = member.entityNumber - 1
                guard position >= 0, position < ordered.count else { continue }
                result += try indexes(of: ordered[position], layout: member, model: model)
            }
        }
        for joinTable in joinTables where !placedJoinTables.contains(joinTable.name) {
            result.append(index(of: joinTable))
        }
        return result
    }

    /// The index on a join table's `(destination, owner)` columns.
    private func index(of joinTable: JoinTableLayout) -> IndexLayout {
        IndexLayout(
            name: joinTable.indexName, table: joinTable.name,
            elements: [
                IndexLayout.Element(column: joinTable.destinationColumn),
                IndexLayout.Element(column: joinTable.ownerColumn),
            ], purpose: .joinTable)
    }

    private mutating func indexes(of entity: Entity, layout: EntityLayout, model: EntityModel)
        throws(StoreLayoutError) -> [IndexLayout]
    {
        var result: [IndexLayout] = []
        let prefix = "Z_" + entity.name + "_"
        for fetchIndex in entity.fetchIndexes
        where !isRelationshipIndex(fetchIndex, of: entity, layout: layout) {
            var elements: [IndexLayout.Element] = []
            for element in fetchIndex.elements {
                guard
                    let column = try indexColumn(
                        element.property, of: entity, layout: layout, model: model)
                else { continue }
                elements.append(
                    IndexLayout.Element(
                        column: column, isCollated: true, isAscending: element.isAscending))
            }
            guard !elements.isEmpty else { continue }
            result.append(
                IndexLayout(
                    name: unique(prefix + fetchIndex.name), table: layout.tableName,
                    elements: elements, purpose: .fetchIndex))
        }
        for attribute in entity.attributes where attribute.isIndexed && !attribute.isTransient {
            let column = try column(attribute.name, of: entity, layout: layout)
            if style == .legacy {
                result.append(
                    IndexLayout(
                        name: unique(layout.tableName + "_" + column + "_INDEX"),
                        table: layout.tableName, elements: [IndexLayout.Element(column: column)],
                        purpose: .fetchIndex))
                continue
            }
            let name =
                prefix + "by" + attribute.name.prefix(1).uppercased()
                + attribute.name.dropFirst() + "Index"
            guard !usedNames.contains(name.lowercased()) else { continue }
            result.append(
                IndexLayout(
                    name: unique(name), table: layout.tableName,
                    elements: [IndexLayout.Element(column: column, isCollated: true)],
                    purpose: .fetchIndex))
        }
        for (position, properties) in entity.compoundIndexes.enumerated() {
            let fetchName = "compoundIndex" + (position == 0 ? "" : String(position))
            // A compiled model also lists its compound indexes as fetch indexes of these names.
            guard style == .legacy || !entity.fetchIndexes.contains(where: { $0.name == fetchName })
            else { continue }
            var columns: [String] = []
            for property in properties {
                guard
                    let column = try indexColumn(property, of: entity, layout: layout, model: model)
                else { continue }
                columns.append(column)
            }
            guard !columns.isEmpty else { continue }
            let legacy = style == .legacy
            let name =
                legacy
                ? layout.tableName + "_" + columns.joined(separator: "_")
                : prefix + fetchName
            result.append(
                IndexLayout(
                    name: unique(name), table: layout.tableName,
                    elements: columns.map { IndexLayout.Element(column: $0, isCollated: !legacy) },
                    purpose: .fetchIndex))
        }
        for constraint in entity.uniquenessConstraints where !constraint.isEmpty {
            var columns: [String] = []
            for property in constraint {
                columns.append(try column(property, of: entity, layout: layout))
            }
            result.append(
                uniquenessIndex(columns: columns, of: constraint, prefix: prefix, in: layout))
        }
        return result
    }

    /// Whether `fetchIndex` is the index a compiled model gives each relationship (named after
    /// it, its one element): a to-one's is the foreign-key index `<TABLE>_<COLUMN>_INDEX`, a
    /// to-many's is on the other side or the join table, so it makes no `Z_<Entity>_` index
    /// (Accounts3's `Account.accountType`, `parentAccount`, `childAccounts`, …).
    private func isRelationshipIndex(
        _ fetchIndex: FetchIndex, of entity: Entity, layout: EntityLayout
    ) -> Bool {
        guard fetchIndex.elements.count == 1, let element = fetchIndex.elements.first,
            element.property == fetchIndex.name
        else { return false }
        return layout.relationships[element.property] != nil
    }

    /// The unique index, or the constraint inside `CREATE TABLE`, of one uniqueness constraint.
    private mutating func uniquenessIndex(
        columns: [String], of constraint: [String], prefix: String, in layout: EntityLayout
    ) -> IndexLayout {
        let declaration: IndexLayout.Declaration
        switch style {
        case .uniqueIndexes: declaration = .index
        case .fetchIndexes: declaration = columns.count == 1 ? .columnConstraint : .tableConstraint
        case .legacy: declaration = .tableConstraint
        }
        let name =
            declaration == .index
            ? unique(prefix + "UNIQUE_" + constraint.joined(separator: "_"))
            : columns.joined(separator: "_")
        return IndexLayout(
            name: name, table: layout.tableName,
            elements: columns.map {
                IndexLayout.Element(column: $0, isCollated: declaration == .index)
            }, isUnique: true, purpose: .uniquenessConstraint, declaration: declaration)
    }

    /// The column of an index element, or `nil` when `property` is one of the entity's
    /// to-many, transient or fetched properties: Xcode only warns about those
    /// (`invalid-index-property`), and the index leaves them out. An unknown name is an error.
    private func indexColumn(
        _ property: String, of entity: Entity, layout: EntityLayout, model: EntityModel
    ) throws(StoreLayoutError) -> String? {
        let declared = model.lineage(of: entity).contains { owner in
            owner.attributes.contains { $0.name == property }
                || owner.relationships.contains { $0.name == property }
                || owner.fetchedProperties.contains { $0.name == property }
        }
        guard declared else { return try column(property, of: entity, layout: layout) }
        return try? column(property, of: entity, layout: layout)
    }

    /// The column of attribute or to-one relationship `property` of `entity`.
    private func column(_ property: String, of entity: Entity, layout: EntityLayout)
        throws(StoreLayoutError) -> String
    {
        if let column = layout.attributeColumns[property] { return column.name }
        if case .foreignKey(_, let column, _)? = layout.relationships[property] { return column }
        throw StoreLayoutError(
            .invalidIndex, entity: entity.name, property: property,
            "an index or uniqueness constraint names a property without a column")
    }

    /// `name`, or `name` with the first free numeric suffix; marks it taken.
    private mutating func unique(_ name: String) -> String {
        var candidate = name
        var counter = 0
        while usedNames.contains(candidate.lowercased()) {
            counter += 1
            candidate = name + String(counter)
        }
        usedNames.insert(candidate.lowercased())
        return candidate
    }
}
