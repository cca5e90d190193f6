import Foundation

// STUB until infer (B), rows (C) and sqlite (D) merge: stand-ins for their parts, just enough
// for the coordinator's migration flow to run end to end. This file goes when they land.

/// STUB until infer (B) merges.
enum StubInference {
    static func inferred(from source: ModelVersion, to destination: ModelVersion)
        throws(MigrationError) -> MappingModel
    {
        let sourceHashes = source.model.entityVersionHashes
        let destinationHashes = destination.model.entityVersionHashes
        var mappings: [EntityMapping] = []
        var used: Set<String> = []
        for entity in destination.model.entities {
            let match =
                source.model.entities.first { $0.name == (entity.renamingIdentifier ?? "") }
                ?? source.model.entities.first { $0.name == entity.name }
            guard let match else {
                mappings.append(
                    EntityMapping(
                        name: "Add\(entity.name)", kind: .add, destinationEntityName: entity.name))
                continue
            }
            used.insert(match.name)
            let same = sourceHashes[match.name] == destinationHashes[entity.name]
            var attributes: [PropertyMapping] = []
            for attribute in entity.attributes where !attribute.isTransient {
                let old =
                    match.attributes.first { $0.name == attribute.renamingIdentifier }
                    ?? match.attributes.first { $0.name == attribute.name }
                attributes.append(
                    PropertyMapping(
                        name: attribute.name,
                        valueExpression: old.flatMap {
                            try? Expression(format: "$source.\($0.name)")
                        }))
            }
            var relationships: [PropertyMapping] = []
            for relationship in entity.relationships {
                let old =
                    match.relationships.first { $0.name == relationship.renamingIdentifier }
                    ?? match.relationships.first { $0.name == relationship.name }
                relationships.append(
                    PropertyMapping(
                        name: relationship.name,
                        valueExpression: old.flatMap {
                            try? Expression(format: "$source.\($0.name)")
                        }))
            }
            mappings.append(
                EntityMapping(
                    name: "\(match.name)To\(entity.name)", kind: same ? .copy : .transform,
                    sourceEntityName: match.name, destinationEntityName: entity.name,
                    attributeMappings: attributes, relationshipMappings: relationships))
        }
        for entity in source.model.entities where !used.contains(entity.name) {
            mappings.append(
                EntityMapping(
                    name: "Remove\(entity.name)", kind: .remove, sourceEntityName: entity.name))
        }
        return MappingModel(
            sourceVersionName: source.name, destinationVersionName: destination.name,
            sourceModel: source.model, destinationModel: destination.model,
            entityMappings: mappings, isInferred: true)
    }

    static func changeDescriptions(of mapping: MappingModel) -> [String] {
        mapping.entityMappings.map { entity in
            switch entity.kind {
            case .add: return "add entity \(entity.destinationEntityName ?? "?")"
            case .remove: return "remove entity \(entity.sourceEntityName ?? "?")"
            default:
                return
                    "\(entity.destinationEntityName ?? "?"): \(entity.kind.rawValue) from \(entity.sourceEntityName ?? "?")"
            }
        }
    }

    static func sourceVersion(
        for storeHashes: [String: Data], among versions: [ModelVersion], store: String
    ) throws(MigrationError) -> ModelVersion {
        if let match = versions.last(where: { $0.model.entityVersionHashes == storeHashes }) {
            return match
        }
        let current = versions.last?.model.entityVersionHashes ?? [:]
        let names = Set(current.keys).union(storeHashes.keys).filter {
            current[$0] != storeHashes[$0]
        }
        throw .noSourceModel(store: store, entities: names.sorted())
    }

    static func plan(
        from source: ModelVersion, to destination: ModelVersion, versions: [ModelVersion],
        mappingModels: [MappingModel], declaredSteps: [MigrationStep], infers: Bool
    ) throws(MigrationError) -> [MigrationStep] {
        guard let start = versions.firstIndex(of: source),
            let end = versions.firstIndex(of: destination), start < end
        else {
            throw .noMigrationPath(from: source.name, to: destination.name)
        }
        var steps: [MigrationStep] = []
        for index in start..<end {
            let from = versions[index]
            let to = versions[index + 1]
            if let declared = declaredSteps.first(where: {
                $0.source.name == from.name && $0.destination.name == to.name
            }) {
                steps.append(declared)
            } else if let mapping = mappingModels.first(where: {
                $0.sourceVersionName == from.name && $0.destinationVersionName == to.name
            }) {
                steps.append(MigrationStep(source: from, destination: to, mapping: mapping))
            } else if infers {
                steps.append(
                    MigrationStep(
                        source: from, destination: to, mapping: try inferred(from: from, to: to)))
            } else {
                throw .noMigrationPath(from: from.name, to: to.name)
            }
        }
        return steps
    }
}

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
        func sourceName(_ mapping: PropertyMapping?) -> String? {
            guard let text = mapping?.valueExpression?.description else { return nil }
            return text.hasPrefix("$source.") ? String(text.dropFirst(8)) : nil
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
                let oldPosition = sourceName(property).flatMap { sourceEntity.positionByName[$0] }
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
