import Foundation
import Testing

@testable import ObjectGraph

@Suite("Prefetched relationships keep their order (SQLite)")
struct PrefetchOrderTests {
    static let keyPaths = ["items", "steps", "tags"]

    /// Owners O0…O11 with items, ordered steps (inserted out of key order) and tags, plus
    /// items that belong to no owner.
    static func shapes(_ folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("Shapes.sqlite")
        let context = try SQLiteStoreTests.open(url, model: GraphTestModels.shapes())
        let tags = try (0..<4).map { index in
            let tag = try context.insert("Tag")
            try tag.set("tag\(index)", for: "name")
            return tag
        }
        let owners = try (0..<12).map { index in
            let owner = try context.insert("Owner")
            try owner.set("O\(index)", for: "name")
            return owner
        }
        for round in 0..<3 {
            for (index, owner) in owners.enumerated().reversed() {
                let item = try context.insert("Item")
                try item.set("item\(index)-\(round)", for: "name")
                try owner.add(item, to: "items")
                if round < 2 {
                    let step = try context.insert("Step")
                    try step.set("step\(index)-\(round)", for: "name")
                    try owner.add(step, to: "steps", at: 0)
                }
                if (index + round) % 2 == 0 { try owner.add(tags[round], to: "tags") }
            }
            let loose = try context.insert("Item")
            try loose.set("loose\(round)", for: "name")
        }
        try context.save()
        return url
    }

    /// Per owner name, per key path: the names of the related objects, in order (tags, an
    /// unordered relationship, sorted).
    static func related(_ owners: [ManagedObject]) throws -> [String: [String: [String]]] {
        var result: [String: [String: [String]]] = [:]
        for owner in owners {
            let name: String = owner["name"] ?? "?"
            for keyPath in keyPaths {
                let names = try owner.objects(for: keyPath).map { $0["name"] as String? ?? "?" }
                result[name, default: [:]][keyPath] = keyPath == "tags" ? names.sorted() : names
            }
        }
        return result
    }

    @Test("prefetching all owners (one pass over each table) gives what faulting gives")
    func allOwners() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.shapes(folder)
        let coordinator = StoreCoordinator(model: GraphTestModels.shapes())
        try coordinator.addStore(type: .sqlite, at: url)
        let faulting = ManagedContext(coordinator: coordinator)
        let expected = try Self.related(try faulting.fetch(FetchRequest(entityName: "Owner")))
        #expect(expected["O3"]?["steps"] == ["step3-1", "step3-0"])
        #expect(expected["O3"]?["items"]?.count == 3)

        let prefetching = ManagedContext(coordinator: coordinator)
        var request = FetchRequest(entityName: "Owner")
        request.relationshipKeyPathsForPrefetching = Self.keyPaths
        let owners = try prefetching.fetch(request)
        #expect(owners.count == 12)
        #expect(
            owners.allSatisfy { owner in
                Self.keyPaths.allSatisfy { owner.objects(forPrefetched: $0) != nil }
            })
        #expect(try Self.related(owners) == expected)
    }

    @Test("prefetching a few owners (by key lists) gives what faulting gives")
    func fewOwners() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try Self.shapes(folder)
        let coordinator = StoreCoordinator(model: GraphTestModels.shapes())
        try coordinator.addStore(type: .sqlite, at: url)
        let predicate = try Predicate(format: "name == 'O5'")
        let faulting = ManagedContext(coordinator: coordinator)
        let expected = try Self.related(
            try faulting.fetch(FetchRequest(entityName: "Owner", predicate: predicate)))
        #expect(expected["O5"]?["steps"] == ["step5-1", "step5-0"])

        let prefetching = ManagedContext(coordinator: coordinator)
        var request = FetchRequest(entityName: "Owner", predicate: predicate)
        request.relationshipKeyPathsForPrefetching = Self.keyPaths
        let owners = try prefetching.fetch(request)
        #expect(owners.count == 1)
        #expect(try Self.related(owners) == expected)
        // The owner and its related objects, nothing else.
        let tags = expected["O5"]?["tags"]?.count ?? 0
        #expect(tags == 1)
        #expect(prefetching.registeredObjects.count == 1 + 3 + 2 + tags)
    }
}

extension ManagedObject {
    /// The objects of the to-many relationship `key` when they are loaded (not a fault).
    fileprivate func objects(forPrefetched key: String) -> [ManagedObject]? {
        guard let position = schema.positionByName[key], case .toMany(let objects) = slots[position]
        else { return nil }
        return objects
    }
}
