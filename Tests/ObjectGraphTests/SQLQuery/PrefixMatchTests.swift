import Foundation
import Testing

@testable import ObjectGraph

/// `BEGINSWITH` with a plain ASCII prefix runs as an index range plus a plain comparison with
/// the prefix followed by U+0080 (no function call per row); only a non-ASCII next character
/// goes to the Swift comparison.
@Suite("BEGINSWITH on SQLite")
struct PrefixMatchTests {
    @Test("a combining mark after the prefix is not a match; end of string and other letters are")
    func nextCharacter() throws {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let model = EntityModel(entities: [
            Entity("Word", attributes: [Attribute("text", type: .string, isIndexed: true)])
        ])
        let coordinator = StoreCoordinator(model: model)
        try coordinator.addStore(type: .sqlite, at: folder.appendingPathComponent("W.sqlite"))
        let context = ManagedContext(coordinator: coordinator)
        let words = [
            "J", "Jack", "J\u{301}ulia", "Jürgen", "J\u{1F600}", "K", "j", "Ja\u{301}", "J\u{7F}",
            "J\u{80}", "J\u{80}\u{301}", "J\u{7F}\u{301}", "I\u{10FFFF}",
        ]
        for word in words { try context.insert("Word").set(word, for: "text") }
        try context.save()
        let fresh = ManagedContext(coordinator: coordinator)
        var request = FetchRequest(
            entityName: "Word", predicate: try ObjectGraph.Predicate(format: "text BEGINSWITH 'J'"))
        let sql = try #require(try fresh.sql(for: request))
        #expect(!sql.contains("CAST") && !sql.contains("substr"))
        request.sortDescriptors = [ObjectGraph.SortDescriptor("text")]
        let found = try fresh.fetch(request).compactMap { $0["text"] as String? }
        let expected = words.filter { $0.hasPrefix("J") }.sorted()
        #expect(found == expected)
        #expect(
            Set(found) == [
                "J", "Jack", "Jürgen", "J\u{1F600}", "Ja\u{301}", "J\u{7F}", "J\u{80}",
                "J\u{80}\u{301}", "J\u{7F}\u{301}",
            ])
    }
}
