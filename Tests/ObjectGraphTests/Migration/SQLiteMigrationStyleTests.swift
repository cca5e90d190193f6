import Foundation
import SQLiteDatabase
import Testing

@testable import ObjectGraph

/// A store written in an older Core Data's DDL and migrated claims the framework version whose
/// DDL the migration wrote, so its metadata and its index names agree.
@Suite("SQLite migration: the DDL style and the metadata agree")
struct SQLiteMigrationStyleTests {
    typealias Support = SQLiteMigrationSupport

    static func model(indexed: Bool) -> EntityModel {
        var note = Entity("Note")
        note.attributes = [Attribute("title", type: .string), Attribute("tag", type: .string)]
        if indexed { note.uniquenessConstraints = [["tag"]] }
        return EntityModel(entities: [note])
    }

    @Test("a framework-851 store migrated to a model with a constraint claims the default version")
    func migratedOldStoreClaimsTheNewStyle() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("Old.sqlite")
        let source = Self.model(indexed: false)
        let destination = Self.model(indexed: true)
        do {
            let coordinator = StoreCoordinator(model: source)
            var options = StoreOptions()
            options.frameworkVersion = 851
            try coordinator.addStore(type: .sqlite, at: url, options: options)
            let context = ManagedContext(coordinator: coordinator)
            try context.insert("Note").set("a", for: "tag")
            try context.save()
        }
        #expect(
            try StoreMetadataProbe.metadata(ofStoreAt: url, type: .sqlite)?.frameworkVersion == 851)
        let mapping = try Support.inferred(from: source, to: destination)
        try SQLiteStore.migrate(at: url, steps: [Support.step(source, destination, mapping)])

        #expect(
            try StoreMetadataProbe.metadata(ofStoreAt: url, type: .sqlite)?.frameworkVersion
                == StoreMetadata.defaultFrameworkVersion)
        // The unique index the migration made is named as a fresh store of that version names it.
        let fresh = folder.appendingPathComponent("Fresh.sqlite")
        _ = try Support.open(fresh, destination)
        let indexes = { (file: URL) in try Support.schema(of: file).filter { $0.hasPrefix("index") }
        }
        #expect(try indexes(url) == indexes(fresh))
        #expect(try indexes(url).contains { $0.contains("Z_Note_UNIQUE_tag") })
    }
}
