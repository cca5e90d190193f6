import Foundation
import Testing

@testable import ObjectGraph

/// A team recording its fault hooks and whether its name was there when each ran.
final class FaultWatchingTeam: ManagedObject {
    var events: [String] = []

    override func willTurnIntoFault() {
        events.append("will:\(slots[0])")
    }
    override func didTurnIntoFault() {
        events.append("did:\(slots[0])")
    }
}

/// Refreshing objects, turning them into faults, and reading relationships without loading
/// their objects.
@Suite("Refreshing and relationship faults")
struct RefreshTests {
    @Test("refreshAllObjects reads changed objects again keeping their changes; the rest fault")
    func refreshAll() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try RedTeamLeague.write(in: folder)
        let context = try SQLiteStoreTests.open(url)
        let ann = try RedTeamLeague.one(context, "Person", "Ann")
        let bob = try RedTeamLeague.one(context, "Person", "Bob")
        try ann.set("ann@example.com", for: "email")
        let added = try context.insert("Team")
        try added.set("Blue", for: "name")
        let other = try SQLiteStoreTests.open(url)
        try RedTeamLeague.one(other, "Person", "Ann").set(41, for: "age")
        try RedTeamLeague.one(other, "Person", "Bob").set(42, for: "age")
        try other.save()

        try context.refreshAllObjects()
        #expect(bob.isFault)
        #expect(!ann.isFault)
        #expect(ann["age"] as Int? == 41)
        #expect(ann["email"] as String? == "ann@example.com")
        #expect(bob["age"] as Int? == 42)
        #expect(!added.isFault && added["name"] as String? == "Blue")
        try context.save()
    }

    @Test("a refreshed object lets go of its values, with the fault hooks around it")
    func turningIntoFault() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try RedTeamLeague.write(in: folder)
        let classes = ManagedObjectClasses()
        classes.register(FaultWatchingTeam.self, forEntity: "Team")
        let context = try SQLiteStoreTests.open(url, classes: classes)
        let red = try #require(try RedTeamLeague.one(context, "Team", "Red") as? FaultWatchingTeam)
        let members = try red.objects(for: "members")
        #expect(members.count == 2)
        try context.refresh(red, mergeChanges: false)
        #expect(red.isFault)
        #expect(red.events.count == 2)
        #expect(red.events.first?.contains("Red") == true)
        #expect(red.events.last?.contains("Red") == false)
        let position = try red.schema.position(of: "members")
        guard case .toMany(let held) = red.slots[position], held.isEmpty else {
            Issue.record("the fault still holds its members: \(red.slots[position])")
            return
        }
        #expect(red["name"] as String? == "Red")
        #expect(try red.objects(for: "members").count == 2)
    }

    @Test("hasFault and objectIDs read relationships without loading their objects")
    func relationshipFaults() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(try RedTeamLeague.write(in: folder))
        let ann = try RedTeamLeague.one(context, "Person", "Ann")
        #expect(try ann.hasFault(forRelationshipNamed: "team"))
        let teamIDs = try ann.objectIDs(forRelationshipNamed: "team")
        #expect(teamIDs.count == 1)
        // Nothing was made for the team: the ID came from Ann's row.
        #expect(context.registeredObject(for: teamIDs[0]) == nil)
        let team = try context.object(with: teamIDs[0])
        #expect(team.isFault)
        #expect(try team.hasFault(forRelationshipNamed: "members"))
        let memberIDs = try team.objectIDs(forRelationshipNamed: "members")
        #expect(try team.hasFault(forRelationshipNamed: "members"))
        #expect(Set(memberIDs).count == 2 && memberIDs.contains(ann.objectID))
        let members = try team.objects(for: "members")
        #expect(try !team.hasFault(forRelationshipNamed: "members"))
        #expect(Set(members.map(\.objectID)) == Set(memberIDs))
        #expect(try ann.object(for: "team") === team)
        #expect(try !ann.hasFault(forRelationshipNamed: "team"))
        #expect(try ann.objectIDs(forRelationshipNamed: "spouse").isEmpty)
        #expect(throws: ObjectGraphError.self) { try ann.hasFault(forRelationshipNamed: "name") }
        #expect(throws: ObjectGraphError.self) { try ann.objectIDs(forRelationshipNamed: "x") }
    }

    @Test("refreshing with merging keeps transient values and awakens the object again")
    func mergingRefresh() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = try RedTeamLeague.write(in: folder)
        let classes = ManagedObjectClasses()
        classes.register(CountingPerson.self, forEntity: "Person")
        let context = try SQLiteStoreTests.open(url, classes: classes)
        let ann = try #require(try RedTeamLeague.one(context, "Person", "Ann") as? CountingPerson)
        try ann.set("a note", for: "memo")
        #expect(ann.awakenings == 1)
        try context.refresh(ann, mergeChanges: true)
        #expect(ann.awakenings == 2)
        #expect(ann["memo"] as String? == "a note")
        #expect(ann["name"] as String? == "Ann")
        // Already a fault: no fault hooks, nothing kept.
        try context.refresh(ann, mergeChanges: false)
        #expect(ann.isFault)
        try context.refresh(ann, mergeChanges: false)
        #expect(ann["memo"] as String? == nil)
    }

    @Test("undoing a change of an object refreshed into a fault loads it and applies the undo")
    func undoAfterRefresh() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(try RedTeamLeague.write(in: folder))
        context.undoManager = UndoManager()
        let ann = try RedTeamLeague.one(context, "Person", "Ann")
        try ann.set(31, for: "age")
        try context.save()
        try context.refresh(ann, mergeChanges: false)
        #expect(ann.isFault)
        context.undo()
        #expect(!ann.isFault)
        #expect(ann["age"] as Int? == 30)
        #expect(ann.changedKeys == ["age"])
    }

    @Test("the IDs of a to-many read without loading are kept for the next read")
    func toManyIDsKept() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(try RedTeamLeague.write(in: folder))
        let red = try RedTeamLeague.one(context, "Team", "Red")
        let ids = try red.objectIDs(forRelationshipNamed: "members")
        let position = try red.schema.position(of: "members")
        guard case .toManyFault(let kept?) = red.slots[position] else {
            Issue.record("the IDs were not kept: \(red.slots[position])")
            return
        }
        #expect(kept == ids)
        #expect(!red.hasChanges)
        #expect(try red.objects(for: "members").map(\.objectID) == ids)
        #expect(!red.hasChanges)
    }
}
