import Foundation
import ObjectGraph
import Testing

/// Many seeded random edits, checked after each event against a controller fetching the same
/// request from scratch: the incremental results are the refetched ones, and every reported
/// difference turns the snapshot before into the one after.
@Suite("Fetched results: incremental against refetch")
struct FetchedResultsDifferentialTests {
    static let groups: [String?] = ["A", "B", "C", "D", nil]

    /// One random edit: insert, delete, or change a group, a rank (ties are common), the
    /// active flag or the name.
    func edit(
        _ fixture: FetchedResultsFixture, _ items: inout [ManagedObject],
        _ random: inout SeededGenerator
    ) throws {
        let kind = Int.random(in: 0..<10, using: &random)
        if kind < 2 || items.isEmpty {
            let group = Self.groups.randomElement(using: &random) ?? nil
            items.append(
                try fixture.item(
                    "n\(Int.random(in: 0..<1000, using: &random))", group: group,
                    rank: Int.random(in: 0..<20, using: &random),
                    active: Bool.random(using: &random)))
            return
        }
        let index = Int.random(in: 0..<items.count, using: &random)
        let item = items[index]
        switch kind {
        case 2:
            fixture.context.delete(item)
            items.remove(at: index)
        case 3, 4:
            try item.set(Self.groups.randomElement(using: &random) ?? nil, for: "group")
        case 5, 6:
            try item.set(Int.random(in: 0..<20, using: &random), for: "rank")
        case 7, 8:
            try item.set(Bool.random(using: &random), for: "active")
        default:
            try item.set("r\(Int.random(in: 0..<1000, using: &random))", for: "name")
        }
    }

    @Test(
        "random edits, saves, merges and undos: the controller holds what a refetch finds",
        arguments: [
            (seed: UInt64(1), sections: "group", limit: 0),
            (seed: UInt64(2), sections: nil, limit: 0),
            (seed: UInt64(3), sections: "group", limit: 7),
        ] as [(seed: UInt64, sections: String?, limit: Int)])
    func randomEdits(seed: UInt64, sections: String?, limit: Int) throws {
        let fixture = try FetchedResultsFixture()
        defer { fixture.remove() }
        var random = SeededGenerator(seed: seed)
        var items: [ManagedObject] = []
        for number in 0..<60 {
            items.append(
                try fixture.item(
                    "i\(number)", group: Self.groups[number % Self.groups.count],
                    rank: number % 20, active: number % 3 != 0))
        }
        try fixture.context.save()
        var request = try fixture.request(
            "active == YES OR rank > 15",
            sort: [
                ObjectGraph.SortDescriptor("group"),
                ObjectGraph.SortDescriptor("rank", ascending: false),
            ])
        request.fetchLimit = limit
        let controller = try fixture.controller(request, sections: sections)
        let log = DifferenceLog(controller)
        let other = fixture.otherContext()
        for step in 0..<150 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0:
                try fixture.context.save()
            case 1:
                fixture.context.undo()
                items = items.filter {
                    !$0.isDeleted && fixture.context.registeredObject(for: $0.objectID) === $0
                }
            case 2:
                // Another context edits and saves; this one merges.
                var saved: ContextNotification?
                let observation = other.observe { if $0.kind == .didSave { saved = $0 } }
                let theirs = try other.fetch(try fixture.request())
                if let target = theirs.randomElement(using: &random) {
                    try target.set(Int.random(in: 0..<20, using: &random), for: "rank")
                }
                try fixture.item("m\(step)", rank: step % 20, in: other)
                try other.save()
                observation.cancel()
                if let saved { try fixture.context.mergeChanges(fromContextDidSave: saved) }
            default:
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    try edit(fixture, &items, &random)
                }
                fixture.context.processPendingChanges()
            }
            let fresh = try fixture.controller(request, sections: sections)
            #expect(controller.snapshot == fresh.snapshot, "step \(step)")
            if limit == 0 {
                // Without ties' order, the plain fetch finds the same objects in each section.
                let fetched = Set(try fixture.context.fetch(request).map(\.objectID))
                #expect(Set(controller.snapshot?.ids ?? []) == fetched, "step \(step)")
            }
        }
        #expect(log.misfits.isEmpty)
        #expect(!log.differences.isEmpty)
        if limit == 0 { #expect(controller.fullFetchCount == 1) }
    }
}
