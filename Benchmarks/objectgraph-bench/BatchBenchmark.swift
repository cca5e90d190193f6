import CSQLite
import Foundation
import ObjectGraph

/// The batch operations, run after ``Workload/operations``' `delete_all` (or from an empty
/// store): `batch_insert` inserts n people from dictionaries, `batch_update` sets every
/// person's score to `score + 1`, `batch_delete` deletes the people whose `id` is above n / 2.
/// ObjectGraph runs batch requests (SQL in its SQLite store, no objects); the raw side runs
/// the same SQL in one transaction with prepared statements and bound values. Both report the
/// rows changed; `batch_insert` adds the people's checksums.
enum BatchBenchmark {
    static let operations = ["batch_insert", "batch_update", "batch_delete"]

    /// `batch_delete`'s predicate: the people with an `id` above this.
    static func deletedAbove(people n: Int) -> Int64 { Int64(n / 2) }

    /// The values of person `index` as a batch insert's dictionary.
    static func dictionary(_ values: PersonValues) -> [String: Value] {
        [
            "id": .integer(values.id), "name": .string(values.name),
            "age": .integer(Int64(values.age)), "email": .string(values.email),
            "score": .double(values.score),
            "created": .date(Date(timeIntervalSinceReferenceDate: values.created)),
        ]
    }

    /// The people `batch_insert` inserts, and their checksum (made before the clock starts:
    /// the request's input, as the raw side's values are).
    static func people(_ n: Int) -> (values: [PersonValues], checksum: Int64) {
        let values = (0..<n).map(Workload.person)
        return (values, values.reduce(0) { $0 &+ $1.checksum })
    }

    /// ObjectGraph's side; the clock runs only around the request.
    static func objectGraph(_ operation: String, n: Int, coordinator: StoreCoordinator) throws
        -> SideResult
    {
        let (people, checksum) = people(operation == "batch_insert" ? n : 0)
        let dictionaries = people.map(dictionary)
        let start = Clock.now()
        let startCPU = Clock.cpu()
        let context = ManagedContext(coordinator: coordinator)
        var result: SideResult
        switch operation {
        case "batch_insert":
            var request = BatchInsertRequest(entityName: "Person", objects: dictionaries)
            request.resultType = .count
            let count = try context.execute(request).count ?? 0
            result = SideResult(seconds: 0, checksum: checksum, count: count)
        case "batch_update":
            var request = BatchUpdateRequest(
                entityName: "Person", propertiesToUpdate: ["score": .key("score").plus(1)])
            request.resultType = .count
            let count = try context.execute(request).count ?? 0
            result = SideResult(seconds: 0, checksum: Int64(count), count: count)
        case "batch_delete":
            var request = BatchDeleteRequest(
                entityName: "Person",
                predicate: .key("id") > .constant(.integer(deletedAbove(people: n))))
            request.resultType = .count
            let count = try context.execute(request).count ?? 0
            result = SideResult(seconds: 0, checksum: Int64(count), count: count)
        default:
            throw BenchError.usage("unknown operation '\(operation)'")
        }
        result.seconds = Clock.now() - start
        result.cpuSeconds = Clock.cpu() - startCPU
        withExtendedLifetime(dictionaries) {}
        return result
    }

    /// The raw side: the same SQL through sqlite3 calls, in one transaction.
    static func raw(_ operation: String, n: Int, db: RawDatabase) throws -> SideResult {
        let (people, checksum) = people(operation == "batch_insert" ? n : 0)
        let start = Clock.now()
        let startCPU = Clock.cpu()
        var result = try db.transaction { () throws -> SideResult in
            switch operation {
            case "batch_insert":
                return SideResult(seconds: 0, checksum: checksum, count: try insert(people, db))
            case "batch_update":
                let update = try db.prepare(
                    "UPDATE ZPERSON SET ZSCORE = ZSCORE + ?, Z_OPT = COALESCE(Z_OPT, 0) + 1")
                update.bind(1, 1.0)
                try update.run()
                let count = Int(sqlite3_changes(db.handle))
                return SideResult(seconds: 0, checksum: Int64(count), count: count)
            case "batch_delete":
                // The people's teams lose members: their versions go up, as ObjectGraph's.
                let touch = try db.prepare(
                    "UPDATE ZTEAM SET Z_OPT = COALESCE(Z_OPT, 0) + 1 WHERE Z_PK IN"
                        + " (SELECT ZTEAM FROM ZPERSON WHERE ZID > ?)")
                touch.bind(1, deletedAbove(people: n))
                try touch.run()
                let delete = try db.prepare("DELETE FROM ZPERSON WHERE ZID > ?")
                delete.bind(1, deletedAbove(people: n))
                try delete.run()
                let count = Int(sqlite3_changes(db.handle))
                return SideResult(seconds: 0, checksum: Int64(count), count: count)
            default:
                throw BenchError.usage("unknown operation '\(operation)'")
            }
        }
        result.seconds = Clock.now() - start
        result.cpuSeconds = Clock.cpu() - startCPU
        return result
    }

    /// Inserts `people` with keys after `Z_PRIMARYKEY`'s, then records the last key.
    private static func insert(_ people: [PersonValues], _ db: RawDatabase) throws -> Int {
        let keys = try db.prepare("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
        keys.bind(1, RawSQLiteRunner.personEntity)
        let first = try keys.step() ? keys.int64(0) + 1 : 1
        keys.reset()
        let insert = try db.prepare(
            "INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZID, ZNAME, ZAGE, ZEMAIL, ZSCORE, ZCREATED)"
                + " VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?)")
        for (offset, values) in people.enumerated() {
            insert.bind(1, first + Int64(offset))
            insert.bind(2, RawSQLiteRunner.personEntity)
            insert.bind(3, values.id)
            insert.bind(4, values.name)
            insert.bind(5, Int64(values.age))
            insert.bind(6, values.email)
            insert.bind(7, values.score)
            insert.bind(8, values.created)
            try insert.run()
        }
        let last = try db.prepare("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
        last.bind(1, first + Int64(people.count) - 1)
        last.bind(2, RawSQLiteRunner.personEntity)
        try last.run()
        return people.count
    }
}
