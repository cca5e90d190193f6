import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

/// Helpers of the SQLite in-place migration tests: inferred mappings built by hand (as the
/// inference will build them: `$source.<name>` for every destination property with a source),
/// stores opened through the public API, and the schema of a file.
enum SQLiteMigrationSupport {
    /// An inferred mapping from `source` to `destination`: entities and properties matched by
    /// name, or through `entityRenames` (destination → source) and `propertyRenames`
    /// (destination entity → destination property → source property).
    static func inferred(
        from source: EntityModel, to destination: EntityModel,
        entityRenames: [String: String] = [:], propertyRenames: [String: [String: String]] = [:]
    ) throws -> MappingModel {
        var mappings: [EntityMapping] = []
        var mappedSources: Set<String> = []
        for entity in destination.entities {
            let sourceName = entityRenames[entity.name] ?? entity.name
            guard let sourceEntity = source.entity(named: sourceName) else {
                mappings.append(
                    EntityMapping(
                        name: "Add" + entity.name, kind: .add,
                        destinationEntityName: entity.name))
                continue
            }
            mappedSources.insert(sourceName)
            let sourceAttributes = Set(source.allAttributes(of: sourceEntity).map(\.name))
            let sourceRelationships = Set(
                source.lineage(of: sourceEntity).flatMap(\.relationships).map(\.name))
            func mapping(_ name: String, in names: Set<String>) throws -> PropertyMapping {
                let from = propertyRenames[entity.name]?[name] ?? name
                guard names.contains(from) else { return PropertyMapping(name: name) }
                return PropertyMapping(
                    name: name, valueExpression: try Expression(format: "$source." + from))
            }
            let attributes = try destination.allAttributes(of: entity).map {
                try mapping($0.name, in: sourceAttributes)
            }
            let relationships = try destination.lineage(of: entity).flatMap(\.relationships).map {
                try mapping($0.name, in: sourceRelationships)
            }
            mappings.append(
                EntityMapping(
                    name: sourceName + "To" + entity.name, kind: .transform,
                    sourceEntityName: sourceName, destinationEntityName: entity.name,
                    attributeMappings: attributes, relationshipMappings: relationships))
        }
        for entity in source.entities where !mappedSources.contains(entity.name) {
            mappings.append(
                EntityMapping(
                    name: "Remove" + entity.name, kind: .remove, sourceEntityName: entity.name))
        }
        return MappingModel(
            sourceModel: source, destinationModel: destination, entityMappings: mappings,
            isInferred: true)
    }

    /// The one step from `source` to `destination` with `mapping`.
    static func step(
        _ source: EntityModel, _ destination: EntityModel, _ mapping: MappingModel
    ) -> MigrationStep {
        MigrationStep(
            source: ModelVersion(name: "V1", model: source),
            destination: ModelVersion(name: "V2", model: destination), mapping: mapping)
    }

    /// A context on the SQLite store at `url` opened with `model` (public API).
    static func open(_ url: URL, _ model: EntityModel) throws -> ManagedContext {
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(type: .sqlite, at: url)
        return ManagedContext(coordinator: coordinator)
    }

    /// Every schema object of the file (type, name, table, SQL), by name.
    static func schema(of url: URL) throws -> [String] {
        let db = try Database(url: url, mode: .readOnly)
        defer { try? db.close() }
        return try db.fetchAll(
            sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name"
        ).map { row in
            (0..<4).map { ((try? row.decode(String?.self, at: $0)) ?? nil) ?? "NULL" }
                .joined(separator: " | ")
        }
    }

    /// `Z_PRIMARYKEY`'s entity rows (number, name, parent) of the file.
    static func primaryKeyRows(of url: URL) throws -> [String] {
        let db = try Database(url: url, mode: .readOnly)
        defer { try? db.close() }
        return try db.fetchAll(
            sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT"
        )
        .map { row in
            "\(try row.decode(Int.self, at: 0)) \(try row.decode(String.self, at: 1)) "
                + "\(try row.decode(Int.self, at: 2))"
        }
    }

    /// Expects the file at `url` to have exactly the schema and `Z_PRIMARYKEY` entity rows of
    /// a fresh store of `model` made in `folder`.
    static func expectFreshSchema(_ url: URL, _ model: EntityModel, folder: URL) throws {
        let fresh = folder.appendingPathComponent("Fresh-\(UUID().uuidString).sqlite")
        do { _ = try open(fresh, model) }
        #expect(try schema(of: url) == schema(of: fresh))
        #expect(try primaryKeyRows(of: url) == primaryKeyRows(of: fresh))
    }

    /// A value of `object` as text, for compact expectations.
    static func text(_ object: ManagedObject, _ key: String) -> String? {
        object[key] as String?
    }
}
