import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

/// The generated DDL run on fresh SQLite databases.
@Suite("Layout DDL on SQLite")
struct LayoutDatabaseTests {
    static func school() throws -> EntityModel {
        try EntityModel(
            contentsOf: TestSupport.models.appendingPathComponent("School.xcdatamodeld"))
    }

    static func text(_ value: DatabaseValue?) -> String {
        if case .text(let text)? = value { return text }
        return ""
    }

    @Test("the School schema executes and every table has the predicted columns")
    func schoolSchema() throws {
        let layout = try StoreLayout(model: Self.school())
        let database = try Database.inMemory()
        for statement in layout.createStatements() { try database.execute(sql: statement) }
        for table in layout.tables {
            let columns = try database.fetchAll(
                sql: "SELECT name, type FROM pragma_table_info(?)", arguments: [table.name]
            ).map { Self.text($0[0]) + " " + Self.text($0[1]) }
            #expect(columns == table.columns.map { $0.name + " " + $0.type.rawValue })
        }
        let indexCount = try database.fetchAll(
            sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
        ).count
        #expect(indexCount == layout.indexes.count)
        // A uniqueness constraint is enforced.
        let course = try #require(layout.entity(named: "Course"))
        let code = try #require(course.attributeColumns["code"]).name
        let insert =
            "INSERT INTO " + quoteIdentifier(course.tableName) + " (Z_PK, Z_ENT, Z_OPT, "
            + quoteIdentifier(code) + ") VALUES (?, ?, 1, ?)"
        try database.execute(sql: insert, arguments: [1, course.entityNumber, "CS101"])
        #expect(throws: DatabaseError.self) {
            try database.execute(sql: insert, arguments: [2, course.entityNumber, "CS101"])
        }
    }

    @Test("metadata written to Z_METADATA reads back equal and compatible")
    func metadataRow() throws {
        let model = try Self.school()
        let layout = try StoreLayout(model: model)
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let path = folder.appendingPathComponent("School.sqlite").path
        var metadata = StoreMetadata(model: model)
        metadata.additionalEntries["BuildNumber"] = 12
        do {
            let database = try Database(path: path)
            for statement in layout.createStatements() { try database.execute(sql: statement) }
            try database.execute(
                sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                arguments: StatementArguments(
                    positional: [
                        .text(metadata.storeUUID), .blob(try metadata.propertyListData()),
                    ]))
            for entity in layout.entities {
                try database.execute(
                    sql:
                        "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                    arguments: [entity.entityNumber, entity.name, entity.superNumber])
            }
            try database.close()
        }
        let database = try Database(path: path, mode: .readOnly)
        defer { try? database.close() }
        let row = try #require(try database.fetchOne(sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA"))
        guard case .blob(let plist)? = row[1] else {
            Issue.record("Z_PLIST is not a blob")
            return
        }
        let read = try StoreMetadata(storeUUID: Self.text(row[0]), propertyList: plist)
        #expect(read == metadata)
        #expect(read.compatibility(with: model).isCompatible)
        #expect(
            try database.fetchAll(sql: "SELECT Z_ENT FROM Z_PRIMARYKEY").count
                == layout.entities.count)
    }

    @Test("identifiers with quotes and SQL keywords work in real statements")
    func keywordIdentifiers() throws {
        var order = Entity(
            "Order",
            attributes: [
                Attribute("key", type: .string), Attribute("index", type: .integer32),
                Attribute("we\"ird", type: .date),
            ],
            relationships: [Relationship("group", destination: "Group", inverse: "orders")])
        order.uniquenessConstraints = [["key"]]
        order.fetchIndexes = [
            FetchIndex("by\"Index", elements: [FetchIndex.Element(property: "index")])
        ]
        let group = Entity(
            "Group",
            attributes: [Attribute("select", type: .string)],
            relationships: [
                Relationship("orders", destination: "Order", toMany: true, inverse: "group"),
                Relationship("tables", destination: "Ta\"ble", toMany: true, inverse: "groups"),
            ])
        let table = Entity(
            "Ta\"ble",
            relationships: [
                Relationship("groups", destination: "Group", toMany: true, inverse: "tables")
            ])
        let layout = try StoreLayout(model: EntityModel(entities: [order, group, table]))
        let database = try Database.inMemory()
        for statement in layout.createStatements() { try database.execute(sql: statement) }

        let orderLayout = try #require(layout.entity(named: "Order"))
        let weird = try #require(orderLayout.attributeColumns["we\"ird"]).name
        #expect(weird == "ZWE\"IRD")
        let date = Date(timeIntervalSinceReferenceDate: 86_400)
        let stored = try ValueCoding.storageValue(for: .date(date), type: .date)
        try database.execute(
            sql: "INSERT INTO " + quoteIdentifier(orderLayout.tableName) + " (Z_PK, Z_ENT, "
                + quoteIdentifier(weird) + ", \"ZKEY\") VALUES (?, ?, ?, ?)",
            arguments: StatementArguments(
                positional: [
                    .integer(1), .integer(Int64(orderLayout.entityNumber)), stored, .text("k"),
                ]))
        let row = try #require(
            try database.fetchOne(
                sql: "SELECT " + quoteIdentifier(weird) + ", typeof(" + quoteIdentifier(weird)
                    + ") FROM " + quoteIdentifier(orderLayout.tableName)))
        // A whole number of seconds comes back as INTEGER from a TIMESTAMP column…
        #expect(Self.text(row[1]) == "integer")
        // …and still reads as the same date.
        #expect(try ValueCoding.value(from: row[0] ?? .null, type: .date) == .date(date))

        let join = try #require(layout.joinTables.first)
        #expect(join.name == "Z_1TABLES")
        #expect(
            try database.fetchAll(sql: "SELECT * FROM " + quoteIdentifier(join.name)).isEmpty)
    }

    @Test(
        "corpus models' DDL reproduces the real stores' tables", .enabled(if: TestSupport.hasCorpus)
    )
    func corpusModelsExecute() throws {
        let folder = try #require(TestSupport.corpus).appendingPathComponent("coredata-stores")
        for path in [
            "12-easylife-migration-fixtures/EasyLife.xcdatamodeld/EasyLife 1.5.0.xcdatamodel",
            "13-bnr-coredatastack-testmodel/Sample.xcdatamodeld/TestModel.xcdatamodel",
            "15-appcoda-preload-wal/CoreDataPreloadDemo.xcdatamodeld/CoreDataPreloadDemo.xcdatamodel",
        ] {
            let layout = try StoreLayout(
                model: EntityModel(contentsOf: folder.appendingPathComponent(path)))
            let database = try Database.inMemory()
            for statement in layout.createStatements() { try database.execute(sql: statement) }
            let tables = try database.fetchAll(
                sql: "SELECT name FROM sqlite_master WHERE type = 'table'"
            ).map { Self.text($0[0]) }
            #expect(
                Set(tables)
                    == Set(
                        layout.tables.map(\.name) + layout.joinTables.map(\.name) + [
                            "Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE",
                        ]))
        }
    }
}
