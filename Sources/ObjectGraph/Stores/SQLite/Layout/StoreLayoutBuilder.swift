import Foundation

/// Computes a ``StoreLayout`` from a model. The rules and the choices made where Core Data's
/// behaviour is not known:
///
/// - Numbering: depth-first pre-order over the inheritance forest; roots and siblings sorted
///   case-insensitively (ties: case-sensitive). Verified on every corpus store.
/// - Column names: `Z` + upper-cased property name. When the name is already taken in the table
///   (the same name declared on sibling subentities, or names equal once upper-cased), the
///   property declared on the entity with the lower `Z_ENT` keeps the bare name and later ones
///   get `1`, `2`, … (research §14 question 2: our choice, in `Z_ENT` order). The suffix applies
///   to all of a property's columns (`ZFOLDER1`, `Z6_FOLDER1`, `Z_FOK_FOLDER1`).
/// - Column order: `Z_PK, Z_ENT, Z_OPT`, then groups integers (per entity: attributes, then
///   foreign keys each followed by its `Z<n>_` and `Z_FOK_` columns), dates/floats/decimals,
///   strings, URIs (knowledgeC's `…ITEMRELATEDCONTENTURL VARCHAR` after every string), bytes; within a group entity by entity in `Z_ENT` order, names in code-unit order.
/// - Many-to-many `A.r ↔ B.s`: table named after the side whose declaring entity has the lower
///   number. When both are declared by the same entity (reflexive), the relationship whose name
///   sorts later (code-unit order) names the table — this matches EasyLife's `blockedBy ↔
///   blocking` → `Z_2BLOCKING (Z_2BLOCKEDBY, Z_2BLOCKING)`; the kik store quoted in the research
///   (`Z_6MEMBERS`, `Z_6BANSINVERSE`) shows Core Data's rule is something else for at least one
///   pair, so this remains open (§14 question 1). A self-inverse relationship gets
///   `Z_<a><R> (Z_<a><R>, Z_<a><R>1)`.
/// - Join-table column names are unique across all join tables (later ones suffixed, as in
///   MoneyWell's `Z_24TAGS` / `Z_24TAGS1`), in the order join tables are laid out.
/// - Ordered many-to-many (not seen in samples): an order column `Z_FOK_` + the destination
///   column's name without its `Z_` (`Z_FOK_2BOOKS`) per ordered side.
/// - To-many without an inverse (not seen in samples): a join table `Z_<a><R>` with columns
///   `Z_<a>INVERSE_<R>` (the owner's key) and `Z_<d><R>` (the destination's key, `d` its
///   declared destination's number), plus `Z_FOK_<d><R>` when ordered.
struct StoreLayoutBuilder {
    struct Result {
        var entities: [EntityLayout]
        var tables: [EntityTableLayout]
        var joinTables: [JoinTableLayout]
        var indexes: [IndexLayout]
    }

    /// A property identified by its declaring entity.
    struct PropertyKey: Hashable {
        let entity: String
        let name: String
    }

    /// The columns of a to-one relationship.
    struct ToOneColumns {
        let table: String
        let column: String
        let entityColumn: String?
        let orderColumn: String?
    }

    /// A column with its `CREATE TABLE` sort key.
    struct PlacedColumn {
        let column: Column
        let group: Int
        let entityPosition: Int
        let kindRank: Int
        let propertyName: String
        let position: Int
    }

    let model: EntityModel
    let style: SchemaStyle
    var ordered: [Entity] = []
    var numbers: [String: Int] = [:]
    var rootNames: [String: String] = [:]
    var childNames: [String: [String]] = [:]
    var tableNames: [String: String] = [:]
    var usedSchemaNames: Set<String> = ["z_primarykey", "z_metadata", "z_modelcache"]
    var attributeColumns: [PropertyKey: Column] = [:]
    var toOneColumns: [PropertyKey: ToOneColumns] = [:]
    var storages: [PropertyKey: RelationshipStorage] = [:]
    var placedColumns: [String: [PlacedColumn]] = [:]
    var joinTables: [JoinTableLayout] = []
    var usedJoinColumns: Set<String> = []

    init(model: EntityModel, style: SchemaStyle) {
        self.model = model
        self.style = style
    }

