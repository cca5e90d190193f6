import Foundation
import SQLiteDatabase
import Testing

@Suite("Schema introspection and tracing")
struct SchemaTests {
    @Test("tableExists and columnNames read the main schema")
    func introspection() throws {
        try withDatabase { db, _ throws in
            try db.execute(
                sql: "CREATE TABLE \"Order\" (id INTEGER PRIMARY KEY, \"group\" TEXT, total)")
            #expect(try db.tableExists("Order"))
            #expect(try db.tableExists("order"))
            #expect(try !db.tableExists("Orders"))
            #expect(try db.columnNames(inTable: "Order") == ["id", "group", "total"])
            #expect(try db.columnNames(inTable: "missing").isEmpty)
        }
    }

    @Test("trace reports the SQL of each statement run, without its values")
    func trace() throws {
        try withDatabase { db, _ throws in
            let seen = Locked<[String]>([])
            try db.execute(sql: "CREATE TABLE t (v); CREATE TABLE log (v)")
            try db.execute(
                sql:
                    "CREATE TRIGGER t_log AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.v); END"
            )
            try db.trace { sql in seen.withValue { $0.append(sql) } }
            try db.inTransaction { db in
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["secret"])
                _ = try db.fetchAll(sql: "SELECT v FROM t")
            }
            try db.trace(nil)
            _ = try db.fetchAll(sql: "SELECT v FROM log")
            let traced = seen.withValue { $0 }
            #expect(
                traced == [
                    "BEGIN DEFERRED TRANSACTION", "INSERT INTO t VALUES (?)", "SELECT v FROM t",
                    "COMMIT TRANSACTION",
                ])
            #expect(try db.fetchValue(String.self, sql: "SELECT v FROM log") == "secret")
        }
    }
}
