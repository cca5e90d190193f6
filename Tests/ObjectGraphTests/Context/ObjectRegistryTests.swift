import Foundation
import Testing

@testable import ObjectGraph

@Suite("Object registry")
struct ObjectRegistryTests {
    /// Random inserts, replacements, lookups and removals agree with a dictionary, across
    /// growth, wrap-around and back-shifted deletions; IDs of two entities share keys.
    @Test("agrees with a dictionary over 40,000 random operations")
    func matchesDictionary() throws {
        let context = try TestModels.context()
        let entities = [
            try context.coordinator.schema.requireEntity(named: "Team"),
            try context.coordinator.schema.requireEntity(named: "Club"),
        ]
        var generator = SeededGenerator(seed: 42)
        var registry = ObjectRegistry()
        var model: [ObjectID: ManagedObject] = [:]
        func make(_ id: ObjectID, _ entity: EntitySchema) -> ManagedObject {
            ManagedObject(ObjectCreation(schema: entity, id: id, context: context, isFault: true))
        }
        for step in 0..<40_000 {
            let entity = entities[Int.random(in: 0...1, using: &generator)]
            let key: ObjectID.Key =
                Bool.random(using: &generator)
                ? .permanent(Int64.random(in: 1...3_000, using: &generator))
                : ObjectID.newTemporaryKey()
            let id = ObjectID(entityName: entity.name, storeIdentifier: "S", key: key)
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                let object = make(id, entity)
                registry[id] = object
                model[id] = object
            case 5..<8:
                // Remove something present, when there is something.
                if let victim = model.keys.randomElement(using: &generator) {
                    registry[victim] = nil
                    model[victim] = nil
                }
            default:
                #expect(registry[id] === model[id])
            }
            if step % 5_000 == 0 {
                #expect(registry.count == model.count)
                for (known, object) in model { #expect(registry[known] === object) }
            }
        }
        #expect(registry.count == model.count)
        #expect(
            Set(registry.values.map(ObjectIdentifier.init))
                == Set(model.values.map(ObjectIdentifier.init)))
        for (known, object) in model { #expect(registry[known] === object) }
        _ = registry.removeAll()
        #expect(registry.isEmpty && registry.values.isEmpty)
        #expect(
            registry[
                model.keys.first
                    ?? ObjectID(entityName: "Team", storeIdentifier: "S", key: .permanent(1))]
                == nil)
    }

    @Test("reserving capacity keeps every object")
    func reserve() throws {
        let context = try TestModels.context()
        let team = try context.coordinator.schema.requireEntity(named: "Team")
        var registry = ObjectRegistry()
        var objects: [ManagedObject] = []
        for key in 1...100 {
            let id = ObjectID(entityName: "Team", storeIdentifier: "S", key: .permanent(Int64(key)))
            let object = ManagedObject(
                ObjectCreation(schema: team, id: id, context: context, isFault: true))
            registry[id] = object
            objects.append(object)
        }
        registry.reserveKeys(1..<10_000, in: objects[0].objectID.space)
        #expect(registry.count == 100)
        for object in objects { #expect(registry[object.objectID] === object) }
    }

    @Test("stored keys fill key tables; far keys wait in the hash table and move in later")
    func keyTables() throws {
        let context = try TestModels.context()
        let team = try context.coordinator.schema.requireEntity(named: "Team")
        var registry = ObjectRegistry()
        var objects: [Int64: ManagedObject] = [:]
        func register(_ key: Int64) {
            let id = ObjectID(entityName: "Team", storeIdentifier: "S", key: .permanent(key))
            let object = ManagedObject(
                ObjectCreation(schema: team, id: id, context: context, isFault: true))
            #expect(registry.updateValue(object, forKey: id) == nil)
            objects[key] = object
        }
        // Far keys first: no table may grow that far for so few objects.
        for key: Int64 in [50_000, 5_000, 1_000_000_000] { register(key) }
        for key: Int64 in 1...6_000 where key != 5_000 { register(key) }
        #expect(registry.count == objects.count)
        for (key, object) in objects {
            let id = ObjectID(entityName: "Team", storeIdentifier: "S", key: .permanent(key))
            #expect(registry[id] === object)
        }
        // Replacing and removing, in the table and in the hash table.
        let far = ObjectID(entityName: "Team", storeIdentifier: "S", key: .permanent(50_000))
        registry[far] = nil
        let near = ObjectID(entityName: "Team", storeIdentifier: "S", key: .permanent(7))
        let replacement = ManagedObject(
            ObjectCreation(schema: team, id: near, context: context, isFault: true))
        #expect(registry.updateValue(replacement, forKey: near) === objects[7])
        registry[ObjectID(entityName: "Team", storeIdentifier: "S", key: .permanent(8))] = nil
        #expect(registry[far] == nil && registry[near] === replacement)
        #expect(registry.count == objects.count - 2)
        #expect(registry.values.count == registry.count)
        // The same keys in another store are other objects.
        let other = ObjectID(entityName: "Team", storeIdentifier: "T", key: .permanent(9))
        #expect(registry[other] == nil)
    }

    @Test("a key table made for a run of new keys takes over those already hashed")
    func reservedKeys() throws {
        let context = try TestModels.context()
        let team = try context.coordinator.schema.requireEntity(named: "Team")
        var registry = ObjectRegistry()
        func object(_ key: Int64) -> ManagedObject {
            let id = ObjectID(entityName: "Team", storeIdentifier: "S", key: .permanent(key))
            return ManagedObject(
                ObjectCreation(schema: team, id: id, context: context, isFault: true))
        }
        // Too far for a table of so few objects: hashed.
        let early = object(3_000)
        registry[early.objectID] = early
        registry.reserveKeys(1..<5_000, in: early.objectID.space)
        #expect(registry[early.objectID] === early)
        var made = [early]
        for key in Int64(1)..<5_000 where key != 3_000 {
            let next = object(key)
            #expect(registry.updateValue(next, forKey: next.objectID) == nil)
            made.append(next)
        }
        #expect(registry.count == made.count)
        for each in made { #expect(registry[each.objectID] === each) }
        // A run too sparse for its objects is not reserved, and nothing is lost.
        registry.reserveKeys(1_000_000..<1_000_002, in: early.objectID.space)
        let far = object(1_000_001)
        registry[far.objectID] = far
        #expect(registry[far.objectID] === far && registry.count == made.count + 1)
    }
}
