/// The model and layout facts the SQL translation looks up: each entity's persistent
/// attributes and relationships by name (declared and inherited) and where they are stored.
struct SQLSchema: Sendable {
    let layout: StoreLayout
    /// When set, object IDs of other stores match nothing (compilation fails).
    let storeIdentifier: String?
    /// The SQL written: SQLite's or PostgreSQL's.
    let dialect: SQLDialect
    private let attributes: [String: [String: Attribute]]
    private let relationships: [String: [String: Relationship]]

    init(
        layout: StoreLayout, model: EntityModel, storeIdentifier: String?,
        dialect: SQLDialect = .sqlite
    ) {
        self.layout = layout
        self.storeIdentifier = storeIdentifier
        self.dialect = dialect
        var attributes: [String: [String: Attribute]] = [:]
        var relationships: [String: [String: Relationship]] = [:]
        for entity in model.entities {
            var own: [String: Attribute] = [:]
            for attribute in model.allAttributes(of: entity) { own[attribute.name] = attribute }
            attributes[entity.name] = own
            var links: [String: Relationship] = [:]
            for relationship in model.allRelationships(of: entity) {
                links[relationship.name] = relationship
            }
            relationships[entity.name] = links
        }
        self.attributes = attributes
        self.relationships = relationships
    }

    func entity(_ name: String) throws(SQLTranslationError) -> EntityLayout {
        guard let entity = layout.entity(named: name) else {
            throw .unknownEntity(name)
        }
        return entity
    }

    func attribute(_ name: String, of entity: String) -> Attribute? {
        attributes[entity]?[name]
    }

    func relationship(_ name: String, of entity: String) -> Relationship? {
        relationships[entity]?[name]
    }

    /// The `Z_ENT` numbers that rows of `entity` (with subentities) may have, when its table
    /// also holds other entities; nil when every row of the table qualifies.
    func restriction(for entity: EntityLayout) -> [Int]? {
        guard let table = layout.table(named: entity.tableName) else { return nil }
        return Set(table.entityNumbers) == Set(entity.coveredEntityNumbers)
            ? nil : entity.coveredEntityNumbers
    }
}
