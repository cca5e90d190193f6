import Foundation
import Testing

@testable import ObjectGraph

/// The `Z_ENT` test of a fetch: there when the table holds other entities' rows, left out when
/// every row of the table is of the fetched entities.
@Suite("Z_ENT restriction of fetches")
struct EntityRestrictionTests {
    @Test("a table of one entity is read without a Z_ENT test or column; a shared table keeps both")
    func restriction() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(folder.appendingPathComponent("L.sqlite"))
        for name in ["Red", "Blue"] { try context.insert("Team").set(name, for: "name") }
        for (name, entity) in [("Ann", "Person"), ("Bob", "Player"), ("Cid", "Person")] {
            try context.insert(entity).set(name, for: "name")
        }
        try context.save()

        let teams = FetchRequest(entityName: "Team")
        let teamSQL = try #require(try context.sql(for: teams))
        #expect(!teamSQL.contains("Z_ENT\" IN"))
        #expect(!teamSQL.contains("WHERE"))
        // The table's one entity number is selected as a constant, not read per row.
        #expect(teamSQL.contains("AS \"Z_ENT\""))
        #expect(!teamSQL.contains("t0.\"Z_ENT\""))
        #expect(try context.count(for: teams) == 2)
        let teamNames = try context.fetch(teams).compactMap { $0["name"] as String? }
        #expect(teamNames.sorted() == ["Blue", "Red"])
        let teamIDs = try context.fetchObjectIDs(teams)
        #expect(teamIDs.count == 2 && teamIDs.allSatisfy { $0.entityName == "Team" })
        // A team's members (rows of a shared table) and a fault of a team read the same way.
        let reader = try SQLiteStoreTests.open(folder.appendingPathComponent("L.sqlite"))
        let fault = try reader.object(with: teamIDs[0])
        #expect(fault.isFault)
        #expect(fault["name"] as String? != nil)

        // Person's table holds its subentity Player: every person, or only plain ones.
        var people = FetchRequest(entityName: "Person")
        let everyone = try #require(try context.sql(for: people))
        #expect(!everyone.contains("Z_ENT\" IN"))
        #expect(everyone.contains("t0.\"Z_ENT\""))
        #expect(try context.fetch(people).count == 3)
        people.includesSubentities = false
        let plain = try #require(try context.sql(for: people))
        #expect(plain.contains("Z_ENT\" IN"))
        let names = try context.fetch(people).compactMap { $0["name"] as String? }
        #expect(names.sorted() == ["Ann", "Cid"])
        #expect(try context.count(for: people) == 2)
    }
}
