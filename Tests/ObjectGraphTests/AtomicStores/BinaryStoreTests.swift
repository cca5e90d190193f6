import Foundation
import Testing

@testable import ObjectGraph

@Suite("Binary store")
struct BinaryStoreTests {
    @Test("every attribute type, nils, inheritance and every relationship kind survive a reopen")
    func roundTrip() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.objectgraph")
        let expected: [String: [String: String]]
        do {
            let context = try AtomicStoreTestSupport.open(.binary, at: url)
            try AtomicStoreTestSupport.populate(context, size: 120, seed: 1)
            expected = try AtomicStoreTestSupport.dump(context)
        }
        let context = try AtomicStoreTestSupport.open(.binary, at: url)
        let dump = try AtomicStoreTestSupport.dump(context)
        #expect(dump == expected)
        #expect(dump.keys.contains { $0.hasPrefix("Player/") })
        #expect(dump.values.contains { $0["roster"]?.contains(",") == true })
        #expect(
            dump.values.contains { $0["i16"] == "nil" }
                && dump.values.contains { $0["i16"] == "-7" })
        let store = try #require(context.coordinator.storeDescriptions.first)
        #expect(store.type == .binary)
        #expect(store.metadata.storeType == "Binary")
    }

    @Test("typed values come back exactly, and new keys continue after the saved ones")
    func exactValues() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("All.objectgraph")
        let uuid = UUID()
        let date = Date(timeIntervalSinceReferenceDate: -123_456.25)
        do {
            let context = try AtomicStoreTestSupport.open(.binary, at: url)
            let all = try context.insert("All")
            try all.set(Int64.min, for: "i64")
            try all.set(Decimal(string: "-1234567890.0987654321") ?? 0, for: "dec")
            try all.set(Double.infinity, for: "dbl")
            try all.set("", for: "str")
            try all.set(false, for: "flag")
            try all.set(date, for: "when")
            try all.set(Data(), for: "bytes")
            try all.set(uuid, for: "id")
            try context.save()
        }
        let context = try AtomicStoreTestSupport.open(.binary, at: url)
        let all = try #require(try context.fetch(FetchRequest(entityName: "All")).first)
        #expect(all["i64"] as Int64? == Int64.min)
        #expect(all["dec"] == .decimal(Decimal(string: "-1234567890.0987654321") ?? 0))
        #expect(all["dbl"] as Double? == .infinity)
        #expect(all["str"] as String? == "")
        #expect(all["flag"] as Bool? == false)
        #expect(all["when"] as Date? == date)
        #expect(all["bytes"] as Data? == Data())
        #expect(all["id"] as UUID? == uuid)
        #expect(all["i16"] == .null)
        try all.set(Decimal.nan, for: "dec")
        try context.save()
        let again = try AtomicStoreTestSupport.open(.binary, at: url)
        let reread = try #require(try again.fetch(FetchRequest(entityName: "All")).first)
        guard case .decimal(let number) = reread["dec"] else {
            Issue.record("expected a decimal, got \(reread["dec"])")
            return
        }
        #expect(number.isNaN)
        let second = try context.insert("All")
        try context.save()
        #expect(second.objectID.key == .permanent(2))
    }

    @Test("the file starts with the magic number and format version and ends with the trailer")
    func layout() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.objectgraph")
        let context = try AtomicStoreTestSupport.open(.binary, at: url)
        try AtomicStoreTestSupport.populate(context, size: 10, seed: 2)
        let bytes = [UInt8](try Data(contentsOf: url))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x4F, 0x47, 0x42, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(bytes[8] == 1 && bytes[9] == 0)
        #expect(String(decoding: bytes[16..<20], as: UTF8.self) == "META")
        #expect(
            String(decoding: bytes[(bytes.count - 16)..<(bytes.count - 8)], as: UTF8.self)
                == "OGB-END\n")
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test("a store written with another model is refused, naming the entities")
    func incompatible() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.objectgraph")
        _ = try AtomicStoreTestSupport.open(.binary, at: url, model: TestModels.league())
        var entities = TestModels.league().entities
        entities[0].attributes.append(Attribute("nickname", type: .string))
        #expect {
            _ = try AtomicStoreTestSupport.open(
                .binary, at: url, model: EntityModel(entities: entities))
        } throws: { error in
            guard case StoreError.incompatibleModel(let path, let compatibility) = error else {
                return false
            }
            return path == url.path && compatibility.changedEntities.contains("Person")
        }
    }

    @Test("two coordinators on one file: the second save fails with a conflict, nothing lost")
    func twoWriters() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.objectgraph")
        let first = try AtomicStoreTestSupport.open(.binary, at: url)
        let second = try AtomicStoreTestSupport.open(.binary, at: url)
        try first.insert("Team").set("Red", for: "name")
        try first.save()
        try second.insert("Team").set("Blue", for: "name")
        #expect {
            try second.save()
        } throws: { error in
            guard case StoreError.fileChanged(let path) = error else { return false }
            return path == url.path
        }
        let third = try AtomicStoreTestSupport.open(.binary, at: url)
        let names = try third.fetch(FetchRequest(entityName: "Team")).compactMap {
            $0["name"] as String?
        }
        #expect(names == ["Red"])
    }

    @Test("a read-only binary store is never written and refuses saves")
    func readOnly() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.objectgraph")
        do {
            let context = try AtomicStoreTestSupport.open(.binary, at: url)
            try context.insert("Team").set("Red", for: "name")
            try context.save()
        }
        let before = try Data(contentsOf: url)
        let context = try AtomicStoreTestSupport.open(
            .binary, at: url, options: StoreOptions(isReadOnly: true))
        let team = try #require(try context.fetch(FetchRequest(entityName: "Team")).first)
        try team.set("Blue", for: "name")
        #expect(throws: (any Error).self) { try context.save() }
        #expect(try Data(contentsOf: url) == before)
    }
}
