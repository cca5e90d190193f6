import Foundation

// STUB until rows (C) and sqlite (D) merge: stand-ins for their parts, just enough
// for the coordinator's migration flow to run end to end. This file goes when they land.

/// STUB until rows (C) merges: copies values by the name the inferred mapping recorded.
enum StubRowMapper {
    static func map(
        _ step: MigrationStep, rows: [StoreRow], source: ModelSchema, destination: ModelSchema
    ) throws -> [StoreRow] {
        var entityNames: [String: String] = [:]
        var mappings: [String: EntityMapping] = [:]
        for mapping in step.mapping.entityMappings {
            guard let from = mapping.sourceEntityName, let to = mapping.destinationEntityName
            else { continue }
            entityNames[from] = to
            mappings[from] = mapping
        }
        func moved(_ id: ObjectID) -> ObjectID? {
            guard let name = entityNames[id.entityName] else { return nil }
            return ObjectID(entityName: name, storeIdentifier: id.storeIdentifier, key: id.key)
        }
        var result: [StoreRow] = []
        for row in rows {
            let sourceEntity = source.entities[row.entityIndex]
            guard let mapping = mappings[sourceEntity.name],
                let name = mapping.destinationEntityName,
                let entity = destination.entity(named: name)
            else { continue }
            var values: [StoredValue] = []
            for position in entity.properties.indices {
                let propertyName = entity.names[position]
                let property = (mapping.attributeMappings + mapping.relationshipMappings).first {
                    $0.name == propertyName
                }
                let oldPosition = property?.sourcePropertyName.flatMap {
                    sourceEntity.positionByName[$0]
                }
                let old = oldPosition.map { row.values[$0] }
                switch entity.properties[position] {
                case .attribute(let attribute):
                    if case .value(let value)? = old, value != .null {
                        values.append(.value(value))
                    } else {
                        values.append(.value(attribute.defaultValue))
                    }
                case .relationship(let relationship):
                    var targets: [ObjectID] = []
                    switch old {
                    case .toOne(let id?)?: targets = [id]
                    case .toMany(let ids?)?: targets = ids
                    default: break
                    }
                    let mapped = targets.compactMap(moved)
                    values.append(relationship.isToMany ? .toMany(mapped) : .toOne(mapped.first))
                default:
                    values.append(.value(.null))
                }
            }
            guard let id = moved(row.id) else { continue }
            result.append(
                StoreRow(id: id, entityIndex: entity.index, version: row.version, values: values))
        }
        return result
    }
}

/// STUB until sqlite (D) merges: rebuilds the store in a staging file and moves it over.
enum StubSQLiteMigration {
    static func migrate(
        at url: URL, steps: [MigrationStep], progress: (MigrationProgress) -> Void
    ) throws {
        guard let first = steps.first, let last = steps.last else { return }
        var schema = ModelSchema(model: first.source.model)
        let reading = try SQLiteStore(
            url: url, schema: schema, configuration: nil,
            options: StoreOptions(isReadOnly: true, createIfMissing: false))
        var rows = try reading.rows(ofEntities: Set(schema.entities.indices))
        for index in rows.indices {
            for (position, value) in rows[index].values.enumerated() where value == .toMany(nil) {
                rows[index].values[position] = .toMany(
                    try reading.relatedIDs(
                        of: rows[index].id, entityIndex: rows[index].entityIndex,
                        position: position))
            }
        }
        let uuid = reading.description.metadata.storeUUID
        for (index, step) in steps.enumerated() {
            let destination = ModelSchema(model: step.destination.model)
            rows = try StubRowMapper.map(step, rows: rows, source: schema, destination: destination)
            schema = destination
            progress(
                MigrationProgress(
                    fractionCompleted: Double(index + 1) / Double(steps.count), stageIndex: index,
                    stageCount: steps.count, stage: step.label))
        }
        _ = last
        let staging = try StagingFile(for: url)
        do {
            let stagingURL = URL(fileURLWithPath: staging.path)
            let built = try SQLiteStore(
                url: stagingURL, schema: schema, configuration: nil,
                options: StoreOptions(isReadOnly: false, createIfMissing: true))
            let newID = built.description.identifier
            let moved = rows.map { row -> StoreRow in
                var copy = row
                func move(_ id: ObjectID) -> ObjectID {
                    id.storeIdentifier == uuid
                        ? ObjectID(entityName: id.entityName, storeIdentifier: newID, key: id.key)
                        : id
                }
                copy.id = move(row.id)
                copy.values = row.values.map { value in
                    switch value {
                    case .toOne(let id?): return .toOne(move(id))
                    case .toMany(let ids?): return .toMany(ids.map(move))
                    default: return value
                    }
                }
                return copy
            }
            try built.importRows(moved, schema: schema)
            try built.sqlite { try built.database.close() }
            try SQLiteCheckpoint.checkpoint(url)
            try staging.install(replacing: true)
        } catch {
            staging.discard()
            throw error
        }
    }
}
