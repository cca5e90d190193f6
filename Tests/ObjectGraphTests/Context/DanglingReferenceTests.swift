import Foundation
import Testing

@testable import ObjectGraph

/// A save whose objects still hold an insert discarded by `refresh(_:mergeChanges: false)`
/// fails, as in Core Data ("Dangling reference to an invalid object"), and writes nothing.
@Suite("Dangling references to discarded inserts")
struct DanglingReferenceTests {
    /// The problems of the save of `context`, which must fail with a validation error.
    static func failedSave(_ context: ManagedContext) throws -> [ValidationError.Problem] {
        do {
            try context.save()
        } catch SaveError.validation(let error) {
            return error.problems
        }
        Issue.record("the save did not fail")
        return []
    }

    @Test("a to-one relationship holding a refreshed-away insert fails the save")
    func toOne() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try RedTeamLeague.write(in: folder)
        let context = try SQLiteStoreTests.open(url)
        let ann = try RedTeamLeague.one(context, "Person", "Ann")
        let blue = try context.insert("Team")
        try blue.set("Blue", for: "name")
        try ann.setObject(blue, for: "team")
        try context.refresh(blue, mergeChanges: false)
        let problems = try Self.failedSave(context)
        #expect(problems.count == 1)
        let problem = try #require(problems.first)
        #expect(problem.objectID == ann.objectID && problem.entity == "Person")
        #expect(problem.property == "team" && problem.rule == .danglingReference)
        #expect(problem.value == .objectID(blue.objectID))
        #expect(problem.message.contains("Team") && problem.message.contains("dangling"))
        // Nothing was written: Ann is still on Red in the file, and there is no Blue.
        let reader = try SQLiteStoreTests.open(url)
        let stored = try RedTeamLeague.one(reader, "Person", "Ann")
        #expect(try stored.object(for: "team")?["name"] as String? == "Red")
        #expect(try reader.fetch(FetchRequest(entityName: "Team")).count == 1)
    }

    @Test("a to-many relationship holding a refreshed-away insert fails the save")
    func toMany() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try RedTeamLeague.write(in: folder)
        let context = try SQLiteStoreTests.open(url)
        let red = try RedTeamLeague.one(context, "Team", "Red")
        let cid = try context.insert("Person")
        try cid.set("Cid", for: "name")
        try red.add(cid, to: "members")
        try red.set("Crimson", for: "name")
        try context.refresh(cid, mergeChanges: false)
        let problems = try Self.failedSave(context)
        #expect(problems.map(\.rule) == [.danglingReference])
        #expect(problems.first?.objectID == red.objectID)
        #expect(problems.first?.property == "members")
        #expect(problems.first?.value == .objectID(cid.objectID))
        let reader = try SQLiteStoreTests.open(url)
        #expect(try RedTeamLeague.one(reader, "Team", "Red")["name"] as String? == "Red")
        #expect(try reader.fetch(FetchRequest(entityName: "Person")).count == 2)
    }
}
