import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a planned migration on a store file, crash-safely:
/// - without stage handlers, a SQLite store is migrated in place in one transaction, an XML or
///   binary store read, mapped and written whole through a staging file, a PostgreSQL store
///   read, mapped and swapped for a staged copy in one transaction;
/// - with handlers (custom stages that run code with the store open between steps), every step
///   runs on a staging copy of the store (``StagingFile``), and the copy replaces the store only
///   when the last step and handler are done.
///
/// Either way a process killed at any moment leaves the old version or the fully migrated one.
struct StoreMigrationRunner {
    /// The store file.
    let url: URL
    /// Its type.
    let type: StoreType
    /// The planned steps, in order.
    let steps: [MigrationStep]
    /// The declared stages (for their handlers).
    let stages: [MigrationStage]
    /// The SQLite busy timeout.
    let busyTimeout: Double
    /// The SQL log of an in-place SQLite migration (see ``StoreOptions/sqlDebugLevel``).
    var sqlLog: SQLLog? = nil
    /// Where progress goes.
    let report: @Sendable (MigrationProgress) -> Void

    /// Runs every step.
    func run() throws {
        guard !steps.isEmpty else { return }
        if let staged = steps.first(where: { stage(for: $0)?.hasHandlers == true }) {
            guard type != .postgres else {
                // Handlers open the store between steps: there is no copy of a schema to
                // give them, and the steps must run in the one transaction.
                throw MigrationError.stageFailed(
                    stage: staged.label,
                    reason: "stages with handlers cannot migrate a PostgreSQL store; migrate a"
                        + " SQLite copy (objectgraph convert) and convert it back")
            }
            try runOnStagingCopy()
        } else {
            try migrate(at: url, steps: steps, report: report)
        }
        if let last = steps.last {
            report(
                MigrationProgress(
                    fractionCompleted: 1, stageIndex: steps.count - 1, stageCount: steps.count,
                    stage: last.label))
        }
    }

    /// The declared stage `step` stands for.
    private func stage(for step: MigrationStep) -> MigrationStage? {
        stages.first {
            $0.sourceVersionName == step.source.name
                && $0.destinationVersionName == step.destination.name
        }
    }

    /// Migrates the file at `target` through `steps` (one transaction or one atomic write).
    private func migrate(
        at target: URL, steps: [MigrationStep],
        report: @escaping (MigrationProgress) -> Void
    ) throws {
        switch type {
        case .sqlite:
            try MigrationBridge.migrateSQLite(
                at: target, steps: steps, busyTimeout: busyTimeout, sqlLog: sqlLog,
                progress: report)
        case .xml:
            try AtomicStoreMigration.migrate(
                at: target, format: XMLStoreFormat(), steps: steps, progress: report)
        case .binary:
            try AtomicStoreMigration.migrate(
                at: target, format: BinaryStoreFormat(), steps: steps, progress: report)
        case .postgres:
            try MigrationBridge.migratePostgres(at: target, steps: steps, progress: report)
        default:
            // An in-memory store starts empty: it never holds objects of another version.
            return
        }
    }

    /// Runs the steps and their handlers on a copy of the store, then moves the copy over it.
    private func runOnStagingCopy() throws {
        if type == .sqlite { try SQLiteCheckpoint.checkpoint(url) }
        let staging = try StagingFile(for: url)
        do {
            let copy = URL(fileURLWithPath: staging.path)
            try copyContents(of: url, to: copy)
            for (index, step) in steps.enumerated() {
                let stage = stage(for: step)
                if let handler = stage?.willMigrate {
                    try runHandler(handler, stage: step.label, model: step.source.model, at: copy)
                }
                let count = steps.count
                let report = self.report
                try migrate(at: copy, steps: [step]) { progress in
                    var overall = progress
                    overall.stageIndex = index
                    overall.stageCount = count
                    overall.fractionCompleted =
                        (Double(index) + progress.fractionCompleted) / Double(count)
                    report(overall)
                }
                if let handler = stage?.didMigrate {
                    try runHandler(
                        handler, stage: step.label, model: step.destination.model, at: copy)
                }
            }
            if type == .sqlite { try SQLiteCheckpoint.checkpoint(copy) }
            try staging.synchronize()
            let stagingPath = staging.path
            try staging.install(replacing: true)
            // The lock file an atomic store's writes took beside the copy.
            unlink(stagingPath + ".lock")
        } catch {
            unlink(staging.path + ".lock")
            staging.discard()
            throw error
        }
    }

    /// Runs `handler` with a coordinator of `model` open on the file at `target`; its errors
    /// become ``MigrationError/stageFailed(stage:reason:)``.
    private func runHandler(
        _ handler: MigrationStage.Handler, stage: String, model: EntityModel, at target: URL
    ) throws {
        let coordinator = StoreCoordinator(model: model)
        let store = try coordinator.addStore(
            type: type, at: target,
            options: StoreOptions(
                createIfMissing: false, busyTimeout: busyTimeout,
                migration: MigrationOptions(migratesAutomatically: false)))
        defer { coordinator.removeStore(store) }
        do {
            try handler(coordinator)
        } catch let error as MigrationError {
            throw error
        } catch {
            throw MigrationError.stageFailed(stage: stage, reason: "\(error)")
        }
    }

    /// Writes the bytes of the file at `source` over the (empty) staging file `destination`,
    /// keeping its inode (its lock).
    private func copyContents(of source: URL, to destination: URL) throws {
        do {
            let data = try Data(contentsOf: source)
            let handle = try FileHandle(forWritingTo: destination)
            defer { try? handle.close() }
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: data)
        } catch {
            throw StoreError.cannotWrite(
                path: destination.path, reason: "cannot copy \(source.path): \(error)")
        }
    }
}
