import Foundation
import Testing

@testable import ObjectGraph

@Suite("XML store key space")
struct XMLKeySpaceTests {
    @Test("new objects of different entities get different keys (ids are unique in a file)")
    func uniqueKeys() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("League.xml")
        let coordinator = StoreCoordinator(model: TestModels.league())
        try coordinator.addStore(type: .xml, at: url)
        let context = ManagedContext(coordinator: coordinator)
        let team = try context.insert("Team")
        let person = try context.insert("Person")
        try person.set("P", for: "name")
        try context.save()
        let keys = [team, person].compactMap { object -> Int64? in
            if case .permanent(let key) = object.objectID.key { return key }
            return nil
        }
        #expect(keys.count == 2 && Set(keys).count == 2)
        let reopened = StoreCoordinator(model: TestModels.league())
        try reopened.addStore(type: .xml, at: url)
        let again = ManagedContext(coordinator: reopened)
        let more = try again.insert("Team")
        try again.save()
        if case .permanent(let key) = more.objectID.key { #expect(!keys.contains(key)) }
    }
}
