import Foundation
import Testing

@testable import ObjectGraph

/// Arithmetic the SQLite store compiles to SQLite's own operators (no call into Swift per
/// row): the SQL it makes, and values equal to the evaluator's (`Arithmetic.apply`) at the
/// edges, nil, infinities, integer overflow and division by zero included.
@Suite("Batch updates with native SQL arithmetic")
struct BatchNativeArithmeticTests {
    /// The SQL of `expression` on a row of `entity` of the batch model.
    static func sql(_ expression: ObjectGraph.Expression, _ entity: String) throws -> String {
        let model = BatchFixture.model()
        let compiler = SQLQueryCompiler(layout: try StoreLayout(model: model), model: model)
        return try compiler.rowValue(expression, entity: entity).piece.sql
    }

    @Test("Double arithmetic and integer ± constant compile to SQLite's operators")
    func compiledSQL() throws {
        let score = ObjectGraph.Expression.key("score")
        let bytes = ObjectGraph.Expression.key("bytes")
        #expect(try Self.sql(score.plus(1), "Folder") == "(t0.\"ZSCORE\" + ?)")
        #expect(
            try Self.sql(try Expression(format: "score * 2 - 0.5"), "Folder")
                == "((t0.\"ZSCORE\" * ?) - ?)")
        #expect(
            try Self.sql(try Expression(format: "score / 4"), "Folder") == "(t0.\"ZSCORE\" / ?)")
        // A divisor that may be 0 goes to og_arithmetic when it is.
        let byColumn = try Self.sql(try Expression(format: "score / score"), "Folder")
        #expect(byColumn.hasPrefix("(CASE WHEN t0.\"ZSCORE\" = 0 THEN og_arithmetic("))
        // Integers: + and - of a constant, guarded where they would overflow.
        let plus = try Self.sql(bytes.plus(1), "File")
        #expect(plus.hasPrefix("(CASE WHEN t0.\"ZBYTES\" > ? THEN og_arithmetic("))
        #expect(plus.hasSuffix("ELSE t0.\"ZBYTES\" + ? END)"))
        // What SQLite does differently stays with og_arithmetic: integer * and /, **.
        #expect(try Self.sql(bytes.times(2), "File").hasPrefix("og_arithmetic("))
        #expect(
            try Self.sql(try Expression(format: "bytes / 2"), "File").hasPrefix("og_arithmetic("))
        #expect(
            try Self.sql(.arithmetic(score, .power, .constant(.integer(2))), "Folder")
                .hasPrefix("og_arithmetic("))
        #expect(
            try Self.sql(try Expression(format: "bytes + bytes"), "File").hasPrefix(
                "og_arithmetic("))
    }

    /// A batch update of `entity`'s `key` to `expression` after seeding `seeds` (object name →
    /// value) on SQLite: the values it leaves are the evaluator's, or, when the evaluator
    /// refuses a row (or makes a NaN), the request fails and nothing changes.
    static func check(
        _ entity: String, _ key: String, seeds: [String: Value],
        _ expression: ObjectGraph.Expression,
        op: ArithmeticOperator, constant: Value, constantFirst: Bool = false,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let fixture = try BatchFixture(.sqlite)
        for (name, value) in seeds {
            try fixture.context.execute(
                BatchUpdateRequest(
                    entityName: entity, predicate: try Predicate(format: "name == %@", name),
                    values: [key: value]))
        }
        var expected: [String: Value] = [:]
        var refused = false
        for (name, value) in seeds {
            do {
                let result = try Arithmetic.apply(
                    op, .value(constantFirst ? constant : value),
                    .value(constantFirst ? value : constant))
                guard case .value(let scalar) = result else { throw Refused() }
                if case .double(let d) = scalar, d.isNaN { throw Refused() }
                expected[name] = scalar
            } catch {
                refused = true
            }
        }
        let request = BatchUpdateRequest(entityName: entity, propertiesToUpdate: [key: expression])
        if refused {
            #expect(throws: (any Error).self, sourceLocation: sourceLocation) {
                try fixture.context.execute(request)
            }
            expected = seeds
        } else {
            try fixture.context.execute(request)
        }
        for object in try fixture.objects(entity) {
            guard case .string(let name) = try object.value(for: "name"), let want = expected[name]
            else { continue }
            let got = try object.value(for: key)
            let same =
                switch (got, want) {
                case (.null, .null): true
                case (.integer(let a), .integer(let b)): a == b
                default: Arithmetic.double(got) == Arithmetic.double(want)
                }
            #expect(
                same, "\(name): \(got) != \(want) for \(expression)", sourceLocation: sourceLocation
            )
        }
    }

    private struct Refused: Error {}

    @Test("Double results equal the evaluator's: nil, ±0, infinities, overflow to infinity")
    func doubles() throws {
        let seedSets: [[String: Value]] = [
            ["work": .double(0), "home": .double(-0.0), "vault": .double(1.5)],
            ["work": .double(.infinity), "home": .double(-.infinity), "vault": .double(1e308)],
            ["work": .double(.greatestFiniteMagnitude), "home": .double(-2.5), "vault": .null],
        ]
        let cases: [(ArithmeticOperator, Value)] = [
            (.add, .integer(1)), (.subtract, .double(2.5)), (.multiply, .integer(2)),
            (.multiply, .integer(-1)), (.multiply, .integer(0)), (.divide, .integer(4)),
            (.divide, .double(0.5)), (.add, .double(1e308)), (.divide, .integer(0)),
            (.divide, .double(0)),
        ]
        for seeds in seedSets {
            for (op, constant) in cases {
                try Self.check(
                    "Folder", "score", seeds: seeds,
                    .arithmetic(.key("score"), op, .constant(constant)), op: op,
                    constant: constant)
            }
            try Self.check(
                "Folder", "score", seeds: seeds,
                .arithmetic(.constant(.integer(1)), .subtract, .key("score")), op: .subtract,
                constant: .integer(1), constantFirst: true)
        }
    }

    @Test("integer ± constant equals the evaluator's, overflow refused as it refuses it")
    func integers() throws {
        let seedSets: [[String: Value]] = [
            ["a": .integer(.max), "b": .integer(.min), "c": .integer(0), "d": .integer(-1)],
            ["a": .integer(.max - 1), "b": .integer(.min + 1), "c": .integer(5), "d": .null],
            ["a": .integer(7), "b": .integer(-7), "c": .integer(0), "d": .null],
        ]
        let cases: [(ArithmeticOperator, Int64)] = [
            (.add, 1), (.subtract, 1), (.add, -1), (.subtract, -1), (.add, .max), (.add, .min),
            (.subtract, .min), (.subtract, .max), (.add, 0),
        ]
        for seeds in seedSets {
            for (op, constant) in cases {
                try Self.check(
                    "File", "bytes", seeds: seeds,
                    .arithmetic(.key("bytes"), op, .constant(.integer(constant))), op: op,
                    constant: .integer(constant))
            }
            try Self.check(
                "File", "bytes", seeds: seeds,
                .arithmetic(.constant(.integer(1)), .add, .key("bytes")), op: .add,
                constant: .integer(1), constantFirst: true)
        }
    }

    @Test("a batch update without a predicate runs in SQL and reports every ID, in key order")
    func everyRow() throws {
        let fixture = try BatchFixture(.sqlite)
        let hook = BatchHookCalls()
        var request = BatchUpdateRequest(
            entityName: "File", propertiesToUpdate: ["bytes": .key("bytes").plus(1)])
        try fixture.context.execute(BatchUpdateRequest(entityName: "File", values: ["bytes": 1]))
        request.resultType = .objectIDs
        let result = try hook.during { try fixture.context.execute(request) }
        #expect(hook.calls == 0)
        let files = try fixture.objects("File").map(\.objectID)
        #expect(
            result.objectIDs == files.sorted { $0.primaryKeyForTesting < $1.primaryKeyForTesting })
        #expect(result.changes[.updatedObjects]?.count == 4)
        #expect(try fixture.names("File", "bytes") == ["2", "2", "2", "2"])
        request.resultType = .count
        #expect(try fixture.context.execute(request).count == 4)
    }
}

extension ObjectID {
    /// The primary key of a permanent ID (0 for a temporary one).
    fileprivate var primaryKeyForTesting: Int64 {
        if case .permanent(let key) = key { return key }
        return 0
    }
}
