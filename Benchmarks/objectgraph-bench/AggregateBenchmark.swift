import Foundation
import ObjectGraph

/// The `aggregate` operation: the sum and the average of the people's scores grouped by team,
/// run `runs` times (the `--queries` count). ObjectGraph answers a grouped dictionary fetch,
/// which its SQLite store runs as one `SELECT … GROUP BY`; the raw side runs the same
/// `GROUP BY` with a prepared statement. Both add every group's sum and mean to the checksum.
enum AggregateBenchmark {
    /// The grouped fetch ObjectGraph runs.
    static func request() -> FetchRequest<ManagedObject> {
        var request = FetchRequest(entityName: "Person")
        request.propertiesToFetch = [
            .key("team"), .aggregate(.sum, of: "score", as: "total"),
            .aggregate(.average, of: "score", as: "mean"),
        ]
        request.propertiesToGroupBy = ["team"]
        return request
    }

    /// One group's contribution to the checksum.
    static func checksum(total: Double, mean: Double) -> Int64 {
        Int64((total * 10).rounded()) &+ Int64((mean * 10).rounded())
    }

    /// ObjectGraph's side: `runs` grouped dictionary fetches.
    static func objectGraph(_ context: ManagedContext, runs: Int) throws -> SideResult {
        let request = request()
        var checksum: Int64 = 0
        var groups = 0
        for _ in 0..<runs {
            let rows = try context.fetchDictionaries(request)
            groups = rows.count
            for row in rows {
                guard case .double(let total)? = row["total"], case .double(let mean)? = row["mean"]
                else { throw BenchError.failed("aggregate: a group without a sum or mean: \(row)") }
                checksum &+= Self.checksum(total: total, mean: mean)
            }
        }
        return SideResult(seconds: 0, checksum: checksum, count: groups)
    }

    /// The raw side: `runs` times the same `GROUP BY` through sqlite3 calls.
    static func raw(_ db: RawDatabase, runs: Int) throws -> SideResult {
        let select = try db.prepare(
            "SELECT ZTEAM, SUM(ZSCORE), AVG(ZSCORE) FROM ZPERSON GROUP BY ZTEAM")
        var checksum: Int64 = 0
        var groups = 0
        for _ in 0..<runs {
            groups = 0
            while try select.step() {
                checksum &+= Self.checksum(total: select.double(1), mean: select.double(2))
                groups += 1
            }
            select.reset()
        }
        return SideResult(seconds: 0, checksum: checksum, count: groups)
    }
}
