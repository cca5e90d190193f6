import Foundation
import ObjectGraph
import SQLiteDatabase
import Testing

/// Every corpus store with a `Z_MODELCACHE`: the decoded model's version hashes are the ones
/// Core Data wrote in the store's metadata, and the model validates. Skips when the corpus is
/// absent.
struct ModelCacheCorpusTests {
    /// The SQLite store files of the corpus (companions and model folders left out).
    static func storeFiles() -> [URL] {
        guard let corpus = InferenceFixtures.corpus else { return [] }
        let folder = corpus.appendingPathComponent("coredata-stores")
        guard
            let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        else { return [] }
        var result: [URL] = []
        for case let url as URL in walker {
            let name = url.lastPathComponent
            if name.hasPrefix(".xc") || url.pathExtension.hasPrefix("xc") {
                walker.skipDescendants()
                continue
            }
            guard ["sqlite", "db", "storedata"].contains(url.pathExtension) else { continue }
            result.append(url)
        }
        return result.sorted { $0.path < $1.path }
    }

    static func storedHashes(_ url: URL) throws -> [String: Data] {
        let database = try Database(url: url, mode: .readOnlyUntouched)
        let row = try database.fetchOne(sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA LIMIT 1")
        let plist = try row?.decode(Data?.self, at: 1) ?? nil
        return try StoreMetadata(storeUUID: "", propertyList: plist ?? Data()).versionHashes
    }

    @Test func decodedHashesEqualTheStoredOnes() throws {
        let stores = Self.storeFiles()
        guard !stores.isEmpty else { return }
        var checked = 0
        var entities = 0
        for url in stores {
            guard let model = try StoreCoordinator.cachedModel(ofStoreAt: url) else { continue }
            let stored = try Self.storedHashes(url)
            let decoded = model.entityVersionHashes
            #expect(Set(decoded.keys) == Set(stored.keys), "\(url.lastPathComponent)")
            for (name, hash) in stored {
                #expect(decoded[name] == hash, "\(url.lastPathComponent): entity \(name)")
            }
            let errors = model.validate().filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(url.lastPathComponent): \(errors)")
            checked += 1
            entities += stored.count
        }
        // The corpus's eight stores with a cache (knowledgeC's among them) hold 40 entities.
        #expect(checked >= 8)
        #expect(entities >= 40)
    }

    @Test func everyRelationshipHasItsInverseBack() throws {
        for url in Self.storeFiles() {
            guard let model = try StoreCoordinator.cachedModel(ofStoreAt: url) else { continue }
            for entity in model.entities {
                for relationship in entity.relationships {
                    #expect(model.entity(named: relationship.destinationEntityName) != nil)
                    guard let inverse = relationship.inverseName else { continue }
                    let destination = model.lineageProperties(relationship.destinationEntityName)
                    #expect(destination.contains(inverse), "\(entity.name).\(relationship.name)")
                }
            }
        }
    }
}

extension EntityModel {
    /// The relationship names `name` and its ancestors declare.
    fileprivate func lineageProperties(_ name: String) -> Set<String> {
        guard let entity = entity(named: name) else { return [] }
        return Set(lineage(of: entity).flatMap { $0.relationships.map(\.name) })
    }
}
