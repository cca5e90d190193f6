import Foundation
import Testing

@testable import ObjectGraph

@Suite("Several stores and optimistic locking")
struct StoreRoutingTests {
    /// A coordinator with the `Left` and `Right` configurations each in its own store.
    private func twoStores(rightReadOnly: Bool = false) throws -> (
        StoreCoordinator, left: StoreDescription, right: StoreDescription
    ) {
        let coordinator = StoreCoordinator(model: GraphTestModels.twoStores())
        let left = try coordinator.addStore(type: .inMemory, configuration: "Left")
        let right = try coordinator.addStore(
            type: .inMemory, configuration: "Right",
            options: StoreOptions(isReadOnly: rightReadOnly))
        return (coordinator, left, right)
    }

    @Test("store descriptions carry their metadata")
    func metadata() throws {
        let (coordinator, left, right) = try twoStores()
        #expect(left.identifier != right.identifier)
        #expect(left.type == .inMemory && left.metadata.storeType == StoreType.inMemory.rawValue)
        #expect(left.configurationName == "Left")
        #expect(Set(left.metadata.versionHashes.keys) == ["Cat", "Dog", "Bone"])
        #expect(
            coordinator.storeDescriptions.map(\.identifier) == [left.identifier, right.identifier])
        #expect(throws: ObjectGraphError.self) {
            try coordinator.addStore(type: .inMemory, configuration: "Nope")
        }
        #expect(throws: ObjectGraphError.self) { try coordinator.addStore(type: .sqlite) }
    }

    @Test("objects land in the store of their entity's configuration")
    func routing() throws {
        let (coordinator, left, right) = try twoStores()
        let context = ManagedContext(coordinator: coordinator)
        let cat = try GraphTestModels.make(context, "Cat", "tom")
        let dog = try GraphTestModels.make(context, "Dog", "rex")
        let bone = try GraphTestModels.make(context, "Bone", "b")
        try dog.add(bone, to: "bones")
        try context.save()
        #expect(cat.objectID.storeIdentifier == left.identifier)
        #expect(dog.objectID.storeIdentifier == right.identifier)
        #expect(bone.objectID.storeIdentifier == right.identifier)
        let other = ManagedContext(coordinator: coordinator)
        #expect(try other.existingObject(with: cat.objectID)["name"] as String? == "tom")
        let dogCopy = try other.existingObject(with: dog.objectID)
        #expect(try sortedNames(dogCopy, "bones") == ["b"])
        #expect(try coordinator.objectID(forURI: cat.objectID.uriRepresentation) == cat.objectID)
        #expect(try coordinator.objectID(forURI: dog.objectID.uriRepresentation) == dog.objectID)
        let moved = ObjectID(
            entityName: "Cat", storeIdentifier: right.identifier, key: cat.objectID.key)
        #expect(throws: ObjectGraphError.self) { try other.existingObject(with: moved) }
    }

    @Test("obtainPermanentIDs routes by configuration too")
    func permanentIDsRouted() throws {
        let (coordinator, left, right) = try twoStores()
        let context = ManagedContext(coordinator: coordinator)
        let cat = try context.insert("Cat")
        let dog = try context.insert("Dog")
        try context.obtainPermanentIDs(for: [cat, dog])
        #expect(cat.objectID.storeIdentifier == left.identifier)
        #expect(dog.objectID.storeIdentifier == right.identifier)
    }

    @Test("an entity no store holds makes the save fail and nothing is written")
    func noStore() throws {
        let coordinator = StoreCoordinator(model: GraphTestModels.twoStores())
        let left = try coordinator.addStore(type: .inMemory, configuration: "Left")
        let context = ManagedContext(coordinator: coordinator)
        let cat = try GraphTestModels.make(context, "Cat", "tom")
        _ = try GraphTestModels.make(context, "Dog", "rex")
        #expect(throws: ObjectGraphError.noStore(entity: "Dog")) { try context.save() }
        #expect(cat.isInserted && context.hasChanges)
        let other = ManagedContext(coordinator: coordinator)
        let stored = ObjectID(
            entityName: "Cat", storeIdentifier: left.identifier, key: .permanent(1))
        #expect(throws: ObjectGraphError.self) { try other.existingObject(with: stored) }
        try coordinator.addStore(type: .inMemory, configuration: "Right")
        try context.save()
        #expect(!context.hasChanges)
    }

    @Test("a save spanning a writable and a read-only store writes nothing")
    func readOnlySpanning() throws {
        let (coordinator, _, _) = try twoStores(rightReadOnly: true)
        let context = ManagedContext(coordinator: coordinator)
        let cat = try GraphTestModels.make(context, "Cat", "tom")
        _ = try GraphTestModels.make(context, "Dog", "rex")
        #expect(throws: SaveError.self) { try context.save() }
        let other = ManagedContext(coordinator: coordinator)
        #expect(throws: ObjectGraphError.self) { try other.existingObject(with: cat.objectID) }
        #expect(cat.isInserted)
    }

    @Test("a read-only store alone refuses saves")
    func readOnly() throws {
        let coordinator = StoreCoordinator(model: GraphTestModels.twoStores())
        let store = try coordinator.addStore(options: StoreOptions(isReadOnly: true))
        #expect(store.isReadOnly)
        let context = ManagedContext(coordinator: coordinator)
        _ = try GraphTestModels.make(context, "Cat", "tom")
        #expect(throws: SaveError.self) { try context.save() }
        #expect(context.hasChanges)
    }

    @Test("two contexts edit one object: the second save throws conflicts with both versions")
    func optimisticLocking() throws {
        let first = try GraphTestModels.context(GraphTestModels.twoStores())
        let cat = try GraphTestModels.make(first, "Cat", "tom")
        try first.save()
        let second = GraphTestModels.peer(of: first)
        let copy = try second.existingObject(with: cat.objectID)
        try cat.set("first", for: "name")
        try first.save()
        try copy.set("second", for: "name")
        let extra = try GraphTestModels.make(second, "Cat", "extra")
        do {
            try second.save()
            Issue.record("expected a conflict")
        } catch SaveError.conflicts(let conflicts) {
            #expect(conflicts.count == 1)
            let conflict = try #require(conflicts.first)
            #expect(conflict.objectID == cat.objectID)
            #expect(conflict.expectedVersion == 1)
            #expect(conflict.storeVersion == 2)
            #expect(conflict.description.contains("version 1"))
        }
        #expect(copy.isUpdated && extra.isInserted)
        let check = GraphTestModels.peer(of: first)
        #expect(try check.existingObject(with: cat.objectID)["name"] as String? == "first")
        #expect(throws: ObjectGraphError.self) { try check.existingObject(with: extra.objectID) }
        try second.refresh(copy, mergeChanges: true)
        try second.save()
        let after = GraphTestModels.peer(of: first)
        #expect(try after.existingObject(with: cat.objectID)["name"] as String? == "second")
        #expect(try after.existingObject(with: extra.objectID)["name"] as String? == "extra")
    }

    @Test("editing an object someone else deleted conflicts with store version 0")
    func deletedElsewhere() throws {
        let first = try GraphTestModels.context(GraphTestModels.twoStores())
        let cat = try GraphTestModels.make(first, "Cat", "tom")
        try first.save()
        let second = GraphTestModels.peer(of: first)
        let copy = try second.existingObject(with: cat.objectID)
        first.delete(cat)
        try first.save()
        try copy.set("again", for: "name")
        #expect(throws: SaveError.self) { try second.save() }
        do {
            try second.save()
        } catch SaveError.conflicts(let conflicts) {
            #expect(conflicts.map(\.storeVersion) == [0])
            #expect(conflicts.first?.description.contains("deleted") == true)
        }
    }

    @Test("a relationship change made elsewhere conflicts with a local edit of the owner")
    func relationshipConflict() throws {
        let first = try GraphTestModels.context(GraphTestModels.twoStores())
        let dog = try GraphTestModels.make(first, "Dog", "rex")
        try first.save()
        let second = GraphTestModels.peer(of: first)
        let copy = try second.existingObject(with: dog.objectID)
        try dog.add(try GraphTestModels.make(first, "Bone", "b"), to: "bones")
        try first.save()
        try copy.set("renamed", for: "name")
        do {
            try second.save()
            Issue.record("expected a conflict")
        } catch SaveError.conflicts(let conflicts) {
            #expect(conflicts.map(\.objectID) == [dog.objectID])
        }
        try second.refresh(copy, mergeChanges: true)
        #expect(try sortedNames(copy, "bones") == ["b"])
        try second.save()
    }

    @Test("contexts on several threads share one coordinator safely")
    func concurrentContexts() async throws {
        let coordinator = StoreCoordinator(model: GraphTestModels.twoStores())
        try coordinator.addStore(type: .inMemory)
        let ids = try await withThrowingTaskGroup(of: [ObjectID].self) { group in
            for worker in 0..<4 {
                group.addTask {
                    let context = ManagedContext(coordinator: coordinator)
                    var objects: [ManagedObject] = []
                    for index in 0..<20 {
                        objects.append(
                            try GraphTestModels.make(context, "Cat", "w\(worker)-\(index)"))
                        if index % 5 == 4 { try context.save() }
                    }
                    return objects.map(\.objectID)
                }
            }
            var all: [ObjectID] = []
            for try await part in group { all += part }
            return all
        }
        #expect(Set(ids).count == 80)
        #expect(ids.allSatisfy { !$0.isTemporary })
        let check = ManagedContext(coordinator: coordinator)
        let loaded = try ids.map { try check.existingObject(with: $0)["name"] as String? ?? "" }
        #expect(Set(loaded).count == 80)
    }

    @Test("successive saves of one context never conflict with themselves")
    func noSelfConflict() throws {
        let context = try GraphTestModels.context(GraphTestModels.twoStores())
        let cat = try GraphTestModels.make(context, "Cat", "a")
        for name in ["b", "c", "d"] {
            try cat.set(name, for: "name")
            try context.save()
        }
        let other = GraphTestModels.peer(of: context)
        let copy = try other.existingObject(with: cat.objectID)
        try copy.set("e", for: "name")
        try other.save()
        #expect(
            try GraphTestModels.peer(of: context).existingObject(with: cat.objectID)["name"]
                as String? == "e")
    }
}
