import Foundation
import ObjectGraph
import SQLiteDatabase
import Testing

/// The EasyLife app's model bundle (`../shared/corpus/coredata-stores/12-easylife-migration-fixtures`):
/// every older version infers to the current one, and each store's hashes find its version.
/// Skipped when the corpus is absent.
@Suite("Inferred mapping: the EasyLife bundle")
struct InferenceEasyLifeTests {
    static let fixtures = InferenceFixtures.corpus?
        .appendingPathComponent("coredata-stores/12-easylife-migration-fixtures")

    static func versions() throws -> (versions: [ModelVersion], current: ModelVersion)? {
        guard let folder = fixtures else { return nil }
        let bundle = try ModelBundle(
            contentsOf: folder.appendingPathComponent("EasyLife.xcdatamodeld"))
        let versions = try bundle.versionNames.map {
            ModelVersion(name: $0, model: try bundle.model(named: $0))
        }
        let current = try #require(versions.first { $0.name == bundle.currentVersionName })
        return (versions, current)
    }

    @Test("each older version infers to the current version")
    func olderVersionsInfer() throws {
        guard let (versions, current) = try Self.versions() else { return }
        #expect(versions.map(\.name) == ["EasyLife", "EasyLife 1.3.0", "EasyLife 1.5.0"])
        #expect(current.name == "EasyLife 1.5.0")
        let first = try MappingModel.inferred(from: versions[0], to: current)
        #expect(
            first.changeDescriptions == [
                "add entity Project",
                "TodoItem: add relationship blockedBy (to-many TodoItem)",
                "TodoItem: add relationship blocking (to-many TodoItem)",
                "TodoItem: add relationship project (to-one Project)",
            ])
        let second = try MappingModel.inferred(from: versions[1], to: current)
        #expect(
            second.changeDescriptions == [
                "TodoItem: add relationship blockedBy (to-many TodoItem)",
                "TodoItem: add relationship blocking (to-many TodoItem)",
            ])
        #expect(second.entityMapping(named: "ProjectToProject")?.kind == .copy)
        let steps = try MigrationPlanner.plan(
            from: versions[0], to: current, versions: versions, mappingModels: [],
            declaredSteps: [], infers: true)
        #expect(
            steps.map(\.label) == [
                "EasyLife → EasyLife 1.3.0 (inferred)",
                "EasyLife 1.3.0 → EasyLife 1.5.0 (inferred)",
            ])
    }

    /// The 1.5.0 store's hashes are the 1.5.0 model's; the two older stores were written with
    /// models whose hashes none of the bundle's versions reproduces (the corpus notes say so
    /// too: only their `Z_MODELCACHE` matches them), so they need the store-carried model hook.
    @Test("the 1.5.0 store finds its version; the older stores name the entities that differ")
    func storesFindTheirVersion() throws {
        guard let (versions, _) = try Self.versions(), let folder = Self.fixtures else { return }
        let scratch = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(scratch) }
        for file in ["EasyLife.sqlite", "EasyLife 1.3.0.sqlite", "EasyLife 1.5.0.sqlite"] {
            let copy = scratch.appendingPathComponent(file)
            try FileManager.default.copyItem(at: folder.appendingPathComponent(file), to: copy)
            let hashes = try Self.storeHashes(at: copy)
            #expect(Set(hashes.keys) == ["Project", "TodoItem"])
            do {
                let found = try MigrationPlanner.sourceVersion(
                    for: hashes, among: versions, store: file)
                #expect(
                    file == "EasyLife 1.5.0.sqlite" && found.name == "EasyLife 1.5.0", "\(file)")
            } catch {
                #expect(file != "EasyLife 1.5.0.sqlite")
                guard case .noSourceModel(let store, let entities) = error else {
                    Issue.record("unexpected \(error)")
                    continue
                }
                #expect(store == file)
                #expect(!entities.isEmpty && Set(entities).isSubset(of: ["Project", "TodoItem"]))
            }
        }
    }

    /// `NSStoreModelVersionHashes` of an SQLite store, read from its `Z_METADATA`.
    static func storeHashes(at url: URL) throws -> [String: Data] {
        let database = try Database(path: url.path)
        defer { try? database.close() }
        let row = try #require(try database.fetchOne(sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA"))
        guard case .blob(let plist)? = row[1], case .text(let uuid)? = row[0] else {
            Issue.record("Z_METADATA holds no property list")
            return [:]
        }
        return try StoreMetadata(storeUUID: uuid, propertyList: plist).versionHashes
    }
}
