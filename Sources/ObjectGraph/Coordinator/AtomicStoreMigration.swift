import Foundation

/// Migrates an XML or binary store file in place: the whole graph is read with the source
/// version's model, mapped step by step through the row-level migration manager, and written
/// with the destination model through ``AtomicFile`` (a staging file moved over the old one), so
/// the file holds the old version or the new one whole at every moment. The store keeps its
/// UUID, so object URIs stay valid wherever an object keeps its entity and key.
enum AtomicStoreMigration {
    /// Migrates the `format` store at `url` through `steps` (all or none).
    /// - Throws: ``MigrationError`` from the mapping, ``StoreError`` naming the file.
    static func migrate(
        at url: URL, format: any AtomicStoreFormat, steps: [MigrationStep],
        progress: @escaping (MigrationProgress) -> Void
    ) throws {
        guard let first = steps.first, let last = steps.last else { return }
        let path = url.path
        try AtomicFile.withLock(for: url) {
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw StoreError.cannotOpen(path: path, reason: "cannot read the file")
            }
            var schema = ModelSchema(model: first.source.model)
            let contents = try format.read(data, path: path, schema: schema)
            var rows = contents.rows
            for (index, step) in steps.enumerated() {
                let destination = ModelSchema(model: step.destination.model)
                rows = try StepProgress(index: index, of: steps, report: progress).run { report in
                    try MigrationBridge.mapRows(
                        step, rows: rows, source: schema, destination: destination,
                        progress: report)
                }
                schema = destination
            }
            var metadata = StoreMetadata(
                model: last.destination.model, storeUUID: contents.metadata.storeUUID)
            metadata.storeType = contents.metadata.storeType
            metadata.frameworkVersion = contents.metadata.frameworkVersion
            metadata.autoVacuumLevel = contents.metadata.autoVacuumLevel
            metadata.additionalEntries = contents.metadata.additionalEntries
            let written = try format.write(
                AtomicStoreContents(
                    metadata: metadata, rows: rows, nextKeys: nextKeys(of: rows, schema: schema)),
                schema: schema, path: path)
            try AtomicFile.write(written, to: url, replacing: true)
        }
    }

    /// The next primary key of each inheritance tree: one past the largest key in it.
    static func nextKeys(of rows: [StoreRow], schema: ModelSchema) -> [Int: Int64] {
        var next: [Int: Int64] = [:]
        for row in rows {
            guard case .permanent(let key) = row.id.key else { continue }
            let root = schema.root(of: schema.entities[row.entityIndex]).index
            next[root] = max(next[root] ?? 1, key + 1)
        }
        return next
    }
}

/// Turns the progress of one step (the entity being mapped, the fraction of the step done) into
/// ``MigrationProgress`` over the whole migration.
struct StepProgress {
    /// The step's index.
    let index: Int
    /// Every step of the migration.
    let steps: [MigrationStep]
    /// Where reports go.
    let report: (MigrationProgress) -> Void

    init(index: Int, of steps: [MigrationStep], report: @escaping (MigrationProgress) -> Void) {
        self.index = index
        self.steps = steps
        self.report = report
    }

    /// The report of `fraction` of the step done, at `entity`.
    func progress(entity: String?, fraction: Double) -> MigrationProgress {
        let count = max(steps.count, 1)
        let done = (Double(index) + min(max(fraction, 0), 1)) / Double(count)
        return MigrationProgress(
            fractionCompleted: done, stageIndex: index, stageCount: steps.count,
            stage: steps[index].label, entityName: entity)
    }

    /// Runs `body` (given a reporter of the step's own progress), reporting the step's start
    /// and end.
    func run<T>(_ body: (@escaping (String?, Double) -> Void) throws -> T) throws -> T {
        report(progress(entity: nil, fraction: 0))
        let value = try body { entity, fraction in
            self.report(self.progress(entity: entity, fraction: fraction))
        }
        report(progress(entity: nil, fraction: 1))
        return value
    }
}
