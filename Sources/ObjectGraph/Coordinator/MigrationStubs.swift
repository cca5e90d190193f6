import Foundation

// STUB until rows (C) and sqlite (D) merge: stand-ins for its part, just enough
// for the coordinator's migration flow to run end to end. This file goes when they land.

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
            rows = try MigrationRows.map(
                step, rows: rows, source: schema, destination: destination, progress: nil)
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
