import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

/// Layout and metadata compared with the real Core Data stores of the shared corpus.
@Suite("Layout and metadata against real Core Data stores", .enabled(if: TestSupport.hasCorpus))
struct CorpusLayoutTests {
    struct Expected {
        let store: String
        let model: String?
        let hashes: [String: String]?
    }

    static var storesFolder: URL? {
        TestSupport.corpus?.appendingPathComponent("coredata-stores")
    }

    /// `expected-version-hashes.json`: every store, its model (if named) and its hashes.
    static func expectations() throws -> [Expected] {
        guard let folder = storesFolder else { return [] }
        let data = try Data(
            contentsOf: folder.appendingPathComponent("expected-version-hashes.json"))
        let root = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let stores = try #require(root["stores"] as? [String: Any])
        return stores.keys.sorted().map { key in
            let entry = stores[key] as? [String: Any]
            return Expected(
                store: key, model: entry?["model"] as? String,
                hashes: entry?["versionHashes"] as? [String: String])
        }
    }

    /// Opens a copy of a corpus store (with its `-wal` and `-shm`) in a temporary folder, so
    /// the shared file is never written.
    static func withCopy<T>(of store: String, _ body: (Database) throws -> T) throws -> T {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let source = try #require(storesFolder).appendingPathComponent(store)
        let target = folder.appendingPathComponent(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] {
            let from = URL(fileURLWithPath: source.path + suffix)
            if FileManager.default.fileExists(atPath: from.path) {
                try FileManager.default.copyItem(
                    at: from, to: URL(fileURLWithPath: target.path + suffix))
            }
        }
        let database = try Database(path: target.path)
        defer { try? database.close() }
        return try body(database)
    }

    /// Name and declared type of every column of `table`, in order.
    static func columns(of table: String, in database: Database) throws -> [String] {
        try database.fetchAll(
            sql: "SELECT name, type FROM pragma_table_info(?)", arguments: [table]
        )
        .map { row in "\(text(row[0])) \(text(row[1]))" }
    }

    static func text(_ value: DatabaseValue?) -> String {
        switch value {
        case .text(let text)?: return text
        case .integer(let number)?: return String(number)
        default: return ""
        }
    }

    static func integer(_ value: DatabaseValue?) -> Int {
        if case .integer(let number)? = value { return Int(number) }
        return -1
    }

    @Test("every table, column, entity number and join table of the real stores is predicted")
    func layoutMatchesStores() throws {
        let withModels = try Self.expectations().filter { $0.model != nil }
        #expect(withModels.count >= 3)
        for expected in withModels {
            let modelURL = try #require(Self.storesFolder).appendingPathComponent(
                try #require(expected.model))
            let layout = try StoreLayout(model: EntityModel(contentsOf: modelURL))
            try Self.withCopy(of: expected.store) { database in
                let tables = try database.fetchAll(
                    sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
                ).map { Self.text($0[0]) }
                let bookkeeping: Set = ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"]
                var seenEntityTables: Set<String> = []
                var seenJoinTables: Set<String> = []
                for table in tables where !bookkeeping.contains(table) {
                    let actual = try Self.columns(of: table, in: database)
                    if let predicted = layout.table(named: table) {
                        seenEntityTables.insert(table)
                        #expect(
                            predicted.columns.map { "\($0.name) \($0.type.rawValue)" } == actual,
                            "\(expected.store): \(table)")
                    } else if let join = layout.joinTable(named: table) {
                        seenJoinTables.insert(table)
                        #expect(
                            join.columns.map { "\($0.name) \($0.type.rawValue)" } == actual,
                            "\(expected.store): \(table)")
                    } else {
                        Issue.record("\(expected.store): table \(table) was not predicted")
                    }
                }
                #expect(seenEntityTables == Set(layout.tables.map(\.name)), "\(expected.store)")
                #expect(seenJoinTables == Set(layout.joinTables.map(\.name)), "\(expected.store)")

                let keys = try database.fetchAll(
                    sql:
                        "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT"
                ).map { "\(Self.integer($0[0])) \(Self.text($0[1])) \(Self.integer($0[2]))" }
                #expect(
                    keys
                        == layout.entities.map { "\($0.entityNumber) \($0.name) \($0.superNumber)" },
                    "\(expected.store)")

