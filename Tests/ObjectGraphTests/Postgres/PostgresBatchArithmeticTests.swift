import Foundation
import Testing

@testable import ObjectGraph

/// Batch updates whose expressions mix integer and `Double` attributes run in SQL on a
/// PostgreSQL store, typed as the evaluator types them (integers in `Int64`, `/` and a
/// `Double` operand in floating point), with the in-memory store's values; where the
/// evaluator refuses a row (overflow) or a value is nil, the rows are evaluated, with the same
/// outcome.
@Suite("PostgreSQL batch updates with integer arithmetic in SQL")
struct PostgresBatchArithmeticTests {
    /// Rows at the edges: `Int64` extremes, each integer width's extremes, nil.
    static let rows: [[String: Value]] = [
        ["str": "a", "i16": .integer(-32768), "i32": .integer(7), "i64": .integer(5), "dbl": 0.1],
        [
            "str": "b", "i16": .integer(32767), "i32": .integer(2_147_483_647),
            "i64": .integer(-9_007_199_254_740_993), "dbl": -2.5,
        ],
        ["str": "c", "i16": .integer(3), "i32": .integer(-4), "i64": .integer(0), "dbl": 1e300],
        [
            "str": "d", "i16": .integer(1), "i32": .integer(1),
            "i64": .integer(4_611_686_018_427_387_903), "dbl": 3,
        ],
    ]

    /// The `i64` and `dbl` values of every row (by `str`) after `key` was set to `format`'s
    /// value on a fresh store of `type` holding `rows` (or the error's type), and the rows
    /// path's calls.
    static func updated(
        _ rows: [[String: Value]], _ key: String, _ format: String, on type: StoreType
    ) throws -> (result: [String], hookCalls: Int) {
        let folder = try TestSupport.makeTemporaryFolder()
        defer { TestSupport.removeTemporaryFolder(folder) }
        let coordinator = StoreCoordinator(model: AtomicStoreTestSupport.model())
        let url: URL? =
            type == .postgres
            ? try TestPostgresServer.require().url(
                schema: TestPostgresServer.freshSchema("batchint")) : nil
        _ = try coordinator.addStore(type: type, at: url)
        _ = try ManagedContext(coordinator: coordinator).execute(
            BatchInsertRequest(entityName: "All", objects: rows))
        let hook = BatchHookCalls()
        let request = BatchUpdateRequest(
            entityName: "All", propertiesToUpdate: [key: try Expression(format: format)])
        do {
            _ = try hook.during { try ManagedContext(coordinator: coordinator).execute(request) }
        } catch {
            return (["failed: \(Swift.type(of: error))"], hook.calls)
        }
        var sorted = FetchRequest<ManagedObject>(entityName: "All")
        sorted.sortDescriptors = [SortDescriptor("str")]
        let values = try ManagedContext(coordinator: coordinator).fetch(sorted).map {
            let integer = ($0["i64"] as Int64?).map { String($0) } ?? "nil"
            let double = ($0["dbl"] as Double?).map { String($0.bitPattern, radix: 16) } ?? "nil"
            return integer + " " + double
        }
        return (values, hook.calls)
    }

    @Test(
        "integer and mixed expressions run in SQL with the evaluator's values",
        arguments: [
            ("i64", "i64 + 1"), ("i64", "i64 * 2 - i32"), ("i64", "-i64"),
            ("i64", "i16 * i32 + i16"), ("i64", "i32 - i16 * 3"), ("dbl", "i64 / 3"),
            ("dbl", "i32 * 2 + dbl"), ("dbl", "i64 + 0.5"), ("dbl", "i16 * i32"),
            ("dbl", "-(i64 - 1) / i32"),
        ])
    func inSQL(_ key: String, _ format: String) throws {
        let postgres = try Self.updated(Self.rows, key, format, on: .postgres)
        let memory = try Self.updated(Self.rows, key, format, on: .inMemory)
        #expect(postgres.hookCalls == 0)
        #expect(postgres.result == memory.result)
    }

    @Test(
        "an Int64 overflow, a nil operand, a zero divisor: the rows are evaluated, same outcome",
        arguments: [
            ("i64", "i64 * 2 + 2", false), ("i64", "i64 + 4611686018427387905", false),
            ("i64", "-(i64 - 4611686018427387904) * 2", false), ("i64", "i64 - i16", true),
            ("dbl", "i16 / i64", false), ("dbl", "i64 + dbl", true),
        ])
    func evaluated(_ key: String, _ format: String, _ withNil: Bool) throws {
        let rows = Self.rows + (withNil ? [["str": "e", "i16": .integer(2)]] : [])
        let postgres = try Self.updated(rows, key, format, on: .postgres)
        let memory = try Self.updated(rows, key, format, on: .inMemory)
        #expect(postgres.result == memory.result)
    }
}