    mutating func build() throws(StoreLayoutError) -> Result {
        try number()
        try nameTables()
        for entity in ordered {
            for relationship in entity.relationships where !relationship.isTransient {
                _ = try destination(of: relationship, in: entity)
                _ = try inverse(of: relationship, in: entity)
            }
        }
        let orderKeyed = try toOnesWithOrderKeys()
        for root in ordered where root.parentName == nil {
            try layOutColumns(ofTreeRootedAt: root, orderKeyed: orderKeyed)
        }
        for entity in ordered {
            try layOutToMany(of: entity)
        }
        let entities = makeEntityLayouts()
        let tables = makeTables(entities: entities)
        var indexBuilder = IndexBuilder(usedNames: usedSchemaNames, style: style)
        let indexes = try indexBuilder.indexes(
            model: model, ordered: ordered, entities: entities, tables: tables,
            joinTables: joinTables)
        return Result(
            entities: entities, tables: tables, joinTables: joinTables, indexes: indexes)
    }

    // MARK: - Numbering

    mutating func number() throws(StoreLayoutError) {
        var seen: Set<String> = []
        for entity in model.entities {
            guard seen.insert(entity.name).inserted else {
                throw StoreLayoutError(
                    .duplicateEntity, entity: entity.name, "two entities have this name")
            }
        }
        var roots: [Entity] = []
        for entity in model.entities {
            guard let parentName = entity.parentName else {
                roots.append(entity)
                continue
            }
            guard model.entity(named: parentName) != nil else {
                throw StoreLayoutError(
                    .invalidInheritance, entity: entity.name,
                    "parent entity '\(parentName)' does not exist")
            }
            let lineage = model.lineage(of: entity)
            if let top = lineage.last, top.parentName != nil {
                throw StoreLayoutError(
                    .invalidInheritance, entity: entity.name, "its parent entities form a cycle")
            }
            childNames[parentName, default: []].append(entity.name)
            rootNames[entity.name] = Self.rootName(of: lineage)
        }
        for root in roots { rootNames[root.name] = root.name }
        for root in roots.sorted(by: Self.entityOrder) { visit(root) }
    }

    static func rootName(of lineage: [Entity]) -> String {
        lineage.last?.name ?? ""
    }

    mutating func visit(_ entity: Entity) {
        ordered.append(entity)
        numbers[entity.name] = ordered.count
        let children = (childNames[entity.name] ?? []).compactMap { model.entity(named: $0) }
        for child in children.sorted(by: Self.entityOrder) { visit(child) }
    }

