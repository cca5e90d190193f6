import Foundation
import Testing

@testable import ObjectGraph

@Suite("Entity version hashes")
struct VersionHashTests {
    /// The stores in the corpus whose model is named, with the hashes Apple stored in them.
    static func expectedStores() throws -> [(model: URL, hashes: [String: String])] {
        guard let corpus = TestSupport.corpus else { return [] }
        let file = corpus.appendingPathComponent("coredata-stores/expected-version-hashes.json")
        let data = try Data(contentsOf: file)
        let root = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let stores = try #require(root["stores"] as? [String: Any])
        var result: [(URL, [String: String])] = []
        for (_, value) in stores.sorted(by: { $0.key < $1.key }) {
            guard let store = value as? [String: Any], let model = store["model"] as? String,
                let hashes = store["versionHashes"] as? [String: String]
            else { continue }
            result.append((corpus.appendingPathComponent("coredata-stores/\(model)"), hashes))
        }
        return result
    }

    @Test(
        "hashes equal the ones Apple stored, for every store that names its model",
        .enabled(if: TestSupport.hasCorpus))
    func matchesApple() throws {
        let stores = try Self.expectedStores()
        #expect(!stores.isEmpty)
        for (modelURL, expected) in stores {
            let model = try EntityModel(contentsOf: modelURL)
            let computed = model.entityVersionHashes.mapValues { $0.base64EncodedString() }
            for (entity, hash) in expected {
                #expect(computed[entity] == hash, "\(modelURL.lastPathComponent): \(entity)")
            }
        }
    }
}
