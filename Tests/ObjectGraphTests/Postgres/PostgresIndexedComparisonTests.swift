import Foundation
import Testing

@testable import ObjectGraph

/// A number column compared with a constant is a plain comparison on PostgreSQL (its nil
/// rows excluded by `IS NOT NULL`, not by `COALESCE(…, FALSE)` or `IS NOT DISTINCT FROM`),
/// so the server answers it from the column's index, with the evaluator's answers.
@Suite("PostgreSQL store: number comparisons use indexes")
struct PostgresIndexedComparisonTests {
    /// `Reading(serial: Integer 64, level: Double)`, both indexed.
    static func model() -> EntityModel {
        EntityModel(entities: [
            Entity(
                "Reading",
                attributes: [
                    Attribute("serial", type: .integer64, isIndexed: true),
                    Attribute("level", type: .double, isIndexed: true),
                ])
        ])
    }

    /// A context on a fresh PostgreSQL store of 3,000 readings (every tenth without values,
    /// one level NaN).
    static func context() throws -> ManagedContext {
        let url = try TestPostgresServer.require().url(
            schema: TestPostgresServer.freshSchema("indexed"))
        let coordinator = StoreCoordinator(model: model())
        try coordinator.addStore(type: .postgres, at: url)
        let context = ManagedContext(coordinator: coordinator)
        for index in 0..<3_000 {
            let reading = try context.insert("Reading")
            guard index % 10 != 0 else { continue }
            try reading.set(Int64(index), for: "serial")
            try reading.set(index == 7 ? Double.nan : Double(index) / 2, for: "level")
        }
        try context.save()
        return context
    }

    @Test(
        "== of a column and a constant is read from the column's index",
        arguments: [
            ("serial == 17", 1), ("level == 8.5", 1), ("serial == 20", 0),
            ("level == 7.0", 1), ("NOT (serial == 17)", 2_999), ("NOT (level == 8.5)", 2_999),
        ])
    func equality(format: String, expected: Int) throws {
        let context = try Self.context()
        let request = FetchRequest(entityName: "Reading", predicate: try Predicate(format: format))
        #expect(try context.fetch(request).count == expected, "\(format)")
        let explanation = try context.explain(request)
        #expect(explanation.runsInSQL, "\(format): \(explanation)")
        if !format.hasPrefix("NOT") {
            #expect(
                explanation.lines.contains { $0.contains("Index") },
                "\(format) should use an index: \(explanation)")
        }
    }

    @Test("orderings keep the evaluator's answers with nil and NaN rows")
    func orderings() throws {
        let context = try Self.context()
        let cases: [(String, Int)] = [
            ("serial > 2990", 9), ("serial <= 5", 5), ("NOT (serial > 2990)", 2_991),
            ("level >= 1495", 9), ("NOT (level < 1)", 2_999), ("level < 1", 1),
            ("serial > 100 AND level < 100", 90),
        ]
        for (format, expected) in cases {
            let request = FetchRequest(
                entityName: "Reading", predicate: try Predicate(format: format))
            #expect(try context.explain(request).runsInSQL, "\(format)")
            #expect(try context.fetch(request).count == expected, "\(format)")
            #expect(try context.count(for: request) == expected, "\(format)")
        }
    }
}
