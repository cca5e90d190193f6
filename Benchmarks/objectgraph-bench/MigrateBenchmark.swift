import Foundation
import ObjectGraph

/// `migrate`: the store of n people (and n/100 teams) written with ``Workload/model()`` is
/// migrated in place to ``migratedModel()`` — `rating` (Integer 16, default 0) added,
/// `email` renamed `emailAddress` — in one transaction. Filling the store is not timed.
///
/// ObjectGraph: `SQLiteStoreMigration.migrate` with the inferred mapping (SQL only: the person
/// table rebuilt in Core Data's column order for the new model, indexes, `Z_PRIMARYKEY` and
/// `Z_METADATA` rewritten). Raw: the same in hand-written SQL — drop the person indexes,
/// rename the table aside, create it in the new layout, `INSERT … SELECT` with 0 for
/// `rating`, drop the old table, recreate the indexes, update `Z_METADATA` — so both sides end
/// with the same file layout a fresh store of the new model has. Both check the result with
/// the same query after the clock stops.
enum MigrateBenchmark {
    /// The model after the change.
    static func migratedModel() -> EntityModel {
        var entities = Workload.model().entities
        var attributes = entities[0].attributes.filter { $0.name != "email" }
        var renamed = Attribute("emailAddress", type: .string)
        renamed.renamingIdentifier = "email"
        attributes.append(renamed)
        attributes.append(
            Attribute("rating", type: .integer16, isOptional: false, defaultValueString: "0"))
        entities[0].attributes = attributes
        return EntityModel(entities: entities)
    }

    /// The inferred step from the workload's model to ``migratedModel()``.
    static func step() throws -> MigrationStep {
        let source = ModelVersion(name: "Bench", model: Workload.model())
        let destination = ModelVersion(name: "Bench 2", model: migratedModel())
        return MigrationStep(
            source: source, destination: destination,
            mapping: try MappingModel.inferred(from: source, to: destination))
    }

    /// ObjectGraph's side.
    static func objectGraph(n: Int, url: URL) throws -> SideResult {
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = try ObjectGraphRunner(n: n, url: url, withUndoManager: false)
                .run("insert", queries: 0, budget: 0)
        }
        let step = try step()
        let start = Clock.now()
        let startCPU = Clock.cpu()
        try SQLiteStoreMigration.migrate(storeAt: url, steps: [step])
        var result = SideResult(seconds: Clock.now() - start, checksum: 0, count: 0)
        result.cpuSeconds = Clock.cpu() - startCPU
        return try checked(result, path: url.path)
    }

    /// The person table of ``migratedModel()``, as a fresh store creates it.
    static let migratedPersonTable = """
        CREATE TABLE "ZPERSON" ( "Z_PK" INTEGER PRIMARY KEY, "Z_ENT" INTEGER, "Z_OPT" INTEGER, \
        "ZAGE" INTEGER, "ZID" INTEGER, "ZRATING" INTEGER, "ZTEAM" INTEGER, "ZCREATED" TIMESTAMP, \
        "ZSCORE" FLOAT, "ZEMAILADDRESS" VARCHAR, "ZNAME" VARCHAR )
        """

    /// The raw side: the same change in plain SQL, one transaction.
    static func raw(n: Int, path: String) throws -> SideResult {
        if !FileManager.default.fileExists(atPath: path) {
            _ = try RawSQLiteRunner(n: n, path: path).run("insert", queries: 0)
        }
        let db = try RawDatabase(path: path)
        let start = Clock.now()
        let startCPU = Clock.cpu()
        try db.transaction {
            for index in ["ZPERSON_ZTEAM_INDEX", "Z_Person_byIdIndex", "Z_Person_byNameIndex"] {
                try db.execute("DROP INDEX \"\(index)\"")
            }
            try db.execute("ALTER TABLE \"ZPERSON\" RENAME TO \"ZPERSON_OLD\"")
            try db.execute(migratedPersonTable)
            try db.execute(
                "INSERT INTO \"ZPERSON\" (Z_PK, Z_ENT, Z_OPT, ZAGE, ZID, ZRATING, ZTEAM, ZCREATED,"
                    + " ZSCORE, ZEMAILADDRESS, ZNAME) SELECT Z_PK, Z_ENT, Z_OPT, ZAGE, ZID, 0, ZTEAM,"
                    + " ZCREATED, ZSCORE, ZEMAIL, ZNAME FROM \"ZPERSON_OLD\" ORDER BY Z_PK")
            try db.execute("DROP TABLE \"ZPERSON_OLD\"")
            try db.execute("CREATE INDEX \"ZPERSON_ZTEAM_INDEX\" ON \"ZPERSON\" (\"ZTEAM\")")
            try db.execute(
                "CREATE INDEX \"Z_Person_byIdIndex\" ON \"ZPERSON\" (\"ZID\" COLLATE BINARY ASC)")
            try db.execute(
                "CREATE INDEX \"Z_Person_byNameIndex\" ON \"ZPERSON\" (\"ZNAME\" COLLATE BINARY ASC)"
            )
            let metadata = try db.prepare("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1")
            metadata.bind(1, "migrated")
            try metadata.run()
        }
        var result = SideResult(seconds: Clock.now() - start, checksum: 0, count: 0)
        result.cpuSeconds = Clock.cpu() - startCPU
        return try checked(result, path: path)
    }

    /// `result` with the count and a checksum of the migrated people (read after the clock).
    static func checked(_ result: SideResult, path: String) throws -> SideResult {
        let db = try RawDatabase(path: path)
        let statement = try db.prepare(
            "SELECT COUNT(*), TOTAL(ZID + ZRATING * 7 + LENGTH(ZEMAILADDRESS) * 3 + ZAGE)"
                + " FROM ZPERSON")
        guard try statement.step() else { throw BenchError.failed("migrate: no count") }
        var checked = result
        checked.count = Int(statement.int64(0))
        checked.checksum = Int64(statement.double(1))
        return checked
    }
}