                let indexes = try database.fetchAll(
                    sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
                ).map { Self.text($0[0]) }
                #expect(Set(indexes) == Set(layout.indexes.map(\.name)), "\(expected.store)")
            }
        }
    }

    @Test("layouts of models rebuilt from two stores' model caches match those stores")
    func cachedModelsMatchStores() throws {
        let cases = [
            (CachedCorpusModels.knowledgeC, "10-plaso-macos-knowledgec-10.13/knowledgec-10.13.db"),
            (CachedCorpusModels.accounts3, "09-plaso-ios-accounts3/Accounts3.sqlite"),
        ]
        for (xml, store) in cases {
            let layout = try StoreLayout(model: EntityModel(xmlData: Data(xml.utf8)))
            try Self.withCopy(of: store) { database in
                var predicted: [String: [String]] = [:]
                for table in layout.tables {
                    predicted[table.name] = table.columns.map { "\($0.name) \($0.type.rawValue)" }
                }
                for table in layout.joinTables {
                    predicted[table.name] = table.columns.map { "\($0.name) \($0.type.rawValue)" }
                }
                let tables = try database.fetchAll(
                    sql:
                        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%' AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')"
                ).map { Self.text($0[0]) }
                #expect(Set(tables) == Set(predicted.keys), "\(store)")
                for table in tables {
                    let actual = try Self.columns(of: table, in: database)
                    if table == "ZSTRUCTUREDMETADATA" {
                        // One column, added by a later migration, was appended at the end.
                        #expect(Set(actual) == Set(predicted[table] ?? []), "\(store): \(table)")
                    } else {
                        #expect(actual == predicted[table], "\(store): \(table)")
                    }
                }
            }
        }
    }

    @Test("entity numbering and table names hold for every corpus store's hierarchy")
    func numberingOfEveryStore() throws {
        for expected in try Self.expectations() {
            try Self.withCopy(of: expected.store) { database in
                let rows = try database.fetchAll(
                    sql:
                        "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT"
                )
                var names: [Int: String] = [:]
                for row in rows { names[Self.integer(row[0])] = Self.text(row[1]) }
                // The store's own hierarchy, with the entities listed in reverse to show the
                // numbering does not depend on file order.
                let entities = rows.reversed().map { row in
                    Entity(Self.text(row[1]), parent: names[Self.integer(row[2])])
                }
                let layout = try StoreLayout(model: EntityModel(entities: entities))
                #expect(
                    layout.entities.map { "\($0.entityNumber) \($0.name) \($0.superNumber)" }
                        == rows.map {
                            "\(Self.integer($0[0])) \(Self.text($0[1])) \(Self.integer($0[2]))"
                        },
                    "\(expected.store)")
                let tables = Set(
                    try database.fetchAll(
                        sql: "SELECT name FROM sqlite_master WHERE type = 'table'"
                    )
                    .map { Self.text($0[0]) })
                for table in layout.tables {
                    #expect(tables.contains(table.name), "\(expected.store): \(table.name)")
                }
            }
        }
    }

    @Test("every corpus store's Z_METADATA decodes and its hashes are the expected ones")
    func metadataOfEveryStore() throws {
        let expectations = try Self.expectations()
        #expect(expectations.count >= 10)
        for expected in expectations {
            try Self.withCopy(of: expected.store) { database in
                let row = try #require(
                    try database.fetchOne(sql: "SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA"),
                    "\(expected.store)")
                #expect(Self.integer(row[0]) == 1)
                let uuid = Self.text(row[1])
                #expect(UUID(uuidString: uuid) != nil, "\(expected.store)")
                guard case .blob(let plist)? = row[2] else {
                    // NotesV7's metadata was cleared; the expectations say so.
                    #expect(expected.hashes == nil, "\(expected.store)")
                    return
                }
                let metadata = try StoreMetadata(storeUUID: uuid, propertyList: plist)
                #expect(metadata.storeUUID == uuid)
                #expect(metadata.storeType == "SQLite", "\(expected.store)")
                #expect(metadata.versionHashesVersion == 3)
                #expect((metadata.frameworkVersion ?? 0) >= 320)
                let hashes = metadata.versionHashes.mapValues { $0.base64EncodedString() }
                #expect(hashes == expected.hashes, "\(expected.store)")
                // Re-encoding keeps everything, app keys included.
                let again = try StoreMetadata(
                    storeUUID: uuid, propertyList: try metadata.propertyListData())
                #expect(again == metadata, "\(expected.store)")

                if let modelPath = expected.model {
                    let model = try EntityModel(
                        contentsOf: try #require(Self.storesFolder).appendingPathComponent(
                            modelPath))
                    #expect(metadata.compatibility(with: model).isCompatible, "\(expected.store)")
                    if let digest = metadata.versionHashesDigest {
                        #expect(digest == model.versionHashesDigest)
                    }
                }
            }
        }
    }

    @Test("an older store is reported incompatible with a newer model, naming the entities")
    func incompatibleVersions() throws {
        let folder = try #require(Self.storesFolder)
        let model = try EntityModel(
            contentsOf: folder.appendingPathComponent(
                "12-easylife-migration-fixtures/EasyLife.xcdatamodeld/EasyLife 1.5.0.xcdatamodel"))
        try Self.withCopy(of: "12-easylife-migration-fixtures/EasyLife 1.3.0.sqlite") { database in
            let row = try #require(
                try database.fetchOne(sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA"))
            guard case .blob(let plist)? = row[1] else {
                Issue.record("no metadata")
                return
            }
            let check = try StoreMetadata(storeUUID: Self.text(row[0]), propertyList: plist)
                .compatibility(with: model)
            #expect(!check.isCompatible)
            #expect(check.changedEntities == ["Project", "TodoItem"])
            #expect(check.entitiesMissingInStore.isEmpty)
        }
    }

    @Test("the AppCoda rows that live only in the -wal decode with the layout's columns")
    func readsWalRows() throws {
        let folder = try #require(Self.storesFolder)
        let model = try EntityModel(
            contentsOf: folder.appendingPathComponent(
                "15-appcoda-preload-wal/CoreDataPreloadDemo.xcdatamodeld/CoreDataPreloadDemo.xcdatamodel"
            ))
        let layout = try StoreLayout(model: model)
        let item = try #require(layout.entity(named: "MenuItem"))
        let price = try #require(item.attributeColumns["price"])
        let name = try #require(item.attributeColumns["name"])
        let sql =
            "SELECT " + quoteIdentifier(name.name) + ", " + quoteIdentifier(price.name)
            + " FROM " + quoteIdentifier(item.tableName) + " WHERE Z_ENT IN ("
            + item.coveredEntityNumbers.map(String.init).joined(separator: ", ") + ")"
        try Self.withCopy(of: "15-appcoda-preload-wal/CoreDataPreloadDemo.sqlite") { database in
            let rows = try database.fetchAll(sql: sql)
            #expect(rows.count == 24)
            for row in rows {
                let title = try ValueCoding.value(from: row[0] ?? .null, type: .string)
                let cost = try ValueCoding.value(from: row[1] ?? .null, type: .double)
                guard case .string(let text) = title, case .double(let amount) = cost else {
                    Issue.record("unexpected values \(title) \(cost)")
                    continue
                }
                #expect(!text.isEmpty)
                #expect(amount >= 0)
            }
        }
    }
}