    /// Case-insensitive name order, ties broken case-sensitively.
    static func entityOrder(_ lhs: Entity, _ rhs: Entity) -> Bool {
        switch lhs.name.compare(rhs.name, options: .caseInsensitive) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: return lhs.name.utf8Less(than: rhs.name)
        }
    }

    mutating func nameTables() throws(StoreLayoutError) {
        for entity in ordered where entity.parentName == nil {
            let name = "Z" + entity.name.uppercased()
            guard usedSchemaNames.insert(name.lowercased()).inserted else {
                throw StoreLayoutError(
                    .tableNameCollision, entity: entity.name,
                    "its table name \(name) is taken by another entity or by Core Data")
            }
            tableNames[entity.name] = name
        }
    }

    // MARK: - Resolving relationships

    func destination(of relationship: Relationship, in entity: Entity)
        throws(StoreLayoutError) -> Entity
    {
        guard let destination = model.entity(named: relationship.destinationEntityName) else {
            throw StoreLayoutError(
                .missingEntityOrProperty, entity: entity.name, property: relationship.name,
                "destination entity '\(relationship.destinationEntityName)' does not exist")
        }
        return destination
    }

    /// The inverse of `relationship` and the entity declaring it, or `nil` without an inverse.
    func inverse(of relationship: Relationship, in entity: Entity)
        throws(StoreLayoutError) -> (entity: Entity, relationship: Relationship)?
    {
        guard let inverseName = relationship.inverseName else { return nil }
        let holderName = relationship.inverseEntityName ?? relationship.destinationEntityName
        guard let holder = model.entity(named: holderName) else {
            throw StoreLayoutError(
                .missingEntityOrProperty, entity: entity.name, property: relationship.name,
                "inverse entity '\(holderName)' does not exist")
        }
        for declaring in model.lineage(of: holder) {
            if let found = declaring.relationship(named: inverseName) {
                return (declaring, found)
            }
        }
        throw StoreLayoutError(
            .missingEntityOrProperty, entity: entity.name, property: relationship.name,
            "inverse relationship '\(holderName).\(inverseName)' does not exist")
    }

    func number(of entity: Entity) -> Int { numbers[entity.name] ?? 0 }

    func hasSubentities(_ entity: Entity) -> Bool {
        !(childNames[entity.name] ?? []).isEmpty
    }

    /// The to-one relationships that are the inverse of an ordered to-many: they get a
    /// `Z_FOK_` column beside their foreign key.
    func toOnesWithOrderKeys() throws(StoreLayoutError) -> Set<PropertyKey> {
        var result: Set<PropertyKey> = []
        for entity in ordered {
            for relationship in entity.relationships
            where !relationship.isTransient && relationship.isToMany && relationship.isOrdered {
                _ = try destination(of: relationship, in: entity)
                guard let inverse = try inverse(of: relationship, in: entity),
                    !inverse.relationship.isToMany
                else { continue }
                result.insert(
                    PropertyKey(entity: inverse.entity.name, name: inverse.relationship.name))
            }
        }
        return result
    }

    // MARK: - Entity table columns

    mutating func layOutColumns(
        ofTreeRootedAt root: Entity, orderKeyed: Set<PropertyKey>
    ) throws(StoreLayoutError) {
        guard let table = tableNames[root.name] else { return }
        var used: Set<String> = ["z_pk", "z_ent", "z_opt"]
        var placed = [
            PlacedColumn(
                column: Column(name: "Z_PK", type: .integer, role: .primaryKey), group: -1,
                entityPosition: 0, kindRank: 0, propertyName: "", position: 0),
            PlacedColumn(
                column: Column(name: "Z_ENT", type: .integer, role: .entityNumber), group: -1,
                entityPosition: 0, kindRank: 0, propertyName: "", position: 1),
            PlacedColumn(
                column: Column(name: "Z_OPT", type: .integer, role: .optimisticLock),
                group: -1, entityPosition: 0, kindRank: 0, propertyName: "", position: 2),
        ]
        let members = ordered.filter { rootNames[$0.name] == root.name }
        for (entityPosition, entity) in members.enumerated() {
            var properties: [(name: String, attribute: Attribute?, relationship: Relationship?)] =
                []
            for attribute in entity.attributes where !attribute.isTransient {
                properties.append((attribute.name, attribute, nil))
            }
            for relationship in entity.relationships
            where !relationship.isTransient && !relationship.isToMany {
                properties.append((relationship.name, nil, relationship))
            }
            properties.sort { $0.name.utf8Less(than: $1.name) }
            for property in properties {
                let key = PropertyKey(entity: entity.name, name: property.name)
                let base = property.name.uppercased()
                if let attribute = property.attribute {
                    guard let type = ColumnType(attributeType: attribute.type) else {
                        throw StoreLayoutError(
                            .unsupportedAttributeType, entity: entity.name,
                            property: attribute.name,
                            "attributes of type \(attribute.type) have no SQLite column")
                    }
                    let suffix = Self.freeSuffix(used: used) { ["Z" + base + $0] }
                    let column = Column(
                        name: "Z" + base + suffix, type: type,
                        role: .attribute(entity: entity.name, name: attribute.name))
                    used.insert(column.name.lowercased())
                    attributeColumns[key] = column
                    placed.append(
                        PlacedColumn(
                            column: column,
                            group: ColumnType.columnGroup(of: attribute.type, in: type),
                            entityPosition: entityPosition, kindRank: 0,
                            propertyName: property.name, position: 0))
                } else if let relationship = property.relationship {
                    let target = try destination(of: relationship, in: entity)
                    let targetNumber = hasSubentities(target) ? number(of: target) : nil
                    let hasOrderKey = orderKeyed.contains(key)
                    let suffix = Self.freeSuffix(used: used) { suffix in
                        var names = ["Z" + base + suffix]
                        if let targetNumber { names.append("Z\(targetNumber)_" + base + suffix) }
                        if hasOrderKey { names.append("Z_FOK_" + base + suffix) }
                        return names
                    }
                    let fk = Column(
                        name: "Z" + base + suffix, type: .integer,
                        role: .foreignKey(entity: entity.name, relationship: relationship.name))
                    var columns = [fk]
                    var entityColumn: String?
                    var orderColumn: String?
                    if let targetNumber {
                        let name = "Z\(targetNumber)_" + base + suffix
                        entityColumn = name
                        columns.append(
                            Column(
                                name: name, type: .integer,
                                role: .foreignEntity(
                                    entity: entity.name, relationship: relationship.name)))
                    }
                    if hasOrderKey {
                        let name = "Z_FOK_" + base + suffix
                        orderColumn = name
                        columns.append(
                            Column(
                                name: name, type: .integer,
                                role: .orderKey(
                                    entity: entity.name, relationship: relationship.name)))
                    }
                    for (position, column) in columns.enumerated() {
                        used.insert(column.name.lowercased())
                        placed.append(
                            PlacedColumn(
                                column: column, group: 0, entityPosition: entityPosition,
                                kindRank: 1, propertyName: property.name, position: position))
                    }
                    toOneColumns[key] = ToOneColumns(
                        table: table, column: fk.name, entityColumn: entityColumn,
                        orderColumn: orderColumn)
                    storages[key] = .foreignKey(
                        table: table, column: fk.name, entityColumn: entityColumn)
                }
            }
        }
        placedColumns[table] = placed
    }

    /// The first of "", "1", "2", … for which none of `names(suffix)` is in `used`.
    static func freeSuffix(used: Set<String>, names: (String) -> [String]) -> String {
        var counter = 0
        while true {
            let suffix = counter == 0 ? "" : String(counter)
            if !names(suffix).contains(where: { used.contains($0.lowercased()) }) {
                return suffix
            }
            counter += 1
        }
    }

    // MARK: - Results

    func makeEntityLayouts() -> [EntityLayout] {
        ordered.map { entity in
            var attributes: [String: Column] = [:]
            var relationships: [String: RelationshipStorage] = [:]
            for declaring in model.lineage(of: entity).reversed() {
                for attribute in declaring.attributes {
                    let key = PropertyKey(entity: declaring.name, name: attribute.name)
                    if let column = attributeColumns[key] { attributes[attribute.name] = column }
                }
                for relationship in declaring.relationships {
                    let key = PropertyKey(entity: declaring.name, name: relationship.name)
                    if let storage = storages[key] { relationships[relationship.name] = storage }
                }
            }
            let rootName = rootNames[entity.name] ?? entity.name
            let parentNumber = model.parent(of: entity).map { number(of: $0) } ?? 0
            let children = (childNames[entity.name] ?? []).compactMap { numbers[$0] }.sorted()
            return EntityLayout(
                name: entity.name, entityNumber: number(of: entity), superNumber: parentNumber,
                rootName: rootName, tableName: tableNames[rootName] ?? "",
                isAbstract: entity.isAbstract,
                coveredEntityNumbers: descendantNumbers(of: entity).sorted(),
                subentityNumbers: children, attributeColumns: attributes,
                relationships: relationships)
        }
    }

    func descendantNumbers(of entity: Entity) -> [Int] {
        var result = [number(of: entity)]
        for child in childNames[entity.name] ?? [] {
            if let childEntity = model.entity(named: child) {
                result += descendantNumbers(of: childEntity)
            }
        }
        return result
    }

    func makeTables(entities: [EntityLayout]) -> [EntityTableLayout] {
        ordered.filter { $0.parentName == nil }.compactMap { root in
            guard let name = tableNames[root.name] else { return nil }
            let columns = (placedColumns[name] ?? []).sorted { lhs, rhs in
                if lhs.group != rhs.group { return lhs.group < rhs.group }
                if lhs.entityPosition != rhs.entityPosition {
                    return lhs.entityPosition < rhs.entityPosition
                }
                if lhs.kindRank != rhs.kindRank { return lhs.kindRank < rhs.kindRank }
                if lhs.propertyName != rhs.propertyName {
                    return lhs.propertyName.utf8Less(than: rhs.propertyName)
                }
                return lhs.position < rhs.position
            }.map(\.column)
            let numbers = entities.filter { $0.rootName == root.name }.map(\.entityNumber)
            return EntityTableLayout(
                name: name, rootEntity: root.name, entityNumbers: numbers, columns: columns)
        }
    }
}
