import Foundation
import Testing

@testable import ObjectGraph

/// Objects' slots in shared blocks: runs side by side, written in place, and alive as long as
/// any object in them.
@Suite("Slot blocks")
struct SlotBlockTests {
    @Test("runs fill a block side by side; blocks double up to the largest; wide runs stand alone")
    func arenaRuns() {
        var arena = SlotArena()
        var runs: [SlotRange] = []
        for _ in 0..<10 {
            runs.append(arena.fillRun(width: 7) { _ in })
        }
        // 64 slots hold 9 runs of 7; the tenth starts a block of 128.
        #expect(runs[0].block === runs[8].block)
        #expect(runs.prefix(9).map(\.offset) == [0, 7, 14, 21, 28, 35, 42, 49, 56])
        #expect(runs[9].block !== runs[8].block)
        #expect(runs[9].offset == 0)
        #expect(runs[9].block.capacity == 128)
        for _ in 0..<20 {
            let block = arena.fillRun(width: SlotArena.largestBlock) { _ in }.block
            #expect(block.room == 0)
            #expect(block.capacity <= SlotArena.largestBlock)
        }
        let wide = arena.fillRun(width: SlotArena.largestBlock + 5) { _ in }
        #expect(wide.offset == 0)
        #expect(wide.block.capacity == SlotArena.largestBlock + 5)
    }

    @Test("a run is whole: positions left unwritten hold null, writes past its end are dropped")
    func runsAreWhole() {
        var arena = SlotArena()
        let short = arena.fillRun(width: 3) { run in run.append(.integer(1)) }
        let long = arena.fillRun(width: 2) { run in
            for value in 0..<5 { run.append(.integer(Int64(value))) }
        }
        #expect(short.block === long.block)
        #expect(long.offset == 3)
        #expect(short.block.count == 5)
        let values = (0..<5).map { index -> Value? in
            if case .value(let value) = short.block.start[index] { return value }
            return nil
        }
        #expect(values == [.integer(1), .null, .null, .integer(0), .integer(1)])
    }

    @Test("a block releases what its slots hold when its last object goes")
    func blockReleasesValues() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(folder.appendingPathComponent("L.sqlite"))
        weak var held: ManagedObject?
        do {
            let team = try context.insert("Team")
            held = team
            let block = SlotBlock(capacity: 2)
            block.append(.toMany([team]))
            block.append(.value(.string("kept")))
            #expect(block.room == 0)
            context.reset()
        }
        #expect(held == nil)
    }

    @Test("objects of entities of different widths, inserted in turn, keep their own values")
    func interleavedInserts() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("L.sqlite")
        let context = try SQLiteStoreTests.open(url)
        var people: [ManagedObject] = []
        var teams: [ManagedObject] = []
        for index in 0..<300 {
            let team = try context.insert("Team")
            try team.set("team \(index)", for: "name")
            let person = try context.insert("Person")
            try person.set("person \(index)", for: "name")
            try person.set(index % 100, for: "age")
            try person.setObject(team, for: "team")
            teams.append(team)
            people.append(person)
        }
        for (index, person) in people.enumerated() where index.isMultiple(of: 3) {
            try person.set("p\(index)@example.com", for: "email")
        }
        try context.save()
        for index in people.indices {
            #expect(people[index]["name"] as String? == "person \(index)")
            #expect(try people[index].object(for: "team") === teams[index])
            #expect(teams[index]["name"] as String? == "team \(index)")
            let email: String? = people[index]["email"]
            #expect(email == (index.isMultiple(of: 3) ? "p\(index)@example.com" : nil))
        }

        let reader = try SQLiteStoreTests.open(url)
        var request = FetchRequest(entityName: "Person")
        request.sortDescriptors = [SortDescriptor("name")]
        let fetched = try reader.fetch(request)
        #expect(fetched.count == 300)
        for person in fetched {
            let name = try #require(person["name"] as String?)
            let index = try #require(Int(name.dropFirst("person ".count)))
            #expect(person["age"] as Int? == index % 100)
            #expect(try person.object(for: "team")?["name"] as String? == "team \(index)")
        }
    }

    @Test("fetched objects kept after their context is gone keep their values")
    func objectsOutliveTheirContext() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let url = folder.appendingPathComponent("People.sqlite")
        do {
            let writer = try SQLiteStoreTests.open(url)
            for index in 0..<700 {
                let person = try writer.insert("Person")
                try person.set("P\(1000 + index)", for: "name")
                try person.set(index % 150, for: "age")
            }
            try writer.save()
        }
        var kept: [ManagedObject] = []
        weak var gone: ManagedContext?
        do {
            let context = try SQLiteStoreTests.open(url)
            gone = context
            let people = try context.fetch(FetchRegistrationTests.byName())
            kept = stride(from: 0, to: people.count, by: 97).map { people[$0] }
        }
        #expect(gone == nil)
        #expect(kept.count == 8)
        for (step, person) in kept.enumerated() {
            #expect(person.context == nil)
            #expect(person["name"] as String? == "P\(1000 + step * 97)")
            #expect(person["age"] as Int? == (step * 97) % 150)
        }
    }
}

extension SlotBlockTests {
    @Test("an object that goes away empties its run, while its block lives on for the others")
    func departedObjectEmptiesItsRun() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let context = try SQLiteStoreTests.open(folder.appendingPathComponent("L.sqlite"))
        let kept = try context.insert("Team")
        try kept.set("kept", for: "name")
        var block: SlotBlock?
        var offset = 0
        do {
            let gone = try context.insert("Team")
            try gone.set("a long name that is not stored inline", for: "name")
            #expect(gone.slotBlock === kept.slotBlock)
            block = gone.slotBlock
            offset = Int(gone.slotOffset)
            try context.save()
            context.delete(gone)
            try context.save()
        }
        let run = try #require(block).start + offset
        for position in 0..<kept.schema.slotCount {
            guard case .value(.null) = run[position] else {
                Issue.record("slot \(position) of a departed object still holds a value")
                continue
            }
        }
        #expect(kept["name"] as String? == "kept")
    }
}
