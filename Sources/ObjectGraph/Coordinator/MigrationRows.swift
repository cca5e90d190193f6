import Foundation

/// Converts a store's rows to the row-level migration manager's objects and back: the manager
/// works on `MigrationObject`s of the model (names, keys, objects as relationship targets), the
/// stores on `StoreRow`s of a schema (positions, IDs).
enum MigrationRows {
    /// One `MigrationObject` per row of `rows` (of `schema`), every non-transient property
    /// present: attributes as values (`.null` for nil), to-one and to-many relationships as the
    /// other objects (targets not among `rows` are left out).
    static func objects(from rows: [StoreRow], schema: ModelSchema) -> [MigrationObject] {
        var byID: [ObjectID: MigrationObject] = [:]
        var pairs: [(StoreRow, MigrationObject)] = []
        for row in rows {
            guard case .permanent(let key) = row.id.key else { continue }
            let object = MigrationObject(
                entityName: schema.entities[row.entityIndex].name, key: key)
            byID[row.id] = object
            pairs.append((row, object))
        }
        for (row, object) in pairs {
            let entity = schema.entities[row.entityIndex]
            for position in entity.properties.indices where !entity.isTransient[position] {
                let name = entity.names[position]
                let stored = position < row.values.count ? row.values[position] : .value(.null)
                switch (entity.properties[position], stored) {
                case (.attribute, .value(let value)):
                    object.values[name] = .attribute(value)
                case (.attribute, _):
                    object.values[name] = .attribute(.null)
                case (.relationship(let relationship), let value):
                    var targets: [ObjectID] = []
                    switch value {
                    case .toOne(let id?): targets = [id]
                    case .toMany(let ids?): targets = ids
                    default: break
                    }
                    let related = targets.compactMap { byID[$0] }
                    object.values[name] =
                        relationship.isToMany ? .toMany(related) : .toOne(related.first)
                }
            }
        }
        return pairs.map(\.1)
    }

    /// The rows of `objects` (of `schema`'s model) in the store `storeIdentifier`.
    /// - Throws: ``MigrationError/expressionFailed(mapping:property:reason:)`` for an object of
    ///   an entity the schema lacks.
    static func rows(
        from objects: [MigrationObject], schema: ModelSchema, storeIdentifier: String
    ) throws -> [StoreRow] {
        func id(_ object: MigrationObject) -> ObjectID {
            ObjectID(
                entityName: object.entityName, storeIdentifier: storeIdentifier,
                key: .permanent(object.key))
        }
        return try objects.map { object in
            guard let entity = schema.entity(named: object.entityName) else {
                throw MigrationError.expressionFailed(
                    mapping: object.entityName, property: nil,
                    reason: "the destination model has no entity \(object.entityName)")
            }
            var values: [StoredValue] = []
            values.reserveCapacity(entity.properties.count)
            for position in entity.properties.indices {
                let name = entity.names[position]
                switch (entity.properties[position], object.values[name]) {
                case (.attribute, .attribute(let value)?):
                    values.append(.value(value))
                case (.attribute(let attribute), _):
                    values.append(
                        .value(entity.isTransient[position] ? .null : attribute.defaultValue))
                case (.relationship(let relationship), let value):
                    let targets: [MigrationObject]
                    switch value {
                    case .toOne(let target?)?: targets = [target]
                    case .toMany(let list)?: targets = list
                    default: targets = []
                    }
                    values.append(
                        relationship.isToMany
                            ? .toMany(targets.map(id)) : .toOne(targets.first.map(id)))
                }
            }
            return StoreRow(id: id(object), entityIndex: entity.index, version: 1, values: values)
        }
    }

    /// Maps `rows` (of `source`) through `step`'s mapping with the row-level manager into rows of
    /// `destination`.
    static func map(
        _ step: MigrationStep, rows: [StoreRow], source: ModelSchema, destination: ModelSchema,
        progress: ((String?, Double) -> Void)?
    ) throws -> [StoreRow] {
        let storeIdentifier = rows.first?.id.storeIdentifier ?? ""
        let objects = objects(from: rows, schema: source)
        let manager = MigrationManager(
            mapping: step.mapping, policies: .shared, stageIndex: 0, stageCount: 1,
            stageLabel: step.label)
        let migrated = try manager.migrate(objects) { report in
            progress?(report.entityName, report.fractionCompleted)
        }
        return try MigrationRows.rows(
            from: migrated, schema: destination, storeIdentifier: storeIdentifier)
    }
}
