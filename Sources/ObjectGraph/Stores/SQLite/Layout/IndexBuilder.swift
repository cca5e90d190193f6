/// Computes the indexes of a layout in the modern (fetch-index) style of §8:
/// `<TABLE>_<COLUMN>_INDEX` on every to-one foreign key, `<TABLE>_Z_ENT_INDEX` on root tables
/// with subentities, `Z_<Entity>_<name>` for fetch indexes, `Z_<Entity>_by<Name>Index` for
/// `indexed` attributes (the name Xcode gives them when it converts them to fetch indexes;
/// skipped when a fetch index already has that name), `Z_<Entity>_compoundIndex`, `…1`, … for
/// old compound indexes, `Z_<Entity>_UNIQUE_<a>_<b>` (unique) for uniqueness constraints, and
/// the join tables' indexes. Names taken already get a numeric suffix.
struct IndexBuilder {
    private var usedNames: Set<String>

    init(usedNames: Set<String>) {
        self.usedNames = usedNames
    }

    mutating func indexes(
        model: EntityModel, ordered: [Entity], entities: [EntityLayout],
        tables: [EntityTableLayout], joinTables: [JoinTableLayout]
    ) throws(StoreLayoutError) -> [IndexLayout] {
        var result: [IndexLayout] = []
        for table in tables {
            for column in table.columns {
                guard case .foreignKey = column.role else { continue }
                result.append(
                    IndexLayout(
                        name: unique(table.name + "_" + column.name + "_INDEX"),
                        table: table.name, elements: [IndexLayout.Element(column: column.name)],
                        purpose: .foreignKey))
            }
            if table.entityNumbers.count > 1 {
                result.append(
                    IndexLayout(
                        name: unique(table.name + "_Z_ENT_INDEX"), table: table.name,
                        elements: [IndexLayout.Element(column: "Z_ENT")], purpose: .entityNumber))
            }
        }
        for (position, entity) in ordered.enumerated() where position < entities.count {
            result += try indexes(of: entity, layout: entities[position], model: model)
        }
        for joinTable in joinTables {
            result.append(
                IndexLayout(
                    name: joinTable.indexName, table: joinTable.name,
                    elements: [
                        IndexLayout.Element(column: joinTable.destinationColumn),
                        IndexLayout.Element(column: joinTable.ownerColumn),
                    ], purpose: .joinTable))
        }
        return result
    }

    private mutating func indexes(of entity: Entity, layout: EntityLayout, model: EntityModel)
        throws(StoreLayoutError) -> [IndexLayout]
    {
        var result: [IndexLayout] = []
        let prefix = "Z_" + entity.name + "_"
        for fetchIndex in entity.fetchIndexes {
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
            let name =
                prefix + "by" + attribute.name.prefix(1).uppercased()
                + attribute.name.dropFirst() + "Index"
            guard !usedNames.contains(name.lowercased()) else { continue }
            let column = try column(attribute.name, of: entity, layout: layout)
            result.append(
                IndexLayout(
                    name: unique(name), table: layout.tableName,
                    elements: [IndexLayout.Element(column: column, isCollated: true)],
                    purpose: .fetchIndex))
        }
        for (position, properties) in entity.compoundIndexes.enumerated() {
            var elements: [IndexLayout.Element] = []
            for property in properties {
                guard
                    let column = try indexColumn(property, of: entity, layout: layout, model: model)
                else { continue }
                elements.append(IndexLayout.Element(column: column, isCollated: true))
            }
            guard !elements.isEmpty else { continue }
            let name = prefix + "compoundIndex" + (position == 0 ? "" : String(position))
            result.append(
                IndexLayout(
                    name: unique(name), table: layout.tableName, elements: elements,
                    purpose: .fetchIndex))
        }
        for constraint in entity.uniquenessConstraints where !constraint.isEmpty {
            let elements = try constraint.map { property throws(StoreLayoutError) in
                IndexLayout.Element(
                    column: try column(property, of: entity, layout: layout), isCollated: true)
            }
            result.append(
                IndexLayout(
                    name: unique(prefix + "UNIQUE_" + constraint.joined(separator: "_")),
                    table: layout.tableName, elements: elements, isUnique: true,
                    purpose: .uniquenessConstraint))
        }
        return result
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
