/// One persistent relationship of one concrete entity of a PostgreSQL store, with where it and
/// its inverse are kept: what a batch delete follows (``PostgresBatchDeletion``,
/// ``PostgresBatchDeleteStatement``).
struct PostgresBatchLink {
    let entity: String
    let entityNumber: Int
    let ownerTable: String
    let name: String
    let rule: DeleteRule
    let hasInverse: Bool
    let selfInverse: Bool
    let storage: RelationshipStorage
    let inverseStorage: RelationshipStorage?
    let destinationTable: String

    /// Every persistent relationship of every concrete entity of `store`, with its storage.
    static func all(in store: PostgresStore) -> [PostgresBatchLink] {
        var links: [PostgresBatchLink] = []
        for entity in store.schema.entities where !entity.entity.isAbstract {
            let entityLayout = store.entityLayouts[entity.index]
            for position in entity.relationshipPositions {
                guard case .relationship(let relationship) = entity.properties[position],
                    !relationship.relationship.isTransient,
                    let destination = relationship.destinationIndex,
                    let storage = entityLayout.relationships[entity.names[position]]
                else { continue }
                let destinationLayout = store.entityLayouts[destination]
                links.append(
                    PostgresBatchLink(
                        entity: entity.name, entityNumber: entityLayout.entityNumber,
                        ownerTable: entityLayout.tableName, name: entity.names[position],
                        rule: relationship.relationship.deleteRule,
                        hasInverse: relationship.inverseName != nil,
                        selfInverse: relationship.inverseName == entity.names[position]
                            && destinationLayout.tableName == entityLayout.tableName,
                        storage: storage,
                        inverseStorage: relationship.inverseName.flatMap {
                            destinationLayout.relationships[$0]
                        },
                        destinationTable: destinationLayout.tableName))
            }
        }
        return links
    }
}
