import Foundation
import Testing

@testable import ObjectGraph

/// `context.explain(request)`: SQLite's plan for a fetch's SQL, and what runs in memory.
@Suite("Explaining a fetch")
struct ExplainTests {
    /// A SQLite store of ``SQLDebugLogTests/model`` in `folder`, with Ann and Bo.
    static func context(in folder: URL) throws -> ManagedContext {
        try SQLDebugLogTests.store(in: folder, level: 0).0
    }

    static func request(_ format: String) throws -> FetchRequest<ManagedObject> {
        FetchRequest(entityName: "Person", predicate: try Predicate(format: format))
    }

    @Test("an indexed attribute is searched through its index")
    func indexed() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let explanation = try Self.context(in: folder).explain(try Self.request("name == 'Ann'"))
        #expect(explanation.runsInSQL)
        #expect(explanation.storeType == .sqlite)
        #expect(explanation.entityName == "Person")
        let plan = try #require(explanation.queryPlan)
        #expect(plan.usesIndex("Z_Person_byNameIndex"), "\(plan)")
        #expect(!plan.scansTable)
        #expect(explanation.statements.first?.arguments == ["'Ann'"])
        #expect(explanation.inMemory.isEmpty)
        let text = explanation.description
        #expect(text.contains("QUERY PLAN"))
        #expect(text.contains("rows found through index Z_Person_byNameIndex"))
        #expect(text.contains("in memory: nothing"))
    }

    @Test("an unindexed attribute is a scan")
    func scan() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        var request = try Self.request("age > 20")
        request.sortDescriptors = [SortDescriptor("age")]
        let explanation = try Self.context(in: folder).explain(request)
        let plan = try #require(explanation.queryPlan)
        #expect(plan.scansTable, "\(plan)")
        #expect(!plan.usesIndex("Z_Person_byNameIndex"))
        #expect(explanation.description.contains("every row is read"))
        #expect(explanation.description.contains("USE TEMP B-TREE FOR ORDER BY"))
    }

    @Test("a predicate the SQL compiler cannot translate is named, with why, as in memory")
    func inMemory() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let explanation = try Self.context(in: folder).explain(
            try Self.request("name.intValue > 0"))
        #expect(!explanation.runsInSQL)
        let part = try #require(explanation.inMemory.first)
        #expect(part.part.contains("name.intValue > 0"), "\(part)")
        #expect(part.reason.contains("cannot translate"), "\(part)")
        // The rows the evaluator filters are still read with SQL, and that read is planned.
        #expect(explanation.statements.count == 1)
        #expect(explanation.statements.first?.purpose.contains("in-memory evaluator") == true)
        #expect(explanation.queryPlan != nil)
        #expect(explanation.description.contains("in memory: the predicate `"))
    }

    @Test("a context's unsaved changes are named as matched in memory")
    func pendingChanges() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try Self.context(in: folder)
        try context.insert("Person").set("Cy", for: "name")
        let explanation = try context.explain(try Self.request("name == 'Cy'"))
        #expect(explanation.inMemory.map(\.part) == ["this context's unsaved changes"])
        #expect(explanation.queryPlan?.usesIndex("Z_Person_byNameIndex") == true)
    }

    @Test("a store that does not run SQL says so")
    func notSQL() throws {
        let coordinator = StoreCoordinator(model: SQLDebugLogTests.model)
        try coordinator.addStore(type: .inMemory)
        let explanation = try ManagedContext(coordinator: coordinator).explain(
            try Self.request("age > 1"))
        #expect(explanation.statements.isEmpty)
        #expect(explanation.queryPlan == nil)
        #expect(explanation.storeType == .inMemory)
        #expect(explanation.inMemory.first?.reason.contains("does not run SQL") == true)
    }

    @Test("a child context asks its parent, which asks the coordinator")
    func child() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let parent = try Self.context(in: folder)
        let child = ManagedContext(parent: parent)
        let explanation = try child.explain(try Self.request("name == 'Ann'"))
        #expect(explanation.queryPlan?.usesIndex("Z_Person_byNameIndex") == true)
    }
}
