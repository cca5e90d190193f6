import Foundation
import Testing

@testable import ObjectGraph

@Suite("Changed-object set")
struct ChangedObjectsTests {
    @Test("keeps first-change order, ignores repeats, and survives removals and squeezing")
    func orderAndRemoval() throws {
        let context = try TestModels.context()
        let team = try context.coordinator.schema.requireEntity(named: "Team")
        let objects = (1...200).map { key in
            ManagedObject(
                ObjectCreation(
                    schema: team,
                    id: ObjectID(
                        entityName: "Team", storeIdentifier: "S", key: .permanent(Int64(key))),
                    context: context, isFault: true))
        }
        var set = ChangedObjects()
        for object in objects { set.insert(object) }
        for object in objects.prefix(10) { set.insert(object) }  // repeats change nothing
        #expect(set.count == 200)
        #expect(set.values.map(ObjectIdentifier.init) == objects.map(ObjectIdentifier.init))

        // Removing most of them squeezes the holes out; order and membership hold.
        for (index, object) in objects.enumerated() where index % 4 != 0 { set.remove(object) }
        let kept = objects.enumerated().filter { $0.offset % 4 == 0 }.map(\.element)
        #expect(set.count == kept.count)
        #expect(set.values.map(ObjectIdentifier.init) == kept.map(ObjectIdentifier.init))
        set.remove(objects[1])  // not in the set: nothing happens
        #expect(set.count == kept.count)

        // Removed objects can come back, at the end.
        set.insert(objects[1])
        #expect(set.values.map(ObjectIdentifier.init).last == ObjectIdentifier(objects[1]))
        set.removeAll()
        #expect(set.isEmpty && Array(set.values).isEmpty)
        set.insert(objects[2])
        #expect(set.count == 1)
    }
}
