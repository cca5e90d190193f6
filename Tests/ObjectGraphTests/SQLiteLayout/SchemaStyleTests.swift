import Foundation
import ObjectGraph
import SQLiteDatabase
import Testing

/// Core Data's DDL per framework version (``SchemaStyle``): index names, uniqueness
/// constraints, bare identifiers and the metadata keys a new store gets; and every corpus
/// model's store following the recent rules.
@Suite("Core Data's DDL by framework version")
struct SchemaStyleTests {
    /// `Person` (indexed `email`, a compound index, a fetch index, two uniqueness constraints)
    /// and its to-one `team`.
    static let model = #"""
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Person">
        <attribute name="email" optional="YES" attributeType="String" indexed="YES"/>
        <attribute name="name" optional="YES" attributeType="String"/>
        <attribute name="born" optional="YES" attributeType="Date"/>
        <relationship name="team" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="people" inverseEntity="Team"/>
        <fetchIndex name="byBornDescending">
        <fetchIndexElement property="born" type="Binary" order="descending"/>
        </fetchIndex>
        <uniquenessConstraints>
        <uniquenessConstraint><constraint value="email"/></uniquenessConstraint>
        <uniquenessConstraint><constraint value="name"/><constraint value="team"/></uniquenessConstraint>
        </uniquenessConstraints>
        <compoundIndexes>
        <compoundIndex><index value="name"/><index value="born"/></compoundIndex>
        </compoundIndexes>
        </entity>
        <entity name="Team">
        <attribute name="title" optional="YES" attributeType="String"/>
        <relationship name="people" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="team" inverseEntity="Person"/>
        </entity>
        </model>
        """#

    static func loadModel() throws -> EntityModel {
        try EntityModel(xmlData: Data(model.utf8))
    }

    static let personTable =
        "CREATE TABLE ZPERSON ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTEAM INTEGER, ZBORN TIMESTAMP, ZEMAIL VARCHAR, ZNAME VARCHAR"

    @Test("recent Core Data (fw 1000 and later): fetch indexes and Z_<Entity>_UNIQUE_ indexes")
    func uniqueIndexes() throws {
        let layout = try StoreLayout(model: Self.loadModel(), frameworkVersion: 1145)
        #expect(layout.style == .uniqueIndexes)
        #expect(
            layout.createStatements() == [
                Self.personTable + " )",
                "CREATE TABLE ZTEAM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR )",
                "CREATE INDEX ZPERSON_ZTEAM_INDEX ON ZPERSON (ZTEAM)",
                "CREATE INDEX Z_Person_byBornDescending ON ZPERSON (ZBORN COLLATE BINARY DESC)",
                "CREATE INDEX Z_Person_byEmailIndex ON ZPERSON (ZEMAIL COLLATE BINARY ASC)",
                "CREATE INDEX Z_Person_compoundIndex ON ZPERSON (ZNAME COLLATE BINARY ASC, ZBORN COLLATE BINARY ASC)",
                "CREATE UNIQUE INDEX Z_Person_UNIQUE_email ON ZPERSON (ZEMAIL COLLATE BINARY ASC)",
                "CREATE UNIQUE INDEX Z_Person_UNIQUE_name_team ON ZPERSON (ZNAME COLLATE BINARY ASC, ZTEAM COLLATE BINARY ASC)",
                StoreLayout.primaryKeyTableSQL, StoreLayout.metadataTableSQL,
                StoreLayout.modelCacheTableSQL,
            ])
    }

    @Test("fw 849 to 999 (knowledgeC 851): fetch indexes, uniqueness inside CREATE TABLE")
    func fetchIndexes() throws {
        let layout = try StoreLayout(model: Self.loadModel(), frameworkVersion: 851)
        #expect(layout.style == .fetchIndexes)
        let statements = layout.createStatements()
        #expect(
            statements.first
                == "CREATE TABLE ZPERSON ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTEAM INTEGER, ZBORN TIMESTAMP, ZEMAIL VARCHAR UNIQUE, ZNAME VARCHAR, CONSTRAINT ZNAME_ZTEAM UNIQUE (ZNAME, ZTEAM) )"
        )
        #expect(
            statements.contains(
                "CREATE INDEX Z_Person_byEmailIndex ON ZPERSON (ZEMAIL COLLATE BINARY ASC)"))
        #expect(!statements.contains { $0.contains("UNIQUE INDEX") })
    }

    @Test("older Core Data (before fw 849): table-named indexes and CONSTRAINT … UNIQUE")
    func legacy() throws {
        let layout = try StoreLayout(model: Self.loadModel(), frameworkVersion: 637)
        #expect(layout.style == .legacy)
        let statements = layout.createStatements()
        #expect(
            statements.first
                == Self.personTable
                + ", CONSTRAINT ZEMAIL UNIQUE (ZEMAIL), CONSTRAINT ZNAME_ZTEAM UNIQUE (ZNAME, ZTEAM) )"
        )
        #expect(
            statements.filter { $0.hasPrefix("CREATE INDEX") } == [
                "CREATE INDEX ZPERSON_ZTEAM_INDEX ON ZPERSON (ZTEAM)",
                "CREATE INDEX Z_Person_byBornDescending ON ZPERSON (ZBORN COLLATE BINARY DESC)",
                "CREATE INDEX ZPERSON_ZEMAIL_INDEX ON ZPERSON (ZEMAIL)",
                "CREATE INDEX ZPERSON_ZNAME_ZBORN ON ZPERSON (ZNAME, ZBORN)",
            ])
    }

    @Test("a compiled model's relationship and compound fetch indexes, and URI columns")
    func compiledModelIndexes() throws {
        // As a model cache holds them: a fetch index per relationship named after it, and the
        // compound index listed again as fetch index `compoundIndex`.
        let model = try EntityModel(
            xmlData: Data(
                #"""
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Link">
                <attribute name="address" optional="YES" attributeType="URI"/>
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="icon" optional="YES" attributeType="Binary"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="links" inverseEntity="Owner"/>
                <fetchIndex name="owner"><fetchIndexElement property="owner" type="Binary" order="ascending"/></fetchIndex>
                <fetchIndex name="compoundIndex"><fetchIndexElement property="title" type="Binary" order="ascending"/></fetchIndex>
                <compoundIndexes><compoundIndex><index value="title"/></compoundIndex></compoundIndexes>
                </entity>
                <entity name="Owner">
                <relationship name="links" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Link" inverseName="owner" inverseEntity="Link"/>
                <fetchIndex name="links"><fetchIndexElement property="links" type="Binary" order="ascending"/></fetchIndex>
                </entity>
                </model>
                """#.utf8))
        let statements = try StoreLayout(model: model).createStatements()
        #expect(
            statements.prefix(4) == [
                "CREATE TABLE ZLINK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZOWNER INTEGER, ZTITLE VARCHAR, ZADDRESS VARCHAR, ZICON BLOB )",
                "CREATE TABLE ZOWNER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER )",
                "CREATE INDEX ZLINK_ZOWNER_INDEX ON ZLINK (ZOWNER)",
                "CREATE INDEX Z_Link_compoundIndex ON ZLINK (ZTITLE COLLATE BINARY ASC)",
            ])
        #expect(statements.count == 7)
    }

    @Test("a name SQLite would not read bare is quoted")
    func quoting() {
        #expect(StoreLayout.schemaIdentifier("ZPERSON") == "ZPERSON")
        #expect(StoreLayout.schemaIdentifier("Z_Person_byNameIndex") == "Z_Person_byNameIndex")
        #expect(StoreLayout.schemaIdentifier("ZCAFÉ") == "ZCAFÉ")
        #expect(StoreLayout.schemaIdentifier("ZFIRST NAME") == "\"ZFIRST NAME\"")
        #expect(StoreLayout.schemaIdentifier("ZA\"B") == "\"ZA\"\"B\"")
        #expect(StoreLayout.schemaIdentifier("ORDER") == "\"ORDER\"")
        #expect(StoreLayout.schemaIdentifier("") == "\"\"")
    }

    @Test("a new store follows the framework version it is created for, and keeps working")
    func createdForAnOlderVersion() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let model = try Self.loadModel()
        for version in [637, 851, 1145, 1448] {
            let url = folder.appendingPathComponent("v\(version).sqlite")
            var options = StoreOptions()
            options.frameworkVersion = version
            let coordinator = StoreCoordinator(model: model)
            let description = try coordinator.addStore(type: .sqlite, at: url, options: options)
            #expect(description.metadata.frameworkVersion == version)
            #expect((description.metadata.versionHashesDigest != nil) == (version >= 977))
            #expect((description.metadata.versionChecksum != nil) == (version >= 1200))
            // The uniqueness constraints hold whichever way the schema declares them.
            for _ in 0..<2 {
                let context = ManagedContext(coordinator: coordinator)
                let person = try context.insert("Person")
                try person.set("ada@example.com", for: "email")
                do {
                    try context.save()
                } catch {
                    #expect("\(error)".contains("email"), "fw \(version): \(error)")
                }
            }
            let count = try Self.database(url).fetchValue(
                Int.self, sql: "SELECT count(*) FROM ZPERSON")
            #expect(count == 1, "fw \(version)")
            let reopened = StoreCoordinator(model: model)
            let again = try reopened.addStore(type: .sqlite, at: url)
            #expect(again.metadata.frameworkVersion == version)
        }
    }

    static func database(_ url: URL) throws -> Database {
        try Database(url: url, mode: .readOnlyUntouched)
    }

    @Test("every corpus model's store names its indexes by the recent rules")
    func corpusModelIndexNames() throws {
        guard let corpus = TestSupport.corpus else { return }
        var checked = 0
        var namedIndexes = 0
        for contents in TestSupport.contentsFiles(
            below: corpus.appendingPathComponent("xcdatamodel"))
        {
            guard let model = try? EntityModel(contentsOf: contents.deletingLastPathComponent()),
                let layout = try? StoreLayout(model: model)
            else { continue }
            let folder = try TestSupport.makeTemporaryFolder()
            defer { TestSupport.removeTemporaryFolder(folder) }
            let url = folder.appendingPathComponent("Store.sqlite")
            try StoreCoordinator(model: model).addStore(type: .sqlite, at: url)
            let database = try Database(url: url, mode: .readOnlyUntouched)
            defer { try? database.close() }
            var indexes: [String: String] = [:]
            for row in try database.fetchAll(
                sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
            {
                indexes[try row.decode(String.self, at: 0)] = try row.decode(String.self, at: 1)
            }
            let where_ = contents.path
            for entity in model.entities {
                let prefix = "Z_" + entity.name + "_"
                let table = layout.entity(named: entity.name)?.tableName ?? ""
                let columns = Set(
                    layout.entity(named: entity.name)?.attributeColumns.keys.map { $0 } ?? [])
                for fetchIndex in entity.fetchIndexes
                where fetchIndex.elements.contains(where: { columns.contains($0.property) }) {
                    let sql = indexes[prefix + fetchIndex.name]
                    #expect(
                        sql?.hasPrefix("CREATE INDEX \(prefix + fetchIndex.name) ON \(table) (")
                            == true, "\(where_): \(entity.name) fetch index \(fetchIndex.name)")
                    namedIndexes += 1
                }
                for constraint in entity.uniquenessConstraints where !constraint.isEmpty {
                    let name = prefix + "UNIQUE_" + constraint.joined(separator: "_")
                    #expect(
                        indexes[name]?.hasPrefix("CREATE UNIQUE INDEX \(name) ON \(table) (")
                            == true, "\(where_): \(name)")
                    namedIndexes += 1
                }
                for attribute in entity.attributes
                where attribute.isIndexed && !attribute.isTransient {
                    let name =
                        prefix + "by" + attribute.name.prefix(1).uppercased()
                        + attribute.name.dropFirst() + "Index"
                    #expect(indexes[name] != nil, "\(where_): \(name)")
                    namedIndexes += 1
                }
            }
            // Every index is one of Core Data's kinds, its SQL unquoted.
            for (name, sql) in indexes {
                let known =
                    name.hasSuffix("_INDEX")
                    || model.entities.contains { name.hasPrefix("Z_" + $0.name + "_") }
                #expect(known, "\(where_): \(name)")
                #expect(!sql.contains("\""), "\(where_): \(sql)")
            }
            checked += 1
        }
        #expect(checked >= 40)
        #expect(namedIndexes >= 60)
    }
}
