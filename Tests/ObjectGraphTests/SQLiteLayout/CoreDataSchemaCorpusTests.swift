import Foundation
import ObjectGraph
import SQLiteDatabase
import Testing

/// The schema of a store ObjectGraph creates is the one Core Data writes: every corpus store of
/// a recent Core Data (framework version 1000 or later) against a fresh store created for the
/// model recovered from it, `sqlite_master` object by object (exact SQL text), and the Core
/// Data metadata keys. Skips when the corpus is absent.
@Suite("Created schemas against Core Data's", .enabled(if: TestSupport.hasCorpus))
struct CoreDataSchemaCorpusTests {
    /// One `sqlite_master` row.
    struct SchemaObject: Hashable, CustomStringConvertible {
        let type: String
        let table: String
        let sql: String?

        var description: String { "\(type) on \(table): \(sql ?? "(no SQL)")" }
    }

    /// Every schema object of the file at `url` by name, and its metadata's keys.
    static func schema(at url: URL) throws -> (
        objects: [String: SchemaObject], metadata: [String: Any]
    ) {
        let database = try Database(url: url, mode: .readOnlyUntouched)
        defer { try? database.close() }
        var objects: [String: SchemaObject] = [:]
        for row in try database.fetchAll(sql: "SELECT type, name, tbl_name, sql FROM sqlite_master")
        {
            objects[try row.decode(String.self, at: 1)] = SchemaObject(
                type: try row.decode(String.self, at: 0), table: try row.decode(String.self, at: 2),
                sql: try row.decode(String?.self, at: 3))
        }
        let plist = try database.fetchOne(sql: "SELECT Z_PLIST FROM Z_METADATA LIMIT 1")?
            .decode(Data?.self, at: 0)
        let metadata =
            try plist.flatMap {
                try PropertyListSerialization.propertyList(from: $0, format: nil) as? [String: Any]
            } ?? [:]
        return (objects, metadata)
    }

    /// The keys Core Data itself writes (apps add their own beside them).
    static func coreDataKeys(_ metadata: [String: Any]) -> Set<String> {
        Set(metadata.keys.filter { $0.hasPrefix("NS") || $0.hasPrefix("_NS") })
    }

    /// Persistent history (an option of the app's store, not part of its model): knowledgeC's
    /// tables and indexes for it, and the key naming its ancillary model.
    static let historyTables: Set<String> = ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"]
    static let historyKeys: Set<String> = ["_NSStoreAncillaryModelVersionHashesMetadataKey"]

    /// Creates a store for the model cached in the corpus store `url`, claiming the same
    /// framework version, and compares the two schemas and metadata key sets; `false` when
    /// `url` has no cache or is older than `minimumVersion`.
    static func compareWithFreshStore(_ url: URL, minimumVersion: Int) throws -> Bool {
        guard let original = try? schema(at: url),
            let version = original.metadata["NSPersistenceFrameworkVersion"] as? Int,
            version >= minimumVersion,
            let model = try StoreCoordinator.cachedModel(ofStoreAt: url)
        else { return false }
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let created = folder.appendingPathComponent(url.lastPathComponent)
        var options = StoreOptions()
        options.frameworkVersion = version
        try StoreCoordinator(model: model).addStore(type: .sqlite, at: created, options: options)
        let fresh = try schema(at: created)
        let store = "\(url.lastPathComponent) (fw \(version))"
        let expected = original.objects.filter { !historyTables.contains($0.value.table) }
        #expect(
            Set(fresh.objects.keys) == Set(expected.keys),
            "\(store): missing \(Set(expected.keys).subtracting(fresh.objects.keys).sorted()), extra \(Set(fresh.objects.keys).subtracting(expected.keys).sorted())"
        )
        for (name, object) in expected {
            guard let made = fresh.objects[name] else { continue }
            #expect(
                made == object, "\(store): \(name)\n  Core Data: \(object)\n  created:   \(made)")
        }
        #expect(
            coreDataKeys(fresh.metadata)
                == coreDataKeys(original.metadata).subtracting(historyKeys),
            "\(store): metadata keys")
        #expect(fresh.metadata["NSPersistenceFrameworkVersion"] as? Int == version)
        return true
    }

    @Test("a store created for a recovered model has Core Data's schema and metadata keys")
    func createdSchemaEqualsCoreDatas() throws {
        let compared = try ModelCacheCorpusTests.storeFiles().filter {
            try Self.compareWithFreshStore($0, minimumVersion: 1000)
        }
        // AppCoda's preload store (fw 1044) and iOS DataUsage (fw 1145).
        #expect(compared.count >= 2)
    }

    @Test("so does a store created for an older Core Data's model, in that version's style")
    func olderSchemasToo() throws {
        let compared = try ModelCacheCorpusTests.storeFiles().filter {
            try Self.compareWithFreshStore($0, minimumVersion: 0)
        }
        // Also BNR's TestModel (637), EasyLife (754, 849), knowledgeC (851), Accounts3 (977).
        #expect(compared.count >= 8)
    }
}
