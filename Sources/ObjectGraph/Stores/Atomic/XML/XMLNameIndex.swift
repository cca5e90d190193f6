/// Finds the model's entities and properties by the names an XML store writes: entity names
/// upper-cased (`XDDEVENTITYMAPPING`), property names lower-cased (`sourcename`). Matching is
/// case-insensitive; an exact match wins when two names differ only in case.
struct XMLNameIndex {
    let schema: ModelSchema
    private let entityByName: [String: Int]
    private let propertyByName: [[String: Int]]

    init(schema: ModelSchema) {
        self.schema = schema
        var entities: [String: Int] = [:]
        for entity in schema.entities {
            if entities[entity.name.uppercased()] == nil {
                entities[entity.name.uppercased()] = entity.index
            }
        }
        for entity in schema.entities { entities[entity.name] = entity.index }
        entityByName = entities
        propertyByName = schema.entities.map { entity in
            var properties: [String: Int] = [:]
            for (position, property) in entity.properties.enumerated()
            where properties[property.name.lowercased()] == nil {
                properties[property.name.lowercased()] = position
            }
            for (position, property) in entity.properties.enumerated() {
                properties[property.name] = position
            }
            return properties
        }
    }

    /// The index of the entity written as `name`.
    func entityIndex(_ name: String) -> Int? {
        entityByName[name] ?? entityByName[name.uppercased()]
    }

    /// The position, in entity `entityIndex`, of the property written as `name`.
    func position(of name: String, inEntity entityIndex: Int) -> Int? {
        guard propertyByName.indices.contains(entityIndex) else { return nil }
        let properties = propertyByName[entityIndex]
        return properties[name] ?? properties[name.lowercased()]
    }
}
