import Foundation
import KeyedArchive
import ObjectGraph
import SQLiteDatabase
import Testing

/// Every `NSKeyedArchiver` archive the corpus stores hold in their columns (Accounts3's
/// Transformable attributes: strings, numbers, Booleans, dates, arrays, dictionaries, sets and
/// mutable data, nested) decodes, and encodes again byte for byte; through the object API, a
/// value read from an iOS store and saved again is the same bytes in the store.
@Suite("Archived values of the corpus stores", .enabled(if: TestSupport.hasCorpus))
struct ArchivedValueCorpusTests {
    /// Every keyed archive in a column of a corpus store (metadata and model cache left out).
    static func archives() throws -> [(place: String, bytes: Data)] {
        var result: [(place: String, bytes: Data)] = []
        for url in ModelCacheCorpusTests.storeFiles() {
            let folder = try TestSupport.makeTemporaryFolder()
            defer { TestSupport.removeTemporaryFolder(folder) }
            let copy = try CorpusStoreTests.copy(url, to: folder)
            let database = try Database(url: copy, mode: .readOnly)
            let tables = try database.fetchAll(
                sql: "SELECT name FROM sqlite_master WHERE type = 'table'"
            ).map { try $0.decode(String.self, at: 0) }
            for table in tables where !["Z_METADATA", "Z_MODELCACHE"].contains(table) {
                for column in try database.columnNames(inTable: table) {
                    let name = "\"\(column)\""
                    let sql =
                        "SELECT \(name) FROM \"\(table)\" WHERE typeof(\(name)) = 'blob'"
                        + " AND substr(\(name), 1, 8) = X'62706C6973743030'"
                    try database.forEachRow(sql: sql) { row in
                        let bytes = try row.decode(Data.self, at: 0)
                        guard (try? KeyedArchive(data: bytes)) != nil else { return }
                        result.append(("\(url.lastPathComponent) \(table).\(column)", bytes))
                    }
                }
            }
        }
        return result
    }

    @Test("every archive decodes and encodes again byte for byte")
    func everyArchiveRoundTrips() throws {
        let archives = try Self.archives()
        // Accounts3 holds 187 (ZACCOUNTPROPERTY.ZVALUE, ZDATACLASS.ZNAME,
        // ZACCOUNT.ZDATACLASSPROPERTIES).
        #expect(archives.count >= 187)
        var sameWithoutSource = 0
        for (place, bytes) in archives {
            let value = try FoundationArchive.decode(bytes)
            #expect(try FoundationArchive.encode(value, like: bytes) == bytes, "\(place): \(value)")
            let fresh = try FoundationArchive.encode(value)
            #expect(try FoundationArchive.decode(fresh) == value, "\(place)")
            if fresh == bytes { sameWithoutSource += 1 }
        }
        // Written without its source, a value loses only what the value does not hold (mutable
        // class names, which objects the app shared): 165 of the 187 are still identical.
        #expect(sameWithoutSource >= 160)
    }

    @Test("a value read from Accounts3 and saved again is the same bytes in the store")
    func savedAgainThroughTheStore() throws {
        let corpus = try #require(TestSupport.corpus)
        let source = corpus.appendingPathComponent(
            "coredata-stores/09-plaso-ios-accounts3/Accounts3.sqlite")
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let copy = try CorpusStoreTests.copy(source, to: folder)
        let model = try #require(try StoreCoordinator.cachedModel(ofStoreAt: copy))
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(type: .sqlite, at: copy)
        let context = ManagedContext(coordinator: coordinator)
        var checked = 0
        var changed: (object: ManagedObject, key: String, original: Data)?
        for entity in model.entities where !entity.isAbstract {
            let keys = entity.attributes.filter { $0.type == .transformable }.map(\.name)
            guard !keys.isEmpty else { continue }
            for object in try context.fetch(FetchRequest(entityName: entity.name)) {
                for key in keys {
                    guard case .data(let original) = try object.value(for: key),
                        let value = try? object.archivedValue(for: key)
                    else { continue }
                    try object.setArchivedValue(value, for: key)
                    #expect(try object.value(for: key) == .data(original), "\(entity.name).\(key)")
                    checked += 1
                    // Changed and changed back, a value keeps no trace of its first layout,
                    // so the round trip is byte-exact for values whose layout follows from the
                    // value alone (165 of the 187; which one comes first depends on fetch order).
                    if changed == nil, case .dictionary = value,
                        try FoundationArchive.encode(value) == original
                    {
                        changed = (object, key, original)
                    }
                }
            }
        }
        #expect(checked >= 187)
        // Change a dictionary and save; then put the value read back and save again.
        let (object, key, original) = try #require(changed)
        let value = try #require(try object.archivedValue(for: key))
        try object.setArchivedValue(.array([value, .string("added")]), for: key)
        try context.save()
        try object.setArchivedValue(value, for: key)
        try context.save()
        let reader = StoreCoordinator(model: model)
        try reader.addStore(type: .sqlite, at: copy, options: StoreOptions(isReadOnly: true))
        let again = try ManagedContext(coordinator: reader).existingObject(with: object.objectID)
        #expect(try again.value(for: key) == .data(original))
    }
}
