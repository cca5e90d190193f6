import Foundation
import Testing

@testable import ObjectGraph

@Suite("Store metadata")
struct StoreMetadataTests {
    static func school() throws -> EntityModel {
        try EntityModel(
            contentsOf: TestSupport.models.appendingPathComponent("School.xcdatamodeld"))
    }

    @Test("a new store's metadata carries the model's hashes and Core Data's keys")
    func fromModel() throws {
        let model = try Self.school()
        let metadata = StoreMetadata(
            model: model, storeUUID: "B42B42E1-59B1-4B3C-8988-FE5D4E4F5395")
        #expect(metadata.storeType == "SQLite")
        #expect(metadata.frameworkVersion == StoreMetadata.defaultFrameworkVersion)
        #expect(metadata.versionHashes == model.entityVersionHashes)
        #expect(metadata.versionHashesVersion == 3)
        #expect(metadata.versionIdentifiers == [""])
        #expect(metadata.versionHashesDigest == model.versionHashesDigest)
        #expect(metadata.autoVacuumLevel == "2")
        #expect(metadata.compatibility(with: model).isCompatible)
        #expect(UUID(uuidString: StoreMetadata(model: model).storeUUID) != nil)
    }

    @Test("metadata survives a binary property list round trip, extra keys included")
    func roundTrip() throws {
        var metadata = StoreMetadata(model: try Self.school(), storeUUID: "u")
        metadata.additionalEntries = [
            "BuildNumber": 42, "Owner": "Ada", "Ratio": .real(0.5), "Flag": .bool(true),
            "Zero": .bool(false), "One": .integer(1),
            "When": .date(Date(timeIntervalSinceReferenceDate: 1000)),
            "Blob": .data(Data([0, 1, 2])),
            "Nested": .dictionary(["list": .array(["a", 2, .bool(false)])]),
        ]
        let data = try metadata.propertyListData()
        #expect(data.starts(with: Array("bplist00".utf8)))
        let read = try StoreMetadata(storeUUID: "u", propertyList: data)
        #expect(read == metadata)
        // The UUID is not part of the property list.
        let plist = try #require(
            try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(plist["NSStoreUUID"] == nil)
        #expect(plist["NSStoreType"] as? String == "SQLite")
        #expect(plist["_NSAutoVacuumLevel"] as? String == "2")
        #expect((plist["NSStoreModelVersionHashes"] as? [String: Data])?.count == 7)
    }

    @Test("garbage is a typed error, never a trap")
    func garbage() throws {
        let inputs: [Data] = [
            Data(), Data("bplist00".utf8), Data("bplist00".utf8) + Data(repeating: 0xFF, count: 40),
            Data(repeating: 0, count: 64), Data("not a plist at all".utf8),
            try PropertyListSerialization.data(
                fromPropertyList: ["a", "b"], format: .binary, options: 0),
            try PropertyListSerialization.data(
                fromPropertyList: ["NSStoreModelVersionHashes": "nope"], format: .binary, options: 0
            ),
            try PropertyListSerialization.data(
                fromPropertyList: ["NSStoreModelVersionHashes": ["A": 3]], format: .binary,
                options: 0),
            try PropertyListSerialization.data(
                fromPropertyList: ["NSStoreModelVersionIdentifiers": [1]], format: .binary,
                options: 0),
            try PropertyListSerialization.data(
                fromPropertyList: ["NSPersistenceFrameworkVersion": Data()], format: .binary,
                options: 0),
        ]
        var valid = try StoreMetadata(model: try Self.school()).propertyListData()
        // Truncations of a real property list.
        let truncations = stride(from: 0, to: valid.count, by: 7).map { valid.prefix($0) }
        valid[valid.count - 3] ^= 0xFF
        for input in inputs + truncations + [valid] {
            do {
                _ = try StoreMetadata(storeUUID: "x", propertyList: Data(input))
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
        do {
            _ = try StoreMetadata(storeUUID: "x", propertyList: inputs[6])
            Issue.record("a string of hashes was accepted")
        } catch {
            #expect(error.kind == .wrongType)
            #expect(error.key == "NSStoreModelVersionHashes")
        }
        #expect(throws: StoreMetadataError.self) {
            try StoreMetadata(storeUUID: "x", propertyList: inputs[5])
        }
        #expect(throws: StoreMetadataError.self) {
            try StoreMetadata(storeUUID: "x", propertyList: Data("garbage".utf8))
        }
    }

    @Test("the compatibility check names changed, missing and extra entities")
    func compatibility() throws {
        let model = try Self.school()
        var hashes = model.entityVersionHashes
        hashes["Course"] = Data(repeating: 0, count: 32)
        hashes["Lesson"] = nil
        hashes["Pet"] = Data(repeating: 1, count: 32)
        let metadata = StoreMetadata(storeUUID: "x", versionHashes: hashes)
        let check = metadata.compatibility(with: model)
        #expect(!check.isCompatible)
        #expect(check.changedEntities == ["Course"])
        #expect(check.entitiesMissingInStore == ["Lesson"])
        #expect(check.entitiesMissingInModel == ["Pet"])
        #expect(
            check.description
                == "the store does not match the model: changed Course; not in the store: Lesson; not in the model: Pet"
        )
    }
}
