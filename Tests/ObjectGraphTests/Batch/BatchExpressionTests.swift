import Foundation
import Testing

@testable import ObjectGraph

/// Batch updates whose values are expressions of each row (`score + 1`): run in SQL by the
/// SQLite store when SQL gives the evaluator's answers, over the rows otherwise, with the same
/// results on every store.
@Suite("Batch updates with expressions")
struct BatchExpressionTests {
    /// The rows-path calls a request makes on `kind`: none when the SQLite or the PostgreSQL
    /// store runs it in SQL.
    static func rowPathCalls(_ kind: BatchStoreKind, inSQL: Bool) -> Int {
        inSQL && [.sqlite, .postgres].contains(kind) ? 0 : 1
    }

    @Test(
        "score + 1 and bytes * 2 run in SQL on SQLite and PostgreSQL",
        arguments: BatchStoreKind.allCases)
    func arithmetic(_ kind: BatchStoreKind) throws {
        let fixture = try BatchFixture(kind)
        let hook = BatchHookCalls()
        var request = BatchUpdateRequest(
            entityName: "Folder", propertiesToUpdate: ["score": try Expression(format: "score + 1")]
        )
        request.resultType = .count
        #expect(try hook.during { try fixture.context.execute(request) }.count == 3)
        #expect(hook.calls == Self.rowPathCalls(kind, inSQL: true))
        #expect(try fixture.names("Folder", "score") == ["2.0", "3.0", "4.0"])
        // Integers stay integers.
        try fixture.context.execute(BatchUpdateRequest(entityName: "File", values: ["bytes": 5]))
        let doubled = BatchUpdateRequest(
            entityName: "File", predicate: try Predicate(format: "name IN {'a', 'b'}"),
            propertiesToUpdate: ["bytes": .key("bytes").times(2)])
        let before = hook.calls
        #expect(try hook.during { try fixture.context.execute(doubled) }.status)
        #expect(hook.calls - before == Self.rowPathCalls(kind, inSQL: true))
        #expect(try fixture.names("File", "bytes") == ["10", "10", "5", "5"])
        #expect(fixture.context.registeredObjects.isEmpty)
    }

    @Test(
        "a nil operand gives nil on every store (SQL hands the rows to the evaluator)",
        arguments: BatchStoreKind.allCases)
    func nilOperand(_ kind: BatchStoreKind) throws {
        let fixture = try BatchFixture(kind)
        try fixture.context.execute(
            BatchUpdateRequest(
                entityName: "Folder", predicate: try Predicate(format: "name == 'vault'"),
                values: ["score": nil]))
        let hook = BatchHookCalls()
        let request = BatchUpdateRequest(
            entityName: "Folder",
            propertiesToUpdate: ["score": try Expression(format: "score * 10")])
        _ = try hook.during { try fixture.context.execute(request) }
        #expect(hook.calls == 1)
        #expect(try fixture.names("Folder", "score") == ["20.0", "30.0", "nil"])
    }

    @Test(
        "an expression the evaluator refuses fails on every store, writing nothing",
        arguments: BatchStoreKind.allCases)
    func refused(_ kind: BatchStoreKind) throws {
        let fixture = try BatchFixture(kind)
        try fixture.context.execute(BatchUpdateRequest(entityName: "File", values: ["bytes": 5]))
        // Integer overflow is an error in the evaluator, not a wrap or a double.
        let request = BatchUpdateRequest(
            entityName: "File",
            propertiesToUpdate: ["bytes": .key("bytes").times(.constant(.integer(.max)))])
        #expect(throws: PredicateEvaluationError.self) {
            try fixture.context.execute(request)
        }
        #expect(try fixture.names("File", "bytes") == ["5", "5", "5", "5"])
        // A string into a number is refused, naming entity and property.
        #expect(throws: ObjectGraphError.self) {
            try fixture.context.execute(
                BatchUpdateRequest(
                    entityName: "Folder",
                    propertiesToUpdate: ["score": .function("uppercase:", [.key("name")])]))
        }
        #expect(try fixture.names("Folder", "score") == ["1.0", "2.0", "3.0"])
    }
}
