import CLibPQ
import Foundation

/// The least wrapping of libpq the raw PostgreSQL runner needs: a connection that runs SQL
/// text, prepares named statements once and runs them with text parameters, and a result whose
/// cells are parsed straight from libpq's buffers.
final class RawPostgres {
    let handle: OpaquePointer
    private var prepared: Set<String> = []

    /// Connects with the libpq connection string or URI `conninfo` and makes `schema` the
    /// search path.
    init(conninfo: String, schema: String) throws {
        guard let connection = PQconnectdb(conninfo) else {
            throw BenchError.failed("libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw BenchError.failed("cannot connect to PostgreSQL: \(message)")
        }
        handle = connection
        try execute("SET client_min_messages TO warning")
        try execute("SET search_path TO \"\(schema.replacingOccurrences(of: "\"", with: "\"\""))\"")
    }

    deinit { PQfinish(handle) }

    /// Runs SQL text without parameters (schema, `BEGIN`, `COMMIT`).
    func execute(_ sql: String) throws {
        try RawPostgresResult(PQexec(handle, sql), connection: self, sql: sql).clear()
    }

    /// Runs `body` in one transaction, rolled back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs the statement `sql` (prepared under `name` on first use) with `parameters` in
    /// text form (`nil`: NULL).
    func run(_ name: String, _ sql: String, _ parameters: [String?] = []) throws
        -> RawPostgresResult
    {
        if !prepared.contains(name) {
            try RawPostgresResult(PQprepare(handle, name, sql, 0, nil), connection: self, sql: sql)
                .clear()
            prepared.insert(name)
        }
        let copies = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { for pointer in copies { free(pointer) } }
        let values = copies.map { UnsafePointer($0) }
        let result = PQexecPrepared(handle, name, Int32(parameters.count), values, nil, nil, 0)
        return try RawPostgresResult(result, connection: self, sql: sql)
    }

    var errorMessage: String { String(cString: PQerrorMessage(handle)) }
}

/// A statement's result: rows of text cells read in place (no copy but the parsed value).
/// Cleared by ``clear()`` (every user clears it once it has read it).
struct RawPostgresResult {
    let handle: OpaquePointer

    init(_ result: OpaquePointer?, connection: RawPostgres, sql: String) throws {
        guard let result else {
            throw BenchError.failed("\(connection.errorMessage) (SQL: \(sql))")
        }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let message = String(cString: PQresultErrorMessage(result))
            PQclear(result)
            throw BenchError.failed("PostgreSQL: \(message) (SQL: \(sql))")
        }
        handle = result
    }

    var rowCount: Int { Int(PQntuples(handle)) }

    /// The rows the statement changed.
    var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    func int64(_ row: Int, _ column: Int) -> Int64 {
        guard PQgetisnull(handle, Int32(row), Int32(column)) == 0 else { return 0 }
        return strtoll(PQgetvalue(handle, Int32(row), Int32(column)), nil, 10)
    }

    func double(_ row: Int, _ column: Int) -> Double {
        guard PQgetisnull(handle, Int32(row), Int32(column)) == 0 else { return 0 }
        return strtod(PQgetvalue(handle, Int32(row), Int32(column)), nil)
    }

    func string(_ row: Int, _ column: Int) -> String {
        guard let value = PQgetvalue(handle, Int32(row), Int32(column)) else { return "" }
        return String(cString: value)
    }

    func clear() { PQclear(handle) }
}
