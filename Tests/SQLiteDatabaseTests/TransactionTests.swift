import Foundation
import SQLiteDatabase
import Testing

private struct Abort: Error, Equatable {}

@Suite("Transactions and savepoints")
struct TransactionTests {
    private func withTable(_ body: (Database) throws -> Void) throws {
        try withDatabase { db, _ throws in
            try db.execute(sql: "CREATE TABLE t (v TEXT)")
            try body(db)
        }
    }

    private func values(_ db: Database) throws -> [String] {
        try db.fetchAll(sql: "SELECT v FROM t ORDER BY rowid").map { try $0.decode(at: 0) }
    }

    @Test(
        "a transaction commits when its body returns",
        arguments: [
            Database.TransactionKind.deferred, .immediate, .exclusive,
        ])
    func commit(kind: Database.TransactionKind) throws {
        try withTable { db throws in
            let result = try db.inTransaction(kind) { db in
                #expect(db.isInsideTransaction)
                try db.execute(sql: "INSERT INTO t VALUES ('a')")
                return 42
            }
            #expect(result == 42)
            #expect(!db.isInsideTransaction)
            #expect(try values(db) == ["a"])
        }
    }

    @Test("a transaction rolls back when its body throws, and the error is rethrown")
    func rollback() throws {
        try withTable { db throws in
            try db.execute(sql: "INSERT INTO t VALUES ('before')")
            #expect(throws: Abort()) {
                try db.inTransaction(.immediate) { db in
                    try db.execute(sql: "INSERT INTO t VALUES ('lost')")
                    throw Abort()
                }
            }
            #expect(!db.isInsideTransaction)
            #expect(try values(db) == ["before"])
        }
    }

    @Test("an SQL error inside a transaction rolls it all back")
    func sqlErrorRollsBack() throws {
        try withTable { db throws in
            let error = thrownError {
                try db.inTransaction { db in
                    try db.execute(sql: "INSERT INTO t VALUES ('lost')")
                    try db.execute(sql: "INSERT INTO missing VALUES (1)")
                }
            }
            #expect((error as? DatabaseError)?.resultCode == .error)
            #expect(try values(db).isEmpty)
        }
    }

    @Test("transactions do not nest")
    func noNestedTransactions() throws {
        try withTable { db throws in
            let error = thrownError {
                try db.inTransaction { db in
                    try db.execute(sql: "INSERT INTO t VALUES ('outer')")
                    try db.inTransaction { _ in }
                }
            }
            #expect((error as? DatabaseError)?.resultCode == .error)
            #expect(try values(db).isEmpty)
        }
    }

    @Test("explicit begin, commit and rollback")
    func explicitCalls() throws {
        try withTable { db throws in
            try db.beginTransaction()
            try db.execute(sql: "INSERT INTO t VALUES ('a')")
            try db.rollback()
            try db.beginTransaction(.exclusive)
            try db.execute(sql: "INSERT INTO t VALUES ('b')")
            try db.commit()
            #expect(try values(db) == ["b"])
        }
    }

    @Test("a failed inner savepoint undoes only its own changes")
    func nestedSavepointRollback() throws {
        try withTable { db throws in
            try db.inTransaction { db in
                try db.execute(sql: "INSERT INTO t VALUES ('outer')")
                try db.inSavepoint(named: "level1") { db in
                    try db.execute(sql: "INSERT INTO t VALUES ('level1')")
                    #expect(throws: Abort()) {
                        try db.inSavepoint(named: "level2") { db in
                            try db.execute(sql: "INSERT INTO t VALUES ('level2')")
                            throw Abort()
                        }
                    }
                    try db.execute(sql: "INSERT INTO t VALUES ('after level2')")
                }
            }
            #expect(try values(db) == ["outer", "level1", "after level2"])
        }
    }

    @Test("a failed outer savepoint undoes its inner, released savepoints too")
    func outerSavepointRollback() throws {
        try withTable { db throws in
            try db.inTransaction { db in
                try db.execute(sql: "INSERT INTO t VALUES ('kept')")
                #expect(throws: Abort()) {
                    try db.inSavepoint(named: "outer") { db in
                        try db.inSavepoint(named: "inner") { db in
                            try db.execute(sql: "INSERT INTO t VALUES ('inner')")
                        }
                        throw Abort()
                    }
                }
            }
            #expect(try values(db) == ["kept"])
        }
    }

    @Test("a savepoint outside a transaction is a transaction of its own")
    func savepointAsTransaction() throws {
        try withTable { db throws in
            try db.inSavepoint(named: "solo") { db in
                #expect(db.isInsideTransaction)
                try db.execute(sql: "INSERT INTO t VALUES ('a')")
            }
            #expect(!db.isInsideTransaction)
            #expect(throws: Abort()) {
                try db.inSavepoint(named: "solo") { db in
                    try db.execute(sql: "INSERT INTO t VALUES ('b')")
                    throw Abort()
                }
            }
            #expect(!db.isInsideTransaction)
            #expect(try values(db) == ["a"])
        }
    }

    @Test("savepoint names are quoted: quotes, spaces and keywords are safe")
    func savepointNamesQuoted() throws {
        try withTable { db throws in
            for name in ["a \"quoted\" name", "Order", "group", "x; DROP TABLE t; --"] {
                try db.inSavepoint(named: name) { db in
                    try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [name])
                    #expect(throws: Abort()) {
                        try db.inSavepoint(named: name) { db in
                            try db.execute(sql: "DELETE FROM t")
                            throw Abort()
                        }
                    }
                }
            }
            #expect(try values(db).count == 4)
        }
    }
}
